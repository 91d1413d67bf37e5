/**
 * Other services over NATS. Auth (AuthDirectory): users, addresses, names and languages; checks
 * that decide something fail with ERR_TEMPORARY_PROBLEM when auth does not answer, names and
 * languages are decoration and degrade to null. Boards and files (RemoteLibrary) are asked as the
 * course's owner: a board or file that is not theirs is ERR_BOARD_NOT_FOUND / ERR_NOT_FOUND (404).
 */
import type { Bus, Logger } from '@wb/platform';
import {
  accessCheckReplySchema,
  AppError,
  boardDuplicateReplySchema,
  documentDtoSchema,
  settingsSchema,
  USERS_LOOKUP_MAX,
  USERS_NAMES_MAX,
  userDtoSchema,
  usersLookupOutputSchema,
  usersNamesOutputSchema,
} from '@wb/proto';
import type { DocumentDto, Locale, RequestActor } from '@wb/proto';
import type { Directory, DirectoryUser, Library } from './deps';

export class AuthDirectory implements Directory {
  constructor(
    private readonly bus: Pick<Bus, 'request'>,
    private readonly log: Logger,
    private readonly timeoutMs: number,
  ) {}

  private async ask(operation: string, input: unknown, userId: number): Promise<unknown> {
    return (await this.bus.request('auth', operation, input, { userId }, { timeoutMs: this.timeoutMs })).data;
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

  async lookupEmails(emails: string[]): Promise<Record<string, { id: number; locale: Locale | null }>> {
    const out: Record<string, { id: number; locale: Locale | null }> = {};
    try {
      for (let i = 0; i < emails.length; i += USERS_LOOKUP_MAX) {
        const part = emails.slice(i, i + USERS_LOOKUP_MAX);
        const found = usersLookupOutputSchema.parse(await this.ask('users.lookup', { emails: part }, 0));
        for (const [email, a] of Object.entries(found)) out[email] = { id: a.id, locale: a.locale ?? null };
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

/** an AppError answered by the other service passes through; anything else is a temporary problem */
function passOrTemporary(err: unknown, log: Logger, what: string): never {
  if (err instanceof AppError && err.statusCode < 500) throw err;
  log.warn({ err }, `${what} failed`);
  throw new AppError('ERR_TEMPORARY_PROBLEM');
}

export class RemoteLibrary implements Library {
  constructor(
    private readonly bus: Pick<Bus, 'request'>,
    private readonly log: Logger,
    private readonly timeoutMs: number,
    private readonly copyTimeoutMs: number,
  ) {}

  async ownBoard(ownerId: number, boardId: string): Promise<{ title: string } | null> {
    try {
      const reply = accessCheckReplySchema.parse(
        (
          await this.bus.request(
            'boards',
            'access.check',
            { boardId },
            { userId: ownerId },
            { timeoutMs: this.timeoutMs },
          )
        ).data,
      );
      return reply.access === 'own' ? { title: reply.board.title } : null;
    } catch (err) {
      if (err instanceof AppError && (err.code === 'ERR_BOARD_NOT_FOUND' || err.statusCode === 404)) return null;
      return passOrTemporary(err, this.log, 'boards access.check');
    }
  }

  async fileOf(ownerId: number, fileId: string): Promise<DocumentDto | null> {
    try {
      const doc = documentDtoSchema
        .nullable()
        .parse(
          (
            await this.bus.request(
              'files',
              'doc.get',
              { docId: fileId },
              { userId: ownerId },
              { timeoutMs: this.timeoutMs },
            )
          ).data,
        );
      // doc.get also answers stored bytes the owner does not hold (no name, no image id)
      return doc && doc.name !== '' && doc.imageId !== '' ? doc : null;
    } catch (err) {
      if (err instanceof AppError && err.statusCode === 404) return null;
      return passOrTemporary(err, this.log, 'files doc.get');
    }
  }

  async grantBoard(ownerId: number, boardId: string, userId: number, permission: 'view' | 'edit'): Promise<void> {
    try {
      await this.bus.request(
        'boards',
        'board.grant',
        { boardId, userId, permission },
        { userId: ownerId },
        { timeoutMs: this.timeoutMs },
      );
    } catch (err) {
      passOrTemporary(err, this.log, 'boards board.grant');
    }
  }

  async duplicateBoard(sourceBoardId: string, ownerId: number, title: string, actor: RequestActor): Promise<string> {
    try {
      const reply = await this.bus.request(
        'boards',
        'board.duplicate',
        { sourceBoardId, ownerId, title },
        { userId: actor.userId },
        { timeoutMs: this.copyTimeoutMs },
      );
      return boardDuplicateReplySchema.parse(reply.data).boardId;
    } catch (err) {
      return passOrTemporary(err, this.log, 'boards board.duplicate');
    }
  }
}
