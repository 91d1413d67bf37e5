import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from './Modal';

interface ConfirmDialogProps {
  onConfirm: () => void;
  onCancel: () => void;
  /** default "Are you sure?" */
  title?: ReactNode;
  /** rich content (React nodes, never raw HTML strings) */
  children?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  busy?: boolean;
}

/** Cancel and a red confirm button; Escape or the backdrop cancels. */
export function ConfirmDialog({
  onConfirm,
  onCancel,
  title,
  children,
  confirmLabel,
  cancelLabel,
  busy,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal
      role="alertdialog"
      title={title ?? t('confirm.title')}
      onClose={onCancel}
      footer={
        <>
          <button type="button" onClick={onCancel} data-autofocus>
            {cancelLabel ?? t('confirm.cancel')}
          </button>
          <button type="button" className="danger" onClick={onConfirm} disabled={busy}>
            {confirmLabel ?? t('confirm.confirm')}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
