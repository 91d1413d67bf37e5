import { createHash } from 'node:crypto';
import type { DocumentDto } from '@wb/proto';
import { sha256OfBlob, HASH_CHUNK_BYTES } from './sha256';
import type { HashWorkerMessage, HashWorkerRequest } from './hashWorker';
import { uploadFile, UploadError, uploadName, type UploadProgress } from './uploadFile';

// The worker runs in-process: the real hashing code, behind the same message protocol.
jest.mock('./hashWorkerFactory', () => ({
  createHashWorker: () => {
    const { sha256OfBlob: hash } = jest.requireActual<typeof import('./sha256')>('./sha256');
    const worker = {
      onmessage: null as null | ((e: { data: HashWorkerMessage }) => void),
      onerror: null,
      terminated: false,
      terminate() {
        worker.terminated = true;
      },
      postMessage({ file, challenge }: HashWorkerRequest) {
        const send = (m: HashWorkerMessage) => !worker.terminated && worker.onmessage?.({ data: m });
        const { possessionDigestOfBlob: prove } = jest.requireActual<typeof import('./sha256')>('./sha256');
        (challenge
          ? prove(file, challenge)
          : hash(file, { onProgress: (progress) => send({ type: 'progress', progress }), blockBytes: 64 * 1024 })
        ).then(
          (h) => send({ type: 'done', hash: h }),
          (e: Error) => send({ type: 'error', message: e.message }),
        );
      },
    };
    return worker;
  },
}));

const bytes = (n: number) => {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + 7) & 0xff;
  return b;
};
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

function doc(id: string, over: Partial<DocumentDto> = {}): DocumentDto {
  return {
    id,
    imageId: 'f'.repeat(64),
    name: 'slides.pdf',
    isImage: 0,
    created: '2026-11-24T10:00:00.000Z',
    size: 10,
    pages: 3,
    format: 'pdf',
    status: 'ready',
    pagesDone: 3,
    error: null,
    ...over,
  };
}

type Reply = { status: number; body: unknown };
const calls: { url: string; method: string; headers: Record<string, string>; body?: unknown }[] = [];
let routes: (url: string, method: string, body: unknown) => Reply;

function jsonResponse({ status, body }: Reply) {
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: status === 200 ? 'OK' : 'Error',
    headers: { get: (n: string) => (n.toLowerCase() === 'content-type' ? 'application/json' : null) },
    text: async () => JSON.stringify(body),
  };
}

class FakeXhr {
  static last: FakeXhr | undefined;
  static reply: Reply = { status: 200, body: null };
  method = '';
  url = '';
  headers: Record<string, string> = {};
  withCredentials = false;
  status = 0;
  statusText = '';
  responseText = '';
  sent: FormData | undefined;
  upload: { onprogress?: (e: Partial<ProgressEvent>) => void; onload?: () => void } = {};
  onload?: () => void;
  onerror?: () => void;
  onabort?: () => void;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k.toLowerCase()] = v;
  }
  send(body: FormData) {
    this.sent = body;
    setTimeout(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
      if (this.status === -1) return;
      this.upload.onprogress?.({ lengthComputable: true, loaded: 100, total: 100 });
      this.upload.onload?.();
      this.status = FakeXhr.reply.status;
      this.responseText = JSON.stringify(FakeXhr.reply.body);
      this.onload?.();
    }, 1);
  }
  abort() {
    this.status = -1;
    this.onabort?.();
  }
}

beforeEach(() => {
  calls.length = 0;
  FakeXhr.last = undefined;
  document.cookie = 'csrf-token=tok123';
  (globalThis as unknown as { XMLHttpRequest: unknown }).XMLHttpRequest = FakeXhr;
  globalThis.fetch = jest.fn(async (url: string, init: RequestInit) => {
    const body = init.body ? (JSON.parse(init.body as string) as unknown) : undefined;
    calls.push({ url, method: init.method ?? 'GET', headers: init.headers as Record<string, string>, body });
    return jsonResponse(routes(url, init.method ?? 'GET', body));
  }) as unknown as typeof fetch;
});

