// k6 load script: authenticated GET /api/user through the gateway.
//   k6 run -e BASE_URL=http://localhost:8080 -e RATE=200 -e DURATION=1m infra/k6/user.js
// setup() logs in once (EMAIL/PASSWORD) or signs up a throwaway user, and hands the session
// cookie to every virtual user.
import http from 'k6/http';
import { check, fail } from 'k6';

const BASE_URL = __ENV.BASE_URL || 'http://localhost:8080';
const RATE = Number(__ENV.RATE || 200);
const DURATION = __ENV.DURATION || '1m';

export const options = {
  scenarios: {
    user: {
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: DURATION,
      preAllocatedVUs: Math.max(10, Math.ceil(RATE / 20)),
      maxVUs: Math.max(50, RATE),
    },
  },
  thresholds: {
    http_req_failed: ['rate<0.01'],
    'http_req_duration{name:user}': ['p(99)<50'],
  },
};

function cookieValue(res, name) {
  const found = res.cookies[name] || res.cookies[`__Host-${name}`];
  return found && found.length ? found[0].value : undefined;
}

export function setup() {
  // a first GET gives the CSRF cookie that every unsafe request must echo in x-csrf-token
  const first = http.get(`${BASE_URL}/api/user`);
  const csrf = cookieValue(first, 'csrf-token');
  if (!csrf) fail('no csrf-token cookie from GET /api/user');

  const email = __ENV.EMAIL || `k6-${Date.now()}@example.com`;
  const password = __ENV.PASSWORD || 'k6-load-test-password';
  const path = __ENV.EMAIL ? '/api/auth/login' : '/api/auth/signup';
  const body = __ENV.EMAIL ? { email, password } : { name: 'k6 user', email, password };
  const res = http.post(`${BASE_URL}${path}`, JSON.stringify(body), {
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
  });
  if (res.status !== 200) fail(`${path} answered ${res.status}: ${res.body}`);

  // the session cookie (httpOnly) as the jar holds it now
  const jar = http.cookieJar().cookiesForURL(BASE_URL);
  const cookie = Object.keys(jar)
    .map((k) => `${k}=${jar[k][0]}`)
    .join('; ');
  const me = http.get(`${BASE_URL}/api/user`, { headers: { cookie } });
  if (me.json('id') === 0) fail('still a guest after logging in');
  return { cookie };
}

export default function (data) {
  const res = http.get(`${BASE_URL}/api/user`, { headers: { cookie: data.cookie }, tags: { name: 'user' } });
  check(res, {
    'status 200': (r) => r.status === 200,
    'signed in': (r) => r.json('id') !== 0,
  });
}
