/** Checks shared by signup, profile and email change, each with its own error code (spec §5, §8). */
import { AppError, NAME_MIN_LENGTH } from '@wb/proto';
import { isValidEmail, normalizeEmail } from '../domain/email';
import type { ThrowawayDomains } from '@wb/proto';

export function checkName(raw: string): string {
  const name = raw.trim();
  if ([...name].length < NAME_MIN_LENGTH)
    throw new AppError('ERR_NAME_TOO_SHORT', undefined, { name: `at least ${NAME_MIN_LENGTH} characters` });
  return name;
}

/** the normalised address, or ERR_EMAIL_INVALID / ERR_THROWAWAY_NOT_ALLOWED */
export function checkNewEmail(raw: string, throwaway: ThrowawayDomains): string {
  const email = normalizeEmail(raw);
  if (!isValidEmail(email)) throw new AppError('ERR_EMAIL_INVALID', undefined, { email: 'not a valid email address' });
  if (throwaway.isThrowaway(email))
    throw new AppError('ERR_THROWAWAY_NOT_ALLOWED', undefined, { email: 'temporary addresses are not accepted' });
  return email;
}
