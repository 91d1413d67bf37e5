/**
 * Consumes realtime.board.previewed.v1: a realtime node stored a new dashboard preview of a
 * board. Only a higher version is kept (events may come late or twice); the board list then
 * names it, so the dashboard's image URL changes with it.
 */
import { EventProcessor } from '@wb/platform';
import type { PoolClient } from '@wb/platform';
import { EVENT_SCHEMAS } from '@wb/proto';
import type { EventEnvelope, EventType } from '@wb/proto';
import { recordPreviewVersion } from '../repositories/boards';

export class BoardPreviewsProcessor extends EventProcessor {
  readonly name = 'boards-previews';
  readonly eventTypes: readonly EventType[] = ['realtime.board.previewed.v1'];

  async handle(event: EventEnvelope, client: PoolClient): Promise<void> {
    const { boardId, version } = EVENT_SCHEMAS['realtime.board.previewed.v1'].parse(event.data);
    await recordPreviewVersion(client, boardId, version);
  }
}
