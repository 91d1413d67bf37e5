import http from 'node:http';
import express from 'express';
import request from 'supertest';
import { fixtureRoutes } from '../testing/fixtures';
import { cookieHeader, setCookies, startHarness } from '../testing/harness';
import { createAppServer } from './appServer';

/** which of request/response got a new prototype (Express's `app.handle`) while `fn` ran */
async function reparented(fn: () => Promise<unknown>): Promise<string[]> {
  const real = Object.setPrototypeOf;
  const changed: string[] = [];
  const spy = jest.spyOn(Object, 'setPrototypeOf').mockImplementation((o: object, proto: object | null) => {
    if ((o instanceof http.IncomingMessage || o instanceof http.ServerResponse) && Object.getPrototypeOf(o) !== proto)
      changed.push(o instanceof http.IncomingMessage ? 'request' : 'response');
    return real(o, proto);
  });
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return changed;
}

function echoApp(): express.Express {
  const app = express();
  app.get('/q', (req, res) => {
    res.json({ x: req.query.x, ip: req.ip, path: req.path });
  });
  return app;
}

describe('createAppServer', () => {
  it('builds requests and responses with the app prototypes, so Express re-parents nothing', async () => {
    const server = createAppServer(echoApp());
    let res: request.Response | undefined;
    expect(await reparented(async () => (res = await request(server).get('/q?x=1')))).toEqual([]);
    expect(res?.status).toBe(200);
    expect(res?.body).toEqual({ x: '1', ip: expect.any(String), path: '/q' });
  });

  it('(control) a plain http server has both re-parented on every request', async () => {
    const server = http.createServer(echoApp());
    expect(await reparented(() => request(server).get('/q?x=1').expect(200))).toEqual(['request', 'response']);
  });

  it('serves the whole gateway app: routes, sessions, CSRF, bodies, errors', async () => {
    const h = await startHarness({ routes: fixtureRoutes });
    try {
      h.bus.on('boards', 'echo', (input) => input);
      h.bus.on('auth', 'settings.update', (input) => input);
      const server = createAppServer(h.app);

      const page = await request(server).get('/api/echo?n=1');
      expect(page.status).toBe(200);
      expect(page.body).toEqual({ n: 1 });

      const { token } = await h.createSession(21);
      const first = await request(server).get('/api/echo?n=2').set('Cookie', `sid=${token}`);
      const csrf = setCookies(first.headers)['csrf-token']!.value;
      const saved = await request(server)
        .post('/api/user/settings')
        .set('Cookie', cookieHeader({ sid: token, 'csrf-token': csrf }))
        .set('x-csrf-token', csrf)
        .send({ locale: 'de' });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ locale: 'de' });

      const refused = await request(server)
        .post('/api/user/settings')
        .set('Cookie', `sid=${token}`)
        .send({ locale: 'de' });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('ERR_CSRF');
      expect((await request(server).get('/api/nowhere')).status).toBe(404);
    } finally {
      await h.close();
    }
  });
});
