/**
 * The auth service, asked over NATS: who a user is (user.get with them as actor: the join check
 * compares their address with the invitation's), which accounts are behind invited addresses and
 * in which language they read (users.lookup), display names (users.names) and a user's language
 * setting (settings.get). Checks that decide something fail with ERR_TEMPORARY_PROBLEM when auth
 * does not answer; names and languages are decoration and degrade to null.
 */
import type { Bus, Logger } from '@wb/platform';
import {
  AppError,
  settingsSchema,
  USERS_LOOKUP_MAX,
  USERS_NAMES_MAX,
  userDtoSchema,
  usersLookupOutputSchema,
  usersNamesOutputSchema,
} from '@wb/proto';
import type { Locale, UsersLookup } from '@wb/proto';
import type { Directory, DirectoryUser } from './deps';

export class AuthDirectory implements Directory {
  constructor(
    private readonly bus: Pick<Bus, 'request'>,
    private readonly log: Logger,
    private readonly timeoutMs: number,
  ) {}

  private async ask(operation: string, input: unknown, userId: number): Promise<unknown> {
    const reply = await this.bus.request('auth', operation, input, { userId }, { timeoutMs: this.timeoutMs });
    return reply.data;
  }

  async userOf(userId: number): Promise<DirectoryUser | null> {
    try {
      const user = userDtoSchema.parse(await this.ask('user.get', {}, userId));
      if (user.id !== userId || !user.email) return null;
      return { id: user.id, name: user.name, email: user.email.toLowerCase() };
    } catch (err) {
      this.log.warn({ err, userId }, 'auth did not answer user.get');
      throw new AppError('ERR_TEMPORARY_PROBLEM');
    }
  }

  async lookupEmails(emails: string[]): Promise<UsersLookup> {
    const out: UsersLookup = {};
    if (emails.length === 0) return out;
    try {
      for (let i = 0; i < emails.length; i += USERS_LOOKUP_MAX) {
        const part = emails.slice(i, i + USERS_LOOKUP_MAX);
        Object.assign(out, usersLookupOutputSchema.parse(await this.ask('users.lookup', { emails: part }, 0)));
      }
      return out;
    } catch (err) {
      this.log.warn({ err }, 'auth did not answer users.lookup');
      throw new AppError('ERR_TEMPORARY_PROBLEM');
    }
  }

  async namesOf(userIds: number[]): Promise<Record<string, string> | null> {
    const ids = [...new Set(userIds)];
    if (ids.length === 0) return {};
    try {
      const names: Record<string, string> = {};
      for (let i = 0; i < ids.length; i += USERS_NAMES_MAX) {
        const part = ids.slice(i, i + USERS_NAMES_MAX);
        Object.assign(names, usersNamesOutputSchema.parse(await this.ask('users.names', { ids: part }, 0)));
      }
      return names;
    } catch (err) {
      this.log.warn({ err }, 'names unavailable; answering without them');
      return null;
    }
  }

  async localeOf(userId: number): Promise<Locale | null> {
    try {
      return settingsSchema.parse(await this.ask('settings.get', {}, userId)).locale;
    } catch (err) {
      this.log.warn({ err, userId }, 'language setting unavailable');
      return null;
    }
  }
}
