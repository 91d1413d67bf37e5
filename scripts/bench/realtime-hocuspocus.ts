/**
 * A stock Hocuspocus server for the realtime benchmark's comparison, in its own process (forked
 * by realtime.ts): `@hocuspocus/server` with its defaults, no extensions (so no persistence:
 * documents live in memory only) and no hooks, listening on 127.0.0.1:<BENCH_HP_PORT>.
 * Prints "listening <port>" once it accepts connections.
 */
import type * as HocuspocusApi from '@hocuspocus/server' with { 'resolution-mode': 'import' };

// ESM-typed with a CommonJS build ("require" export): load that, typed with the ESM declarations
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Server } = require('@hocuspocus/server') as typeof HocuspocusApi;

async function main(): Promise<void> {
  const server = new Server({ port: Number(process.env.BENCH_HP_PORT ?? 0), address: '127.0.0.1', quiet: true });
  await server.listen();
  // stock stopOnSignals: SIGTERM/SIGINT destroy the server and exit
  process.stdout.write(`listening ${server.address.port}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
