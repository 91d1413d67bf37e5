/**
 * Starts real deployables as child processes (`node <pkg>/dist/main.js`) with isolated
 * infrastructure and waits until each reports ready on its health port; `stop()` ends them by
 * PID (SIGTERM, then SIGKILL), drops the database, deletes the stream and the Redis keys.
 */
export interface StackOptions {
  /** repo-relative package dirs to run, in start order, e.g. ['services/auth', 'gateway'] */
  deployables: string[];
  /** extra env for every deployable */
  env?: Record<string, string>;
  /** extra env per deployable dir */
  envFor?: Record<string, Record<string, string>>;
}
export interface RunningStack {
  /** http://127.0.0.1:<port> of the gateway, when started */
  gatewayUrl: string;
  databaseUrl: string;
  natsPrefix: string;
  redisPrefix: string;
  /** env every deployable got (for tests that start more processes or connect themselves) */
  env: Record<string, string>;
  /** pid per deployable dir */
  pids: Record<string, number>;
  /** stop one deployable (SIGTERM by default) and wait for its exit */
  stopOne(dir: string, signal?: NodeJS.Signals): Promise<number | null>;
  /** start one again with the same env */
  restartOne(dir: string): Promise<void>;
  /** combined stdout/stderr lines of one deployable (for assertions on logs) */
  logs(dir: string): string[];
  stop(): Promise<void>;
}
export async function startStack(_opts: StackOptions): Promise<RunningStack> {
  throw new Error('not implemented');
}
