/**
 * Auth service contracts: users, sessions, settings, plan and config lookups.
 * (Owned by the auth service; the gateway and web import these schemas.)
 */
import { z } from 'zod';
import { ROLES } from './settings';

/** Public view of a user (GET /api/user). id 0 = guest. */
export const userDtoSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  picture: z.string().nullable().optional(),
  email: z.string().optional(),
  email_status: z.enum(['unverified', 'verified', 'invalid']).optional(),
  hasInvalidEmail: z.boolean().optional(),
  role: z.enum(ROLES).nullable().optional(),
});
export type UserDto = z.infer<typeof userDtoSchema>;
export const GUEST_USER: UserDto = { id: 0, name: 'Guest' };

/**
 * A freshly issued session, returned by the auth service to the gateway only: the gateway turns
 * it into the session cookie and removes it from what the browser receives.
 */
export const sessionGrantSchema = z.object({
  token: z.string().min(32),
  /** epoch ms */
  expiresAt: z.number().int(),
});
export type SessionGrant = z.infer<typeof sessionGrantSchema>;
