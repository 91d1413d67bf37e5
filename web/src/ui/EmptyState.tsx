import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** EmptyState is the kit's (kit/EmptyState.tsx); this path is kept for its callers. */
export { EmptyState } from './kit/EmptyState';

export function Loading() {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <LoadingText />
    </div>
  );
}

function LoadingText() {
  const { t } = useTranslation();
  return <span>{t('app.loading')}</span>;
}

/** A page with a heading, used by the pages whose feature arrives later. */
export function Page({ title, children, wide }: { title: ReactNode; children?: ReactNode; wide?: boolean }) {
  return (
    <section className={wide ? 'page wide' : 'page'}>
      <h1>{title}</h1>
      {children}
    </section>
  );
}
