/**
 * The courses routes in the gateway with a fake courses service: validation before the service is
 * asked (lengths, kinds, the spec §5 link and video messages, the 100-address limit), the body
 * split of POST …/content, and the service's codes mapped to their statuses.
 */
import request from 'supertest';
import { AppError } from '@wb/proto';
import { coursesRoutes } from '../routes/courses';
import { cookieHeader, setCookies, startHarness } from '../testing/harness';
import type { Harness } from '../testing/harness';

let h: Harness;
let auth: { cookie: string; csrf: string };

beforeAll(async () => {
  h = await startHarness({ routes: coursesRoutes });
  const { token } = await h.createSession(21);
  const page = await request(h.app).get('/api/courses').set('Cookie', `sid=${token}`);
  const csrf = setCookies(page.headers)['csrf-token']!.value;
  auth = { cookie: cookieHeader({ sid: token, 'csrf-token': csrf }), csrf };
  h.bus.on('courses', 'courses.list', () => ({ owned: [], attended: [] }));
  h.bus.on('courses', 'item.create', (input) => ({ echo: input }));
  h.bus.on('courses', 'join', () => {
    throw new AppError('ERR_COURSE_INVITATION_MISSING');
  });
  h.bus.on('courses', 'course.get', () => {
    throw new AppError('ERR_NOT_FOUND', 'Course not found');
  });
  h.bus.on('courses', 'course.create', () => {
    throw new AppError('ERR_FEATURE_NOT_ENABLED');
  });
});
afterAll(() => h.close());

const post = (path: string, body: unknown) =>
  request(h.app)
    .post(path)
    .set('Cookie', auth.cookie)
    .set('x-csrf-token', auth.csrf)
    .send(body as object);

describe('courses routes', () => {
  it('needs a login', async () => {
    const res = await request(h.app).get('/api/courses');
    expect(res.status).toBe(401);
  });

  it('answers the lists', async () => {
    const res = await request(h.app).get('/api/courses').set('Cookie', auth.cookie);
    expect(res.body).toEqual({ owned: [], attended: [] });
  });

  it('refuses 500 addresses at once with ERR_INVALID_INPUT, without asking the service', async () => {
    const emails = Array.from({ length: 500 }, (_, i) => `p${i}@example.com`);
    const res = await post('/api/courses/7/invitations', { emails });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'ERR_INVALID_INPUT', statusCode: 400 });
    expect(res.body.fields).toHaveProperty('emails');
    expect(h.bus.callsOf('courses', 'invitations.create')).toHaveLength(0);
  });

  it('gives link and video fields the spec’s messages', async () => {
    const link = await post('/api/courses/7/content', { kind: 'link', url: 'ftp://x' });
    expect(link.status).toBe(400);
    expect(link.body.fields).toEqual({ url: 'Please enter a valid link' });
    const video = await post('/api/courses/7/content', { kind: 'video', url: 'https://example.com/watch?v=x' });
    expect(video.body.fields).toEqual({ url: 'Invalid video URL' });
    const kind = await post('/api/courses/7/content', { kind: 'poll' });
    expect(kind.status).toBe(400);
    const id = await post('/api/courses/abc/content', { kind: 'test', assignmentId: 'a' });
    expect(id.body.fields).toHaveProperty('courseId');
    expect(h.bus.callsOf('courses', 'item.create')).toHaveLength(0);
  });

  it('splits an item body into placement and payload for the service', async () => {
    const res = await post('/api/courses/7/content', {
      kind: 'board',
      boardId: 'abc',
      access: 'copy',
      lesson_id: 3,
      title: 'Fractions',
    });
    expect(res.status).toBe(200);
    expect(res.body.echo).toEqual({
      courseId: 7,
      lesson_id: 3,
      title: 'Fractions',
      payload: { kind: 'board', boardId: 'abc', access: 'copy' },
    });
  });

  it('maps the service’s codes to statuses and the error body', async () => {
    const join = await post('/api/courses/join', { token: 't' });
    expect(join.status).toBe(404);
    expect(join.body).toMatchObject({ code: 'ERR_COURSE_INVITATION_MISSING', statusCode: 404 });
    const missing = await request(h.app).get('/api/courses/9').set('Cookie', auth.cookie);
    expect(missing.body).toMatchObject({ code: 'ERR_NOT_FOUND', statusCode: 404, message: 'Course not found' });
    const feature = await post('/api/courses', { name: 'Algebra' });
    expect(feature.body).toMatchObject({ code: 'ERR_FEATURE_NOT_ENABLED', statusCode: 403 });
  });
});
