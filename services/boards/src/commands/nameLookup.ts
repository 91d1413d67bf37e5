/**
 * Owner names for the "shared with me" list, asked from the auth service (svc.auth.users.names).
 * Names are decoration: when auth does not answer, the list is still served (without names and
 * without being cached) rather than failing the dashboard.
 */
import type { Bus, Logger } from '@wb/platform';
import { USERS_NAMES_MAX, usersNamesOutputSchema } from '@wb/proto';
import type { NameSource } from './deps';

export class NameLookup implements NameSource {
  constructor(
    private readonly bus: Pick<Bus, 'request'>,
    private readonly log: Logger,
  ) {}

  async namesOf(userIds: number[]): Promise<Record<string, string> | null> {
    const ids = [...new Set(userIds)];
    if (ids.length === 0) return {};
    try {
      const names: Record<string, string> = {};
      for (let i = 0; i < ids.length; i += USERS_NAMES_MAX) {
        const reply = await this.bus.request(
          'auth',
          'users.names',
          { ids: ids.slice(i, i + USERS_NAMES_MAX) },
          { userId: 0 },
        );
        Object.assign(names, usersNamesOutputSchema.parse(reply.data));
      }
      return names;
    } catch (err) {
      this.log.warn({ err }, 'owner names unavailable; answering the board list without them');
      return null;
    }
  }
}
