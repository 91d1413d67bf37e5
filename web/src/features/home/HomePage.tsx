import { Link } from 'react-router-dom';
import { isSignedIn, useGetUserQuery } from '../auth/authApi';

export function HomePage() {
  const { data: user, isLoading } = useGetUserQuery();
  return (
    <section className="hero" aria-labelledby="home-title">
      <h1 id="home-title">Whiteboard</h1>
      <p className="lead">An endless shared canvas for teaching, learning and working together in real time.</p>
      {isLoading ? (
        <p aria-busy="true">Loading…</p>
      ) : isSignedIn(user) ? (
        <p>
          <Link className="button primary" to="/dashboard">
            Go to dashboard
          </Link>
        </p>
      ) : (
        <p className="actions">
          <Link className="button primary" to="/signup">
            Sign up
          </Link>
          <Link className="button" to="/login">
            Log in
          </Link>
        </p>
      )}
    </section>
  );
}
