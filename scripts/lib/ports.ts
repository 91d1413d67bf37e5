/** Free-port helpers (loopback only). */
import { createServer, createConnection } from 'node:net';

/** true when nothing listens on 127.0.0.1:port and we may bind it */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** true when something accepts TCP connections on host:port */
export function isListening(port: number, host = '127.0.0.1', timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = createConnection({ port, host });
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(timeoutMs, () => done(false));
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

const handedOut = new Set<number>();

/** A port the OS says is free right now, never the same one twice in this process. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const srv = createServer();
      srv.once('error', reject);
      srv.listen({ port: 0, host: '127.0.0.1' }, () => {
        const addr = srv.address();
        const p = typeof addr === 'object' && addr ? addr.port : 0;
        srv.close(() => resolve(p));
      });
    });
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

/** `preferred` if it is free, otherwise any free port. */
export async function preferPort(preferred: number): Promise<number> {
  if (!handedOut.has(preferred) && (await isPortFree(preferred))) {
    handedOut.add(preferred);
    return preferred;
  }
  return freePort();
}
