import { Link } from 'react-router-dom';

/** Placeholder: the profile form comes with the settings feature. */
export function ProfileSettingsPage() {
  return (
    <section className="card" aria-labelledby="profile-title">
      <h1 id="profile-title">Profile settings</h1>
      <p className="muted">Editing your profile is coming soon.</p>
      <p>
        <Link to="/dashboard">Back to the dashboard</Link>
      </p>
    </section>
  );
}
