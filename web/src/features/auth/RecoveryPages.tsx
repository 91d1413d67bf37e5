import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { PASSWORD_MIN_LENGTH } from '@wb/proto';
import { isApiError, formErrorText } from '../../app/apiClient';
import { LocalLink, useLocalPath } from '../../app/prefix';
import { Field } from '../../ui/Field';
import { FormError } from '../../ui/FormError';
import { useCodeText } from '../../ui/useCodeText';
import { useCompleteRecoveryMutation, useRequestRecoveryMutation } from './authApi';
import { AuthCard } from './AuthCard';
import { Button, buttonClass } from '../../ui/kit/Button';

export function RecoveryRequestPage() {
  const { t } = useTranslation();
  const codeText = useCodeText();
  const navigate = useNavigate();
  const lp = useLocalPath();
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string>();
  const [request, { isLoading, error }] = useRequestRecoveryMutation();
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim()) return setEmailError(t('auth.emailRequired'));
    setEmailError(undefined);
    const result = await request({ email: email.trim() });
    if (!('error' in result)) await navigate(lp('/password-recovery/requested'));
  };
  return (
    <AuthCard title={t('auth.requestTitle')}>
      <p>{t('auth.requestText')}</p>
      <form onSubmit={(e) => void onSubmit(e)} noValidate>
        <Field
          label={t('auth.email')}
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={setEmail}
          error={emailError}
          required
        />
        {error ? <FormError message={formErrorText(error, codeText)} /> : null}
        <Button type="submit" variant="primary" loading={isLoading}>
          {t('auth.sendLink')}
        </Button>
      </form>
    </AuthCard>
  );
}

export function RecoveryRequestedPage() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('auth.requestedTitle')}>
      <p>{t('auth.requestedText')}</p>
      <LocalLink to="/login">{t('auth.toLogin')}</LocalLink>
    </AuthCard>
  );
}

export function CreatePasswordPage() {
  const { t } = useTranslation();
  const codeText = useCodeText();
  const navigate = useNavigate();
  const lp = useLocalPath();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [localError, setLocalError] = useState<string>();
  const [complete, { isLoading, error }] = useCompleteRecoveryMutation();
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (password.length < PASSWORD_MIN_LENGTH) return setLocalError(t('auth.passwordTooShort'));
    if (password !== repeat) return setLocalError(t('auth.passwordsDiffer'));
    setLocalError(undefined);
    const result = await complete({ token, password });
    if (!('error' in result)) await navigate(lp('/password-recovery/password-saved'));
  };
  const invalidToken = !token || (isApiError(error) && error.code === 'ERR_INVALID_TOKEN');
  const message = localError ?? (error ? formErrorText(error, codeText) : undefined);
  return (
    <AuthCard title={t('title.createPassword')}>
      {invalidToken ? (
        <>
          <FormError message={t('errors.ERR_INVALID_TOKEN')} />
          <LocalLink to="/password-recovery/request">{t('auth.requestAgain')}</LocalLink>
        </>
      ) : (
        <form onSubmit={(e) => void onSubmit(e)} noValidate>
          <Field
            label={t('auth.newPassword')}
            type="password"
            name="password"
            autoComplete="new-password"
            value={password}
            onChange={setPassword}
            hint={t('auth.passwordHint')}
            required
          />
          <Field
            label={t('auth.repeatPassword')}
            type="password"
            name="repeat"
            autoComplete="new-password"
            value={repeat}
            onChange={setRepeat}
            required
          />
          {message ? <FormError message={message} /> : null}
          <Button type="submit" variant="primary" loading={isLoading}>
            {t('auth.savePassword')}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}

export function PasswordSavedPage() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('title.passwordSaved')}>
      <p>{t('auth.savedText')}</p>
      <LocalLink className={buttonClass({ variant: 'primary' })} to="/login">
        {t('auth.toLogin')}
      </LocalLink>
    </AuthCard>
  );
}
