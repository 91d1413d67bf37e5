import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { errorMessage } from '../../app/api';
import { Field } from '../../ui/Field';
import { FormError } from '../../ui/FormError';
import { useSignupMutation } from './authApi';

export function SignupPage() {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [signup, { isLoading, error }] = useSignupMutation();
  const navigate = useNavigate();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const result = await signup({ name: name.trim(), email: email.trim(), password });
    if (!('error' in result)) await navigate('/dashboard');
  };

  return (
    <section className="card narrow" aria-labelledby="signup-title">
      <h1 id="signup-title">Create your account</h1>
      <form onSubmit={(e) => void onSubmit(e)} noValidate>
        <Field label="Name" name="name" autoComplete="name" value={name} onChange={setName} required />
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
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          hint="At least 8 characters."
          required
        />
        {error ? <FormError message={errorMessage(error)} /> : null}
        <button type="submit" className="primary" disabled={isLoading}>
          {isLoading ? 'Creating account…' : 'Sign up'}
        </button>
      </form>
      <p className="muted">
        Already have an account? <Link to="/login">Log in</Link>
      </p>
    </section>
  );
}
