/** The app's upgrade prompt (its variant from useBilling) for a board feature the plan lacks. */
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../ui/Modal';
import { UpgradePrompt } from '../../../ui/UpgradePrompt';
import { useUpgradeVariant } from '../../billing/useBilling';

export type BoardUpgradeReason = 'powerTools' | 'presets' | 'advancedGraphs' | 'fileUpload';

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
    <Modal title={t(`upgrade.${reason}Title`)} onClose={onClose} className="upgrade-dialog">
      <p>{t(`upgrade.${reason}Text`, { max: maxPresets })}</p>
      <UpgradePrompt variant={variant} />
    </Modal>
  );
}
