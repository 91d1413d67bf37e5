/** The part of janode (ESM, untyped) this service uses: core connection, session and handle. */
declare module 'janode' {
  import type { EventEmitter } from 'node:events';

  export interface JanodeHandle extends EventEmitter {
    id: number;
    message(body: Record<string, unknown>, jsep?: unknown): Promise<JanusReply>;
    detach(): Promise<void>;
  }
  export type HandleClass = new (session: JanodeSession, id: number) => JanodeHandle;
  export interface JanodeSession extends EventEmitter {
    id: number;
    attach(opts: { id: string; Handle?: HandleClass }): Promise<JanodeHandle>;
    destroy(): Promise<void>;
  }
  export interface JanodeConnection extends EventEmitter {
    create(keepaliveSeconds?: number): Promise<JanodeSession>;
    close(): Promise<void>;
  }
  export interface JanusReply {
    janus: string;
    plugindata?: { plugin: string; data: Record<string, unknown> };
    [key: string]: unknown;
  }
  const Janode: {
    connect(config: {
      address: { url: string; apisecret?: string; token?: string };
      retry_time_secs?: number;
      max_retries?: number;
      is_admin?: boolean;
    }): Promise<JanodeConnection>;
    Logger: { setLevel(level: 'none' | 'error' | 'warning' | 'info' | 'verbose' | 'debug'): string };
    EVENT: {
      CONNECTION_CLOSED: string;
      CONNECTION_ERROR: string;
      SESSION_DESTROYED: string;
      HANDLE_DETACHED: string;
    };
  };
  export default Janode;
}

declare module 'janode/handle' {
  import type { JanodeHandle, JanodeSession, JanusReply } from 'janode';
  /** the generic handle; plugin handles override handleMessage for their asynchronous events */
  class Handle {
    constructor(session: JanodeSession, id: number);
    ownsTransaction(id: string): boolean;
    closeTransactionWithSuccess(id: string, data: unknown): void;
    handleMessage(message: JanusReply): unknown;
  }
  interface Handle extends JanodeHandle {}
  export default Handle;
}
