/**
 * RouteDef features for payment providers: `reply: 'file'` (a service's FileReply sent as bytes,
 * e.g. an invoice PDF) and `caller: 'server'` + `bodyType: 'form'` (a webhook: form-encoded, no
 * session, no CSRF token; the service checks the signature).
 */
import request from 'supertest';
import { z } from 'zod';
import { AppError } from '@wb/proto';
import { createApp } from '../app';
import { reply } from '../testing/fakes';
import { fixtureRoutes } from '../testing/fixtures';
import { startHarness } from '../testing/harness';
import type { Harness } from '../testing/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ routes: fixtureRoutes });
});
afterAll(() => h.close());

const PDF = Buffer.from('%PDF-1.3\n\u00e4\u0000binary\n%%EOF');

describe("reply: 'file'", () => {
  it('sends the decoded bytes with the content type, as an attachment', async () => {
    h.bus.on('files', 'download', (input) =>
      reply({
        filename: `invoice-${(input as { id: string }).id}.pdf`,
        contentType: 'application/pdf',
        base64: PDF.toString('base64'),
      }),
    );
    const res = await request(h.app)
      .get('/api/docs/abc42.pdf')
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="invoice-abc42.pdf"');
    expect(res.headers['content-length']).toBe(String(PDF.length));
    expect(Buffer.compare(res.body as Buffer, PDF)).toBe(0);
    expect(h.bus.callsOf('files', 'download').at(-1)!.input).toEqual({ id: 'abc42' });
  });

  it('validates the path param (400) and passes service errors through as JSON', async () => {
    expect((await request(h.app).get('/api/docs/ABC!.pdf')).status).toBe(400);
    h.bus.on('files', 'download', () => {
      throw new AppError('ERR_NOT_FOUND');
    });
    const missing = await request(h.app).get('/api/docs/nope.pdf');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'ERR_NOT_FOUND' });
  });

  it('a malformed file reply is the service’s bug: 500 without internals', async () => {
    h.bus.on('files', 'download', () => reply({ filename: '../../etc/passwd', contentType: 'text/html', base64: '' }));
    const res = await request(h.app).get('/api/docs/abc.pdf');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ code: 'ERR_UNKNOWN', statusCode: 500, message: expect.any(String) });
    expect(res.headers['content-disposition']).toBeUndefined();
  });
});

describe("caller: 'server', bodyType: 'form' (webhooks)", () => {
  beforeAll(() => {
    h.bus.on('billing', 'hook', () => ({ ok: true }));
  });

  it('takes a form post without cookies or CSRF token and forwards it as a guest', async () => {
    const res = await request(h.app)
      .post('/api/hooks/provider')
      .type('form')
      .send({ sig: 'pk|abc', payload: 'PHhtbD4=\n' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const call = h.bus.callsOf('billing', 'hook').at(-1)!;
    expect(call.input).toEqual({ sig: 'pk|abc', payload: 'PHhtbD4=\n' });
    expect(call.actor.userId).toBe(0);
    // nothing of the browser session machinery: no cookies handed out
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('ignores a session cookie: the actor is always a guest', async () => {
    const s = await h.createSession(77);
    await request(h.app)
      .post('/api/hooks/provider')
      .set('Cookie', `sid=${s.token}`)
      .type('form')
      .send({ sig: 's', payload: 'p' });
    expect(h.bus.callsOf('billing', 'hook').at(-1)!.actor.userId).toBe(0);
  });

  it('refuses JSON and other types (415), validates fields (400), keeps the body limit (413)', async () => {
    const json = await request(h.app).post('/api/hooks/provider').send({ sig: 's', payload: 'p' });
    expect(json.status).toBe(415);
    expect(json.body.code).toBe('ERR_UNSUPPORTED_MEDIA_TYPE');
    const text = await request(h.app).post('/api/hooks/provider').type('text/plain').send('sig=s');
    expect(text.status).toBe(415);
    const missing = await request(h.app).post('/api/hooks/provider').type('form').send({ sig: 's' });
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toHaveProperty('payload');
    const extra = await request(h.app).post('/api/hooks/provider').type('form').send('sig=s&payload=p&bogus=x');
    expect(extra.status).toBe(400);
    expect(extra.body.fields).toHaveProperty('bogus');
    // the form parser (qs) drops a __proto__ key itself: it never reaches validation or the service
    const proto = await request(h.app).post('/api/hooks/provider').type('form').send('sig=s&payload=p&__proto__=x');
    expect(proto.status).toBe(200);
    expect(h.bus.callsOf('billing', 'hook').at(-1)!.input).toEqual({ sig: 's', payload: 'p' });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    const nested = await request(h.app).post('/api/hooks/provider').type('form').send('sig[a]=s&payload=p');
    expect(nested.status).toBe(400);
    const big = await request(h.app)
      .post('/api/hooks/provider')
      .type('form')
      .send(`sig=s&payload=${'x'.repeat(200_000)}`);
    expect(big.status).toBe(413);
  });

  it('browser routes keep their CSRF check and JSON-only bodies', async () => {
    const res = await request(h.app).post('/api/notify').type('form').send('a=1');
    expect(res.status).toBe(415);
    const noCsrf = await request(h.app).post('/api/notify').send({});
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.code).toBe('ERR_CSRF');
  });

  it('a server callback that needs a session is a configuration error', () => {
    expect(() =>
      createApp({
        config: h.config,
        log: h.log,
        bus: h.bus,
        redis: h.redis,
        sessions: h.sessions,
        metrics: h.metrics,
        routes: [
          {
            method: 'post',
            path: '/api/x',
            summary: 'x',
            tag: 'x',
            auth: 'required',
            caller: 'server',
            service: 'billing',
            operation: 'x',
            response: z.null(),
          },
        ],
      }),
    ).toThrow(/caller 'server' needs auth 'optional'/);
  });
});
