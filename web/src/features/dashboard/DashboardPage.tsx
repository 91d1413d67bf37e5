import { Link, Navigate } from 'react-router-dom';
import { errorMessage } from '../../app/api';
import { FormError } from '../../ui/FormError';
import { LogoutButton } from '../auth/LogoutButton';
import { isSignedIn, useGetUserQuery } from '../auth/authApi';

export function DashboardPage() {
  const { data: user, isLoading, error } = useGetUserQuery();
  if (isLoading) return <p aria-busy="true">Loading…</p>;
  if (error) return <FormError message={errorMessage(error)} />;
  if (!isSignedIn(user)) return <Navigate to="/login" replace />;
  return (
    <section className="card" aria-labelledby="dashboard-title">
      <h1 id="dashboard-title">Dashboard</h1>
      <dl className="facts">
        <dt>Name</dt>
        <dd>{user.name}</dd>
        {user.email ? (
          <>
            <dt>Email</dt>
            <dd>{user.email}</dd>
          </>
        ) : null}
      </dl>
      <p className="actions">
        <Link className="button" to="/settings/profile">
          Profile settings
        </Link>
        <LogoutButton />
      </p>
    </section>
  );
}
