/** Board ids: spec §9, 21 characters of a 64-character URL-safe alphabet. */
import { randomBytes } from 'node:crypto';
import { BOARD_ID_ALPHABET, BOARD_ID_LENGTH } from '@wb/proto';

export function newBoardId(length: number = BOARD_ID_LENGTH): string {
  const bytes = randomBytes(length);
  let id = '';
  // 256 is a multiple of 64, so `& 63` keeps every character equally likely
  for (let i = 0; i < length; i++) id += BOARD_ID_ALPHABET[bytes[i]! & 63];
  return id;
}
