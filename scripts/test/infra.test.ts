import { createServer, type Server } from 'node:net';
import { probeNats, probePostgres, probeRedis } from '../lib/infra';
import { freePort } from '../lib/ports';

describe('infrastructure probes', () => {
  it('say "down" when nothing listens', async () => {
    const port = await freePort();
    await expect(probePostgres(`postgres://postgres@127.0.0.1:${port}/x`)).resolves.toEqual({ state: 'down' });
    await expect(probeNats(`nats://127.0.0.1:${port}`)).resolves.toEqual({ state: 'down' });
    await expect(probeRedis(`redis://127.0.0.1:${port}`)).resolves.toEqual({ state: 'down' });
  });

  it('say "unusable" when something else holds the port', async () => {
    // a server that accepts and immediately hangs up: not PostgreSQL, NATS or Redis
    const server: Server = createServer((sock) => sock.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      expect((await probePostgres(`postgres://postgres@127.0.0.1:${port}/x`)).state).toBe('unusable');
      expect((await probeRedis(`redis://127.0.0.1:${port}`)).state).toBe('unusable');
      expect((await probeNats(`nats://127.0.0.1:${port}`)).state).toBe('unusable');
    } finally {
      server.close();
    }
  });

  it('say "ok" for the servers the tests run against', async () => {
    // make test starts them (or finds them) and passes their URLs
    await expect(
      probePostgres(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'),
    ).resolves.toEqual({ state: 'ok' });
    await expect(probeNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222')).resolves.toEqual({ state: 'ok' });
    await expect(probeRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379')).resolves.toEqual({ state: 'ok' });
  });
});
