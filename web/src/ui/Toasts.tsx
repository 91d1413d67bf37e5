import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../app/store';
import { dismissToast, type Toast } from '../app/toasts';

const TOAST_MS = 5000;

function ToastItem({ toast }: { toast: Toast }) {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const timer = setTimeout(() => dispatch(dismissToast(toast.id)), TOAST_MS);
    return () => clearTimeout(timer);
  }, [dispatch, toast.id]);
  return (
    <div className={`toast ${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
      {toast.text}
    </div>
  );
}

export function Toasts() {
  const toasts = useAppSelector((s) => s.toasts);
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </div>
  );
}