describe('sha256OfBlob', () => {
  it('matches node crypto across block and 64 KB chunk boundaries and reports progress to 1', async () => {
    for (const n of [0, 1, HASH_CHUNK_BYTES - 1, HASH_CHUNK_BYTES, 3 * HASH_CHUNK_BYTES + 17]) {
      const data = bytes(n);
      const seen: number[] = [];
      const hash = await sha256OfBlob(new Blob([data]), {
        blockBytes: HASH_CHUNK_BYTES * 2,
        onProgress: (p) => seen.push(p),
      });
      expect(hash).toBe(sha(data));
      expect(seen[seen.length - 1]).toBe(1);
      expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    }
  });
  it('stops when cancelled', async () => {
    await expect(
      sha256OfBlob(new Blob([bytes(3 * HASH_CHUNK_BYTES)]), { blockBytes: HASH_CHUNK_BYTES, isCancelled: () => true }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('uploadFile', () => {
  const data = bytes(200_000);
  const id = sha(data);
  const file = () => new File([data], 'slides.pdf', { type: 'application/pdf' });

  it('uploads unknown content as multipart with the CSRF header, then polls until ready', async () => {
    let polls = 0;
    routes = (url) => {
      if (url === `/api/docs/${id}`) {
        polls += 1;
        if (polls === 1) return { status: 200, body: null };
        return { status: 200, body: doc(id, polls === 2 ? { status: 'processing', pagesDone: 1 } : {}) };
      }
      return { status: 404, body: { message: 'no', code: 'ERR_NOT_FOUND' } };
    };
    FakeXhr.reply = { status: 200, body: doc(id, { status: 'processing', pagesDone: 0 }) };
    const progress: UploadProgress[] = [];
    const result = await uploadFile(file(), { boardId: 'b1', pollMs: 1, onProgress: (u) => progress.push(u) });

    expect(result).toEqual(doc(id));
    const xhr = FakeXhr.last!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/docs?boardId=b1');
    expect(xhr.headers['x-csrf-token']).toBe('tok123');
    const sent = xhr.sent!.get('file') as File;
    expect(sent.name).toBe('slides.pdf');
    expect(sent.size).toBe(data.length);
    expect(calls.map((c) => c.url)).toEqual([`/api/docs/${id}`, `/api/docs/${id}`, `/api/docs/${id}`]);

    const phases = progress.map((p) => p.phase);
    expect(phases[0]).toBe('hashing');
    expect(phases.indexOf('uploading')).toBeGreaterThan(phases.lastIndexOf('hashing'));
    expect(phases.indexOf('processing')).toBeGreaterThan(phases.lastIndexOf('uploading'));
    expect(progress).toContainEqual({ phase: 'uploading', progress: 0.5 });
    expect(progress).toContainEqual({ phase: 'processing', progress: 1 / 3, pagesDone: 1, pages: 3, retrying: false });
  });

  it('registers stored content with POST /api/docs/add and never uploads it again', async () => {
    routes = (url, method) => {
      if (url === `/api/docs/${id}` && method === 'GET') return { status: 200, body: doc(id, { name: 'other.pdf' }) };
      if (url === '/api/docs/add') return { status: 200, body: doc(id) };
      return { status: 404, body: { message: 'no', code: 'ERR_NOT_FOUND' } };
    };
    const result = await uploadFile(file(), { pollMs: 1 });
    expect(result.name).toBe('slides.pdf');
    expect(FakeXhr.last).toBeUndefined();
    const add = calls.find((c) => c.url === '/api/docs/add')!;
    expect(add.method).toBe('POST');
    expect(add.body).toEqual({ docId: id, name: 'slides.pdf' });
    expect(add.headers['x-csrf-token']).toBe('tok123');
  });

  it('answers the possession challenge from the file in the worker (issue 25 §4)', async () => {
    const challenge = {
      nonce: '0123456789abcdef0123456789abcdef',
      ranges: [
        { start: 3, end: 40 },
        { start: 0, end: 8 },
      ],
      expires: '2030-01-01T00:00:00.000Z',
    };
    routes = (url, method) => {
      if (url === `/api/docs/${id}` && method === 'GET')
        return { status: 200, body: doc(id, { name: '', imageId: '', challenge }) };
      if (url === '/api/docs/add') return { status: 200, body: doc(id) };
      return { status: 404, body: { message: 'no', code: 'ERR_NOT_FOUND' } };
    };
    await uploadFile(file(), { pollMs: 1 });
    expect(FakeXhr.last).toBeUndefined();
    const expected = createHash('sha256')
      .update(challenge.nonce)
      .update(data.subarray(3, 40))
      .update(data.subarray(0, 8))
      .digest('hex');
    expect(calls.find((c) => c.url === '/api/docs/add')!.body).toEqual({
      docId: id,
      name: 'slides.pdf',
      proof: { nonce: challenge.nonce, digest: expected },
    });
  });

  it('uploads the bytes when the server does not accept the proof (ERR_NOT_FOUND)', async () => {
    const challenge = { nonce: 'f'.repeat(32), ranges: [{ start: 0, end: 10 }], expires: '2030-01-01T00:00:00Z' };
    routes = (url, method) => {
      if (url === `/api/docs/${id}` && method === 'GET') return { status: 200, body: doc(id, { challenge }) };
      if (url === '/api/docs/add')
        return { status: 404, body: { message: 'This file could not be confirmed as yours', code: 'ERR_NOT_FOUND' } };
      return { status: 200, body: doc(id) };
    };
    FakeXhr.reply = { status: 200, body: doc(id) };
    expect(await uploadFile(file(), { pollMs: 1 })).toMatchObject({ id });
    expect(FakeXhr.last).toBeDefined();
  });

  it('cuts long names at a code-point boundary, never inside a surrogate pair (issue 25 §5)', () => {
    const name = uploadName(new File([], 'a'.repeat(254) + '😀.pdf'));
    expect(name).toBe('a'.repeat(254));
    expect(uploadName(new File([], 'a'.repeat(253) + '😀.pdf'))).toBe('a'.repeat(253) + '😀');
  });

  it('uploads again when the stored copy had failed to convert', async () => {
    routes = (url) =>
      url === `/api/docs/${id}`
        ? { status: 200, body: doc(id, { status: 'failed', error: 'x' }) }
        : { status: 500, body: {} };
    FakeXhr.reply = { status: 200, body: doc(id) };
    await uploadFile(file(), { pollMs: 1 });
    expect(FakeXhr.last).toBeDefined();
  });

  it("rejects with the server's message and code when the upload is refused", async () => {
    routes = () => ({ status: 200, body: null });
    FakeXhr.reply = {
      status: 403,
      body: { message: 'Uploading files is not available on your plan', code: 'ERR_UPLOAD_NOT_ENABLED' },
    };
    const err = await uploadFile(file(), { pollMs: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UploadError);
    expect(err).toMatchObject({
      message: 'Uploading files is not available on your plan',
      code: 'ERR_UPLOAD_NOT_ENABLED',
    });
  });

  it('rejects with the conversion error when the document fails', async () => {
    let n = 0;
    routes = () =>
      n++ === 0
        ? { status: 200, body: null }
        : { status: 200, body: doc(id, { status: 'failed', error: 'The document has more than 300 pages' }) };
    FakeXhr.reply = { status: 200, body: doc(id, { status: 'processing', pagesDone: 0 }) };
    await expect(uploadFile(file(), { pollMs: 1 })).rejects.toThrow('The document has more than 300 pages');
  });

  it('rejects with the message of a refused lookup (session, guest)', async () => {
    routes = () => ({
      status: 403,
      body: { message: 'Guests cannot upload files: please sign in', code: 'ERR_UPLOAD_GUEST' },
    });
    await expect(uploadFile(file())).rejects.toMatchObject({ code: 'ERR_UPLOAD_GUEST' });
  });

  it('aborts the request when cancelled mid-upload', async () => {
    routes = () => ({ status: 200, body: null });
    FakeXhr.reply = { status: 200, body: doc(id) };
    const ctl = new AbortController();
    const progress: UploadProgress[] = [];
    const p = uploadFile(file(), {
      signal: ctl.signal,
      onProgress: (u) => {
        progress.push(u);
        if (u.phase === 'uploading' && u.progress === 0.5) ctl.abort();
      },
    });
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(FakeXhr.last?.status).toBe(-1);
    expect(progress.some((u) => u.phase === 'processing')).toBe(false);
  });

  it('never starts when cancelled before the upload', async () => {
    routes = () => ({ status: 200, body: null });
    const ctl = new AbortController();
    const p = uploadFile(file(), {
      signal: ctl.signal,
      onProgress: (u) => {
        if (u.phase === 'hashing' && u.progress === 1) ctl.abort();
      },
    });
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(FakeXhr.last).toBeUndefined();
    expect(calls).toHaveLength(0);
  });
});
