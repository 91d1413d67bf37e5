/** Spec §5: a confirmation phrase must be typed to leave the team or close the business. */
import { AppError } from '@wb/proto';

export function assertConfirmed(typed: string, phrase: string): void {
  if (typed.trim() !== phrase)
    throw new AppError('ERR_CONFIRMATION_FAILED', undefined, { confirmation: `type ${phrase}` });
}
