import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserDto } from '@wb/proto';
import { LocalLink } from '../../app/prefix';
import { useAppDispatch } from '../../app/store';
import { reportError } from '../../ui/reportError';
import { useCodeText } from '../../ui/useCodeText';
import { useSendVerificationMutation } from '../session/sessionApi';
import { rememberVerificationSent, verificationSentRecently } from './verification';

/** Email not verified (send link / already sent) and invalid email banners. */
export function Banners({ user }: { user: UserDto }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const codeText = useCodeText();
  const [send, { isLoading }] = useSendVerificationMutation();
  const [sent, setSent] = useState(() => verificationSentRecently(localStorage, Date.now()));

  if (user.hasInvalidEmail || user.email_status === 'invalid') {
    return (
      <div className="banner banner-warning" role="status">
        {t('banner.invalidEmail')} <LocalLink to="/settings/profile">{t('banner.updateEmail')}</LocalLink>
      </div>
    );
  }
  if (user.email_status !== 'unverified') return null;
  const onSend = async () => {
    const result = await send();
    if ('error' in result) reportError(dispatch, result.error, codeText);
    rememberVerificationSent(localStorage, Date.now());
    setSent(true);
  };
  return (
    <div className="banner banner-info" role="status">
      {sent ? (
        t('banner.linkSent')
      ) : (
        <>
          {t('banner.unverified', { email: user.email ?? '' })}{' '}
          <button type="button" className="link" onClick={() => void onSend()} disabled={isLoading}>
            {t('banner.sendLink')}
          </button>
        </>
      )}
    </div>
  );
}
