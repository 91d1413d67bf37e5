/**
 * The app's one upgrade prompt (spec §2 "Upgrade prompt variants"; the variant comes from
 * upgradeVariant in upgradePrompt.ts): a box with the variant's title, words and action, and the
 * dialog every paid control opens with it.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LocalLink } from '../app/prefix';
import { Dialog } from './kit/Dialog';
import type { UpgradeVariant } from './upgradePrompt';

/** `variant` null: not known yet (nothing is shown until it is). */
export function UpgradePrompt({ variant, titled = true }: { variant: UpgradeVariant | null; titled?: boolean }) {
  const { t } = useTranslation();
  if (!variant) return <div className="upgrade-prompt-pending" aria-busy="true" />;
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
      {titled ? <p className="upgrade-title">{body.title}</p> : null}
      <p>{body.text}</p>
      <LocalLink className="button primary" to={body.link}>
        {body.label}
      </LocalLink>
    </div>
  );
}

/**
 * A paid control's dialog: what the feature is (`title`, `text`) and the person's prompt. A
 * visitor gets one message only, "account required" (a guest cannot buy the feature: the
 * feature's "part of the paid plans" would contradict it).
 */
export function UpgradeDialog({
  variant,
  title,
  text,
  onClose,
}: {
  variant: UpgradeVariant | null;
  title: ReactNode;
  text: ReactNode;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  if (variant === 'visitor') {
    return (
      <Dialog title={t('upgrade.accountTitle')} onClose={onClose} className="upgrade-dialog">
        <UpgradePrompt variant={variant} titled={false} />
      </Dialog>
    );
  }
  return (
    <Dialog title={title} onClose={onClose} className="upgrade-dialog">
      <p>{text}</p>
      <UpgradePrompt variant={variant} />
    </Dialog>
  );
}
