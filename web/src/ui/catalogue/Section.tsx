import type { ReactNode } from 'react';

/** One titled block of the catalogue. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="catalogue-section">
      <h3>{title}</h3>
      {children}
    </section>
  );
}
