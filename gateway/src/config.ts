/** What the HTTP layer needs from the environment, derived once at start. */
import type { GatewayEnv } from './env';
import type { PaymentEnvironment } from './http/security';

export interface CookieNames {
  /** opaque session token (HttpOnly) */
  session: string;
  /** CSRF token, readable by the web app */
  csrf: string;
  /** anonymous CSRF binding for visitors without a session (HttpOnly) */
  anon: string;
  /** device cookie that exempts known browsers from the per-account login delay (HttpOnly) */
  device: string;
}

export interface GatewayConfig {
  nodeEnv: GatewayEnv['NODE_ENV'];
  /** Secure cookies with the __Host- prefix (PUBLIC_URL is https) */
  secureCookies: boolean;
  cookies: CookieNames;
  sessionSecret: string;
  csrfSecret: string;
  webDistDir: string;
  trustProxy: boolean | number | string;
  bodyLimit: string;
  redisPrefix: string;
  /** which payment pages the CSP must allow (Braintree's Drop-in outside the fake gateway) */
  payments: PaymentEnvironment;
}

export function configFromEnv(env: GatewayEnv): GatewayConfig {
  const secure = env.PUBLIC_URL?.startsWith('https:') ?? false;
  // __Host- makes the browser refuse the cookie unless Secure, Path=/ and no Domain: a sibling
  // subdomain cannot plant a session or CSRF cookie ("cookie tossing").
  const p = secure ? '__Host-' : '';
  return {
    nodeEnv: env.NODE_ENV,
    secureCookies: secure,
    cookies: { session: `${p}sid`, csrf: `${p}csrf-token`, anon: `${p}anon`, device: `${p}dev` },
    sessionSecret: env.SESSION_SECRET,
    csrfSecret: env.CSRF_SECRET,
    webDistDir: env.WEB_DIST_DIR,
    trustProxy: env.TRUST_PROXY,
    bodyLimit: env.BODY_LIMIT,
    redisPrefix: env.REDIS_PREFIX,
    payments: env.BRAINTREE_ENVIRONMENT,
  };
}
