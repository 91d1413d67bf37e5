import { Link, Outlet } from 'react-router-dom';
import { isSignedIn, useGetUserQuery } from '../features/auth/authApi';
import { Toasts } from './Toasts';

export function Layout() {
  const { data: user } = useGetUserQuery();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/" className="brand">
          Whiteboard
        </Link>
        <nav aria-label="Account">
          {isSignedIn(user) ? (
            <Link to="/dashboard">{user.name}</Link>
          ) : (
            <>
              <Link to="/login">Log in</Link>
              <Link to="/signup">Sign up</Link>
            </>
          )}
        </nav>
      </header>
      <main id="main">
        <Outlet />
      </main>
      <Toasts />
    </>
  );
}
