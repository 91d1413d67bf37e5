import { useTranslation } from 'react-i18next';
import { LocalLink } from '../../app/prefix';
import { useShowUpgradeButton } from './useBilling';

/**
 * The header's Upgrade button for signed-in people whose plan offers one. Its own module, loaded
 * lazily by Header once someone is signed in: the billing queries behind it stay out of the
 * logged-out pages' JS.
 */
export default function UpgradeLink() {
  const { t } = useTranslation();
  if (!useShowUpgradeButton()) return null;
  return (
    <LocalLink to="/settings/subscription/upgrade" className="button upgrade">
      {t('nav.upgrade')}
    </LocalLink>
  );
}
