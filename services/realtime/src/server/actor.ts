/**
 * The signed actor header the gateway puts on a proxied upgrade (SPEC A1):
 *   x-wb-actor: base64url(JSON {userId, name?, sessionId?, ip?, exp}) "." base64url(HMAC-SHA256(secret, first part))
 * `exp` is a ms timestamp (the gateway signs with a short lifetime, e.g. 60 s). HMAC rather than
 * trusting loopback: nodes and gateways run on different hosts in Kubernetes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

export const signedActorSchema = z.object({
  userId: z.number().int().min(0),
  name: z.string().max(200).optional(),
  sessionId: z.string().max(128).optional(),
  /** the client's address as the gateway saw it (J7, C4: guests per address); absent outside the gateway */
  ip: z.string().max(64).optional(),
  exp: z.number().int(),
});
export type SignedActor = z.infer<typeof signedActorSchema>;

const mac = (secret: string, body: string): string => createHmac('sha256', secret).update(body).digest('base64url');

export function signActor(secret: string, actor: Omit<SignedActor, 'exp'>, now: number, ttlMs = 60_000): string {
  const body = Buffer.from(JSON.stringify({ ...actor, exp: now + ttlMs })).toString('base64url');
  return `${body}.${mac(secret, body)}`;
}

/** The actor, or null when the header is missing, forged or expired. */
export function verifyActor(secret: string, header: string | undefined, now: number): SignedActor | null {
  if (!header || header.length > 2048) return null;
  const dot = header.indexOf('.');
  if (dot <= 0) return null;
  const body = header.slice(0, dot);
  const given = Buffer.from(header.slice(dot + 1));
  const expected = Buffer.from(mac(secret, body));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const parsed = signedActorSchema.safeParse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
    if (!parsed.success || parsed.data.exp < now) return null;
    return parsed.data;
  } catch {
    return null;
  }
}
