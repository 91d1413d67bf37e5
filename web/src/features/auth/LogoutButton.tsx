import { useLogoutMutation } from './authApi';

/** POST /auth/logout, then a full page load of `/` (drops every cached query and the old CSRF token). */
export function LogoutButton() {
  const [logout, { isLoading }] = useLogoutMutation();
  const onClick = async () => {
    await logout();
    window.location.assign('/');
  };
  return (
    <button type="button" onClick={() => void onClick()} disabled={isLoading}>
      {isLoading ? 'Logging out…' : 'Log out'}
    </button>
  );
}
