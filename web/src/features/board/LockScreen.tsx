/**
 * Board lock screens (spec §2): real pages with a heading and a way on. The realtime client's
 * reasons (close codes), and the answer of GET /api/boards/{id} that a guest gets before being
 * asked for a name (guestAccess.ts).
 */
import { useTranslation } from 'react-i18next';
import { LocalLink } from '../../app/prefix';
import type { LockReason } from './realtime/boardClient';

/** `guestsNotOnPlan`: the owner's plan has no `guests` feature (the visitor upgrade prompt) */
export type LockScreenReason = LockReason | 'guestsNotOnPlan';

export function LockScreen({ reason, guest }: { reason: LockScreenReason; guest: boolean }) {
  const { t } = useTranslation('board');
  const here = encodeURIComponent(window.location.pathname);
  const away = guest ? (
    <LocalLink to="/">{t('lock.toHome')}</LocalLink>
  ) : (
    <LocalLink to="/dashboard">{t('lock.toDashboard')}</LocalLink>
  );
  const login = (primary: boolean) => (
    <LocalLink className={primary ? 'button primary' : 'button'} to={`/login?goto=${here}`}>
      {t('lock.login')}
    </LocalLink>
  );
  const action =
    reason === 'reload' ? (
      <button type="button" className="primary" onClick={() => window.location.reload()}>
        {t('lock.reload')}
      </button>
    ) : reason === 'error' ? (
      <button type="button" className="primary" onClick={() => window.location.reload()}>
        {t('lock.retry')}
      </button>
    ) : reason === 'unauthenticated' || reason === 'guestLimit' ? (
      login(true)
    ) : reason === 'guestsNotOnPlan' ? (
      // the visitor variant of the upgrade prompt: an account is what a visitor can do about it
      <>
        {login(true)}
        <LocalLink className="button" to={`/signup?goto=${here}`}>
          {t('translation:upgrade.signUpFree')}
        </LocalLink>
      </>
    ) : reason === 'restricted' && guest ? (
      // someone the owner shared the board with may have access once logged in
      login(false)
    ) : null;
  return (
    <main id="main" className="board-lock" data-lock={reason}>
      <h1>{t(`lock.${reason}Title`)}</h1>
      <p>{t(`lock.${reason}Text`)}</p>
      <p className="board-lock-actions">
        {action}
        {away}
      </p>
    </main>
  );
}
