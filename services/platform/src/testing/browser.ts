/**
 * A tiny browser for integration tests through the gateway: a cookie jar, the CSRF double-submit
 * (the `csrf-token` cookie echoed in `x-csrf-token` on every non-GET), redirects not followed
 * (tests read Location).
 */
export interface Reply {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test code reads arbitrary JSON
  body: any;
  headers: Headers;
  location: string | null;
}

export class Browser {
  private readonly jar = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }

  /** the Cookie header this browser sends (for load generators that replay its session) */
  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  setCookie(name: string, value: string): void {
    this.jar.set(name, value);
  }

  async get(path: string): Promise<Reply> {
    return this.send('GET', path);
  }

  async post(path: string, body: unknown = {}): Promise<Reply> {
    return this.unsafe('POST', path, body);
  }

  async put(path: string, body: unknown = {}): Promise<Reply> {
    return this.unsafe('PUT', path, body);
  }

  async delete(path: string): Promise<Reply> {
    return this.unsafe('DELETE', path);
  }

  private async unsafe(method: string, path: string, body?: unknown): Promise<Reply> {
    if (!this.jar.has('csrf-token')) await this.get('/api/user'); // any GET hands out the token
    return this.send(method, path, body);
  }

  /** open a link from a mail: same path and query, against the gateway under test */
  async follow(link: string): Promise<Reply> {
    const u = new URL(link);
    return this.get(`${u.pathname}${u.search}`);
  }

  private async send(method: string, path: string, body?: unknown): Promise<Reply> {
    const headers: Record<string, string> = { accept: 'application/json', ...this.extraHeaders };
    if (this.jar.size) headers.cookie = this.cookieHeader();
    if (method !== 'GET') {
      if (body !== undefined) headers['content-type'] = 'application/json';
      const csrf = this.jar.get('csrf-token');
      if (csrf) headers['x-csrf-token'] = csrf;
    }
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) this.storeSetCookie(line);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON (a redirect body): keep the text
    }
    return { status: res.status, body: parsed, headers: res.headers, location: res.headers.get('location') };
  }

  /** take one Set-Cookie line, as a browser would (for tests that send requests themselves) */
  storeSetCookie(line: string): void {
    const [pair, ...attrs] = line.split(';');
    const i = pair!.indexOf('=');
    const name = pair!.slice(0, i).trim();
    const value = pair!.slice(i + 1).trim();
    const expired = attrs.some((a) => {
      const [k, v] = a.trim().split('=');
      if (k!.toLowerCase() === 'max-age') return Number(v) <= 0;
      if (k!.toLowerCase() === 'expires') return new Date(v!).getTime() <= Date.now();
      return false;
    });
    if (expired || value === '') this.jar.delete(name);
    else this.jar.set(name, value);
  }
}

/** a unique, valid address per test run */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
}

/** sign up through the gateway (auth service): a logged-in browser and the user's id */
export async function signUp(gatewayUrl: string, name: string): Promise<{ browser: Browser; id: number }> {
  const browser = new Browser(gatewayUrl);
  const res = await browser.post('/api/auth/signup', {
    name,
    email: uniqueEmail(name.toLowerCase().replace(/[^a-z0-9]+/g, '-')), // any display name makes a valid address
    password: 'long enough pw',
  });
  if (res.status !== 200) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { browser, id: res.body.user.id as number };
}
