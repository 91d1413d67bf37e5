import { useTranslation } from 'react-i18next';
import { LocalLink } from '../app/prefix';
import type { UpgradeVariant } from './upgradePrompt';

export function UpgradePrompt({ variant }: { variant: UpgradeVariant }) {
  const { t } = useTranslation();
  const body = {
    teamOwner: {
      title: t('upgrade.requiredTitle'),
      text: t('upgrade.ownerText'),
      link: '/settings/subscription/upgrade',
      label: t('upgrade.upgradeNow'),
    },
    teamMember: {
      title: t('upgrade.requiredTitle'),
      text: t('upgrade.memberText'),
      link: '/settings/team',
      label: t('upgrade.contactOwner'),
    },
    tryFree: {
      title: t('upgrade.availableTitle'),
      text: t('upgrade.availableText'),
      link: '/settings/subscription/upgrade',
      label: t('upgrade.tryFree'),
    },
    upgradeNow: {
      title: t('upgrade.availableTitle'),
      text: t('upgrade.availableText'),
      link: '/settings/subscription/upgrade',
      label: t('upgrade.upgradeNow'),
    },
    visitor: {
      title: t('upgrade.accountTitle'),
      text: t('upgrade.accountText'),
      link: '/signup',
      label: t('upgrade.signUpFree'),
    },
  }[variant];
  return (
    <div className="upgrade-prompt" data-variant={variant}>
      <p className="upgrade-title">{body.title}</p>
      <p>{body.text}</p>
      <LocalLink className="button primary" to={body.link}>
        {body.label}
      </LocalLink>
    </div>
  );
}
