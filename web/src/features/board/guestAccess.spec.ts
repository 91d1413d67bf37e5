/// <reference types="jest" />
import { guestLock } from './guestAccess';

const error = (code: string, status: number) => ({ code, status, message: code });

test('board.get refusals become lock screens before the name prompt', () => {
  expect(guestLock(error('ERR_BOARD_NOT_FOUND', 404))).toBe('notFound');
  expect(guestLock(error('ERR_INVALID_INPUT', 400))).toBe('notFound'); // a malformed id
  expect(guestLock(error('ERR_FEATURE_NOT_ENABLED', 403))).toBe('guestsNotOnPlan');
  expect(guestLock(error('ERR_FORBIDDEN', 403))).toBe('restricted');
});

test('failures that say nothing about the board leave it to the realtime join', () => {
  expect(guestLock(error('ERR_NETWORK', 0))).toBeNull();
  expect(guestLock(error('ERR_SERVICE_UNAVAILABLE', 503))).toBeNull();
  expect(guestLock(error('ERR_TIMEOUT', 504))).toBeNull();
  expect(guestLock(undefined)).toBeNull();
});
