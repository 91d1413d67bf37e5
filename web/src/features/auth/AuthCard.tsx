import type { ReactNode } from 'react';

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card narrow" aria-labelledby="auth-title">
      <h1 id="auth-title">{title}</h1>
      {children}
    </section>
  );
}
