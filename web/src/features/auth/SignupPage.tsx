import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { NAME_MIN_LENGTH, PASSWORD_MIN_LENGTH } from '@wb/proto';
import { LocalLink } from '../../app/prefix';
import { useAppDispatch } from '../../app/store';
import { formErrorText } from '../../app/apiClient';
import { Field } from '../../ui/Field';
import { FormError } from '../../ui/FormError';
import { useCodeText } from '../../ui/useCodeText';
import { enterSession, useSignupMutation } from './authApi';
import { AuthCard } from './AuthCard';
import { Button } from '../../ui/kit/Button';

export function SignupPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const codeText = useCodeText();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ name?: string; email?: string; password?: string }>({});
  const [signup, { isLoading, error }] = useSignupMutation();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const errors = {
      name: name.trim().length < NAME_MIN_LENGTH ? t('auth.nameTooShort') : undefined,
      email: !email.trim() ? t('auth.emailRequired') : undefined,
      password: password.length < PASSWORD_MIN_LENGTH ? t('auth.passwordTooShort') : undefined,
    };
    setFieldErrors(errors);
    if (errors.name || errors.email || errors.password) return;
    const result = await signup({ name: name.trim(), email: email.trim(), password });
    // a new account starts role onboarding: the route rules send it to setup
    if ('data' in result && result.data) await enterSession(dispatch, result.data.user);
  };

  return (
    <AuthCard title={t('auth.signupTitle')}>
      <form onSubmit={(e) => void onSubmit(e)} noValidate>
        <Field
          label={t('auth.name')}
          name="name"
          autoComplete="name"
          value={name}
          onChange={setName}
          error={fieldErrors.name}
          required
        />
        <Field
          label={t('auth.email')}
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={setEmail}
          error={fieldErrors.email}
          required
        />
        <Field
          label={t('auth.password')}
          type="password"
          name="password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          hint={t('auth.passwordHint')}
          error={fieldErrors.password}
          required
        />
        {error ? <FormError message={formErrorText(error, codeText)} /> : null}
        <Button type="submit" variant="primary" loading={isLoading}>
          {isLoading ? t('auth.signingUp') : t('auth.signup')}
        </Button>
      </form>
      <p className="muted">
        {t('auth.haveAccount')} <LocalLink to="/login">{t('auth.login')}</LocalLink>
      </p>
    </AuthCard>
  );
}
