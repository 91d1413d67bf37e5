/**
 * What the test harness reads from the test runner's environment (the one place it does):
 * the infrastructure `make test` found or started, and the harness's own knobs. Children get none
 * of the rest, so a developer's shell (SMTP_URL, …) cannot leak into a test stack.
 */
export interface RunnerEnv {
  /** DATABASE_URL, NATS_URL, REDIS_URL as `make test` hands them over */
  databaseUrl?: string;
  natsUrl?: string;
  redisUrl?: string;
  /** LOG_LEVEL, to see more of the children's logs while debugging */
  logLevel?: string;
  /** PATH, so children can spawn tools */
  path?: string;
}

export function runnerEnv(source: Record<string, string | undefined> = process.env): RunnerEnv {
  const value = (name: string) => source[name] || undefined;
  return {
    databaseUrl: value('DATABASE_URL'),
    natsUrl: value('NATS_URL'),
    redisUrl: value('REDIS_URL'),
    logLevel: value('LOG_LEVEL'),
    path: value('PATH'),
  };
}
