/**
 * Whether one address may be invited (spec §5 "Inviting yourself is not allowed. Temporary email
 * addresses are rejected"; §4/§6 one team per person). Pure: the command gathers the facts.
 * Checked in this order, the first that applies is the address's code.
 */
import { z } from 'zod';
import { EMAIL_MAX_LENGTH } from '@wb/proto';
import type { ErrorCode } from '@wb/proto';

const emailFormat = z.email();

/** Trim and lower-case: the form addresses are stored and compared in. */
export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

export function isValidEmail(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && emailFormat.safeParse(email).success;
}

export interface InvitationFacts {
  /** the address, normalised */
  email: string;
  isThrowaway: boolean;
  /** the owner's own address and id */
  ownerEmail: string;
  ownerId: number;
  /** the account with this address, if any */
  accountId: number | null;
  /** the business the account is in, if any */
  accountBusinessId: number | null;
  /** the owner's business */
  businessId: number;
  /** a member of the owner's business joined with this address */
  memberHasEmail: boolean;
  alreadyInvited: boolean;
  /** invitations pending in the business, this batch's included so far */
  pendingCount: number;
  pendingMax: number;
}

export function invitationRefusal(f: InvitationFacts): ErrorCode | null {
  if (!isValidEmail(f.email)) return 'ERR_EMAIL_INVALID';
  if (f.email === f.ownerEmail || f.accountId === f.ownerId) return 'ERR_CANT_INVITE_YOURSELF';
  if (f.isThrowaway) return 'ERR_THROWAWAY_NOT_ALLOWED';
  if (f.memberHasEmail || (f.accountBusinessId !== null && f.accountBusinessId === f.businessId))
    return 'ERR_USER_IN_YOUR_BUSINESS';
  if (f.accountBusinessId !== null) return 'ERR_USER_IN_BUSINESS';
  if (f.alreadyInvited) return 'ERR_USER_ALREADY_INVITED';
  if (f.pendingCount >= f.pendingMax) return 'ERR_TOO_MANY_REQUESTS';
  return null;
}
