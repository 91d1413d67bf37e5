/** Email address rules: normalisation (addresses are unique case-insensitively) and format. */
import { z } from 'zod';
import { EMAIL_MAX_LENGTH } from '@wb/proto';

const emailFormat = z.email();

/** Trim and lower-case: the form the address is stored and compared in. */
export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

export function isValidEmail(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && emailFormat.safeParse(email).success;
}

/** the part after the last "@", lower-case */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}
