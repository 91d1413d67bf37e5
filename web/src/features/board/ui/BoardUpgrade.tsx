/**
 * The app's upgrade dialog (its variant from useBilling) for a paid board control: power tools,
 * presets, advanced graphs, files, the lesson's timer and presentation (the call's
 * panel shows the same dialog with its own words).
 */
import { useTranslation } from 'react-i18next';
import { UpgradeDialog } from '../../../ui/UpgradePrompt';
import { useUpgradeVariant } from '../../billing/useBilling';

export type BoardUpgradeReason =
  | 'powerTools'
  | 'presets'
  | 'advancedGraphs'
  | 'fileUpload'
  | 'lesson'
  /** the owner of a board read-only by plan limits or used-up collaboration minutes (ReadOnlyBanner) */
  | 'readOnly';

export function BoardUpgradeDialog({
  reason,
  maxPresets,
  onClose,
}: {
  reason: BoardUpgradeReason;
  maxPresets: number;
  onClose: () => void;
}) {
  const { t } = useTranslation('board');
  const variant = useUpgradeVariant();
  return (
    <UpgradeDialog
      variant={variant}
      title={t(`upgrade.${reason}Title`)}
      text={t(`upgrade.${reason}Text`, { max: maxPresets })}
      onClose={onClose}
    />
  );
}
