/**
 * What the calls service asks other services, over NATS with the caller as actor:
 * boards `access.check` (the same check the realtime nodes make on every join: guests included)
 * and auth `users.names` (the account's display name for the tile). Not cached: a join is rare
 * and a revoked access must stop the next token refresh.
 */
import type { Bus } from '@wb/platform';
import { accessCheckReplySchema, usersNamesOutputSchema } from '@wb/proto';
import type { AccessCheckReply, RequestActor } from '@wb/proto';
import type { BoardAccessSource, NameSource } from './deps';

export class BoardAccessLookup implements BoardAccessSource {
  constructor(private readonly bus: Pick<Bus, 'request'>) {}

  async accessOf(boardId: string, actor: RequestActor): Promise<AccessCheckReply> {
    const reply = await this.bus.request('boards', 'access.check', { boardId }, actor);
    return accessCheckReplySchema.parse(reply.data);
  }
}

export class NameLookup implements NameSource {
  constructor(private readonly bus: Pick<Bus, 'request'>) {}

  async nameOf(actor: RequestActor): Promise<string | undefined> {
    if (actor.userId === 0) return undefined;
    const reply = await this.bus.request('auth', 'users.names', { ids: [actor.userId] }, actor, { timeoutMs: 2000 });
    return usersNamesOutputSchema.parse(reply.data)[String(actor.userId)];
  }
}
