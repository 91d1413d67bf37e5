/** Pages the browser lands on after following a link from a mail (verification, email change, unsubscribe). */
import { useTranslation } from 'react-i18next';
import { LocalLink } from '../../app/prefix';
import { useSession } from '../session/useSession';
import { AuthCard } from './AuthCard';

function Message({ title, text, tone }: { title: string; text: string; tone: 'ok' | 'error' }) {
  const { t } = useTranslation();
  const { user } = useSession();
  return (
    <AuthCard title={title}>
      <p className={tone === 'error' ? 'form-error' : undefined}>{text}</p>
      {user ? (
        <LocalLink to="/dashboard">{t('auth.toDashboard')}</LocalLink>
      ) : (
        <LocalLink to="/login">{t('auth.toLogin')}</LocalLink>
      )}
    </AuthCard>
  );
}

export function EmailVerifiedPage() {
  const { t } = useTranslation();
  return <Message tone="ok" title={t('title.emailVerified')} text={t('auth.emailVerifiedText')} />;
}
export function InvalidVerificationLinkPage() {
  const { t } = useTranslation();
  return <Message tone="error" title={t('title.invalidLink')} text={t('auth.invalidVerificationText')} />;
}
export function ChangeEmailSuccessPage() {
  const { t } = useTranslation();
  return <Message tone="ok" title={t('auth.changeEmailSuccessTitle')} text={t('auth.changeEmailSuccessText')} />;
}
export function ChangeEmailRevertedPage() {
  const { t } = useTranslation();
  return <Message tone="ok" title={t('auth.changeEmailRevertedTitle')} text={t('auth.changeEmailRevertedText')} />;
}
export function UnsubscribedPage() {
  const { t } = useTranslation();
  return <Message tone="ok" title={t('title.unsubscribed')} text={t('auth.unsubscribedText')} />;
}
export function InvalidUnsubscribeLinkPage() {
  const { t } = useTranslation();
  return <Message tone="error" title={t('title.invalidLink')} text={t('auth.invalidUnsubscribeText')} />;
}
export function JoinCoursePage() {
  const { t } = useTranslation();
  return <Message tone="ok" title={t('title.joinCourse')} text={t('auth.joinCourseText')} />;
}
