/** The modal lives in the kit (kit/Dialog.tsx); this path is kept for its callers. */
export { Dialog as Modal, type DialogProps as ModalProps } from './kit/Dialog';
