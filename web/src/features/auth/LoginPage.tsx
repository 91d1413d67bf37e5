import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { errorMessage } from '../../app/api';
import { Field } from '../../ui/Field';
import { FormError } from '../../ui/FormError';
import { useLoginMutation } from './authApi';

export function LoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [login, { isLoading, error }] = useLoginMutation();
  const navigate = useNavigate();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const result = await login({ email: email.trim(), password });
    if (!('error' in result)) await navigate('/dashboard');
  };

  return (
    <section className="card narrow" aria-labelledby="login-title">
      <h1 id="login-title">Log in</h1>
      <form onSubmit={(e) => void onSubmit(e)} noValidate>
        <Field
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={setEmail}
          required
        />
        <Field
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          required
        />
        {error ? <FormError message={errorMessage(error)} /> : null}
        <button type="submit" className="primary" disabled={isLoading}>
          {isLoading ? 'Logging in…' : 'Log in'}
        </button>
      </form>
      <p className="muted">
        No account yet? <Link to="/signup">Sign up</Link>
      </p>
    </section>
  );
}
