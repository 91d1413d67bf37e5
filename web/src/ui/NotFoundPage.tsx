import { Link } from 'react-router-dom';

export function NotFoundPage() {
  return (
    <section className="card narrow" aria-labelledby="notfound-title">
      <h1 id="notfound-title">Page not found</h1>
      <p className="muted">There is nothing at this address.</p>
      <p>
        <Link to="/">Go to the home page</Link>
      </p>
    </section>
  );
}
