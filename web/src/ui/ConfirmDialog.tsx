/** The confirmation dialog lives in the kit (kit/Dialog.tsx); this path is kept for its callers. */
export { ConfirmDialog, type ConfirmDialogProps } from './kit/Dialog';
