/** auth.users row → what leaves the service. */
import { GUEST_USER, PLANS } from '@wb/proto';
import type { Plan, UserDto } from '@wb/proto';
import type { UserRow } from '../repositories/users';
import { presentSettings } from './settings';

export function presentUser(row: UserRow | null): UserDto {
  if (!row) return GUEST_USER;
  return {
    id: row.id,
    name: row.name,
    picture: row.picture,
    email: row.email,
    email_status: row.email_status,
    hasInvalidEmail: row.email_status === 'invalid',
    // the profile role and settings.role are one value, kept in settings
    role: presentSettings(row.settings).role ?? null,
  };
}

export function presentPlan(row: UserRow | null): Plan {
  return PLANS[row?.plan ?? 'starter'] ?? PLANS.starter;
}
