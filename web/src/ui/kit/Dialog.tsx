/**
 * The spec's modal and confirmation dialog on React Aria's ModalOverlay: Escape closes the topmost
 * only, a press on the backdrop closes, a route change closes; focus stays inside while open and
 * returns to where it was. Rendered while open (the caller mounts it), like the board's dialogs.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Dialog as RACDialog, Heading, Modal as RACModal, ModalOverlay } from 'react-aria-components';
import { Icon } from './Icon';
import { KitProvider } from './KitProvider';
import './overlays.css';

export interface DialogProps {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  /** the buttons row */
  footer?: ReactNode;
  /** 'alertdialog' for a confirmation */
  role?: 'dialog' | 'alertdialog';
  /** on the dialog's box (size and layout of a particular dialog) */
  className?: string;
  /** false: only the dialog's own buttons close it (no Escape, no backdrop) */
  isDismissable?: boolean;
}

/** Closes on a route change (spec: modal and drawer). */
export function useCloseOnRouteChange(onClose: () => void) {
  const location = useLocation();
  const openedAt = useRef(location.key);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });
  useEffect(() => {
    if (location.key !== openedAt.current) onCloseRef.current();
  }, [location.key]);
}

export function Dialog({
  title,
  onClose,
  children,
  footer,
  role = 'dialog',
  className,
  isDismissable = true,
}: DialogProps) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  useCloseOnRouteChange(onClose);
  // a control marked data-autofocus takes the focus (React Aria first focuses the dialog itself)
  useEffect(() => box.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus(), []);
  return (
    <KitProvider>
      <ModalOverlay
        isOpen
        onOpenChange={(open) => !open && onClose()}
        isDismissable={isDismissable}
        isKeyboardDismissDisabled={!isDismissable}
        className="backdrop kit-backdrop"
      >
        <RACModal ref={box} className={['modal', className].filter(Boolean).join(' ')}>
          <RACDialog role={role} className="kit-dialog">
            <header className="modal-head">
              <Heading slot="title" level={2}>
                {title}
              </Heading>
              <button type="button" className="icon" aria-label={t('app.close')} onClick={onClose}>
                <Icon name="close" />
              </button>
            </header>
            <div className="modal-body">{children}</div>
            {footer ? <footer className="modal-foot">{footer}</footer> : null}
          </RACDialog>
        </RACModal>
      </ModalOverlay>
    </KitProvider>
  );
}

export interface ConfirmDialogProps {
  onConfirm: () => void;
  onCancel: () => void;
  /** default "Are you sure?" */
  title?: ReactNode;
  /** rich content (React nodes, never raw HTML strings) */
  children?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** the confirmed action is running: confirm is disabled */
  busy?: boolean;
}

/** Cancel and a red confirm button (spec §3); Escape or the backdrop cancels; focus starts on cancel. */
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
    <Dialog
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
    </Dialog>
  );
}
