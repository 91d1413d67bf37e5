/** Unsubscribe link from a mail: turns product-update mails off (account mails stay mandatory). */
import { withTransaction } from '@wb/platform';
import { AUTH_REDIRECTS } from '@wb/proto';
import { verifyUnsubscribeToken } from '../domain/tokens';
import { findUserById, updateSettings } from '../repositories/users';
import type { AuthDeps } from './deps';

/** → the page to send the browser to */
export async function unsubscribe(deps: AuthDeps, rawToken: string | undefined): Promise<string> {
  const userId = verifyUnsubscribeToken(rawToken, deps.env.AUTH_TOKEN_SECRET);
  if (userId === null) return AUTH_REDIRECTS.invalidUnsubscribeLink;
  return withTransaction(deps.pool, async (client) => {
    const user = await findUserById(client, userId, { forUpdate: true });
    if (!user) return AUTH_REDIRECTS.invalidUnsubscribeLink;
    if (user.settings.emailProductUpdates !== 0)
      await updateSettings(client, userId, { ...user.settings, emailProductUpdates: 0 });
    deps.log.info({ userId }, 'unsubscribed from product updates');
    return AUTH_REDIRECTS.unsubscribed;
  });
}
