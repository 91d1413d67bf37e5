/** Failures talking to Janus, as the calls service reports them. */
import { AppError } from '@wb/proto';

/**
 * Janus cannot be reached (down, restarting, not answering in time): the browser gets 503
 * ERR_SERVICE_UNAVAILABLE with this readable message, never a 500.
 */
export class JanusUnavailable extends AppError {
  constructor(readonly reason: string) {
    super(
      'ERR_SERVICE_UNAVAILABLE',
      'Calls are unavailable right now (the call server cannot be reached). Please try again in a moment.',
    );
    this.name = 'JanusUnavailable';
  }
}

/** A VideoRoom request answered with `error_code` (e.g. 426 no such room, 427 room exists). */
export class VideoRoomError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(`VideoRoom error ${code}: ${message}`);
    this.name = 'VideoRoomError';
  }
}

/** VideoRoom error codes used here (janus_videoroom.c JANUS_VIDEOROOM_ERROR_*) */
export const VIDEOROOM_NO_SUCH_ROOM = 426;
export const VIDEOROOM_ROOM_EXISTS = 427;
