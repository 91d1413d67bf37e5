import { useTranslation } from 'react-i18next';
import { LocalLink } from '../../app/prefix';
import { useTrialEndedBanner } from './useBilling';

/** Spec §4: the free trial has ended (hidden in Estonia and on the update-subscription page). */
export function TrialEndedBanner() {
  const { t } = useTranslation();
  const show = useTrialEndedBanner();
  if (!show) return null;
  return (
    <div className="banner banner-warning" role="status" data-testid="trial-ended-banner">
      {t('banner.trialEnded')}{' '}
      <LocalLink
        to="/settings/subscription/upgrade"
        onClick={() => {
          const w = window as unknown as { dataLayer?: unknown[] };
          (w.dataLayer ??= []).push({ event: 'e_trialended_upgrade' });
        }}
      >
        {t('banner.trialEndedUpgrade')}
      </LocalLink>
    </div>
  );
}
