import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { NAME_MIN_LENGTH, PASSWORD_MIN_LENGTH, ROLES, TERMINATE_CONFIRMATION_PHRASE, type Role } from '@wb/proto';
import { formErrorText } from '../../app/apiClient';
import { useAppDispatch } from '../../app/store';
import { ConfirmDialog } from '../../ui/kit/Dialog';
import { Field } from '../../ui/Field';
import { FormError } from '../../ui/FormError';
import { Button, buttonClass } from '../../ui/kit/Button';
import { Select, SelectItem } from '../../ui/kit/Select';
import { Switch } from '../../ui/kit/Switch';
import { notify } from '../../ui/toastsSlice';
import { useCodeText } from '../../ui/useCodeText';
import {
  useChangeEmailMutation,
  useChangePasswordMutation,
  useTerminateMutation,
  useUpdateProfileMutation,
} from '../auth/authApi';
import { useUpdateSettingsMutation } from '../session/sessionApi';
import { uploadDisplayImage } from '../files';
import { useSession } from '../session/useSession';

function useSaved() {
  const dispatch = useAppDispatch();
  const { t } = useTranslation();
  return () => dispatch(notify({ type: 'info', message: t('settings.saved') }));
}

export function ProfileSettings() {
  const { t } = useTranslation();
  const codeText = useCodeText();
  const saved = useSaved();
  const { user, settings } = useSession();
  const [name, setName] = useState(user?.name ?? '');
  const [role, setRole] = useState<Role | ''>(settings.role ?? '');
  const [picture, setPicture] = useState(user?.picture ?? '');
  const [nameError, setNameError] = useState<string>();
  const [update, { isLoading, error }] = useUpdateProfileMutation();
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [changeEmail, emailState] = useChangeEmailMutation();
  const [pictureUpload, setPictureUpload] = useState<{ busy: boolean; error?: string }>({ busy: false });

  /** the server crops and resizes the picture; its URL is saved at once (nothing else of the form) */
  const onPictureFile = async (file: File | undefined) => {
    if (!file) return;
    setPictureUpload({ busy: true });
    try {
      const { url } = await uploadDisplayImage(file);
      const absolute = new URL(url, window.location.origin).href;
      setPicture(absolute);
      const result = await update({ picture: absolute });
      setPictureUpload({ busy: false });
      if (!('error' in result)) saved();
    } catch (err) {
      setPictureUpload({ busy: false, error: err instanceof Error ? err.message : String(err) });
    }
  };

  const onSave = async (e: FormEvent) => {
    e.preventDefault();
    if (name.trim().length < NAME_MIN_LENGTH) return setNameError(t('auth.nameTooShort'));
    setNameError(undefined);
    const result = await update({ name: name.trim(), ...(role ? { role } : {}), picture: picture.trim() || null });
    if (!('error' in result)) saved();
  };
  const onChangeEmail = async (e: FormEvent) => {
    e.preventDefault();
    const result = await changeEmail({ email: newEmail.trim(), password });
    if (!('error' in result)) {
      setNewEmail('');
      setPassword('');
    }
  };
  const status = user?.email_status ?? 'unverified';
  return (
    <>
      <form onSubmit={(e) => void onSave(e)} noValidate>
        <Field
          label={t('auth.name')}
          name="name"
          autoComplete="name"
          value={name}
          onChange={setName}
          error={nameError}
        />
        <Select label={t('profile.role')} value={role || null} onChange={(r) => setRole(r as Role)}>
          {ROLES.map((r) => (
            <SelectItem key={r} id={r}>
              {t(`roles.${r}`)}
            </SelectItem>
          ))}
        </Select>
        <Field
          label={t('profile.picture')}
          name="picture"
          type="url"
          value={picture}
          onChange={setPicture}
          hint={t('profile.pictureHint')}
        />
        <div className="field profile-picture">
          {picture ? <img src={picture} alt={t('profile.pictureAlt')} width={64} height={64} /> : null}
          <label className={buttonClass()} data-action="upload-picture" aria-busy={pictureUpload.busy || undefined}>
            <input
              type="file"
              accept="image/png,image/jpeg,image/gif,image/webp"
              className="sr-only"
              disabled={pictureUpload.busy}
              onChange={(e) => {
                void onPictureFile(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
            {pictureUpload.busy ? t('profile.pictureUploading') : t('profile.uploadPicture')}
          </label>
          {pictureUpload.error ? (
            <p className="field-error" role="alert">
              {t('profile.pictureUploadFailed', { message: pictureUpload.error })}
            </p>
          ) : null}
        </div>
        {error ? <FormError message={formErrorText(error, codeText)} /> : null}
        <Button type="submit" variant="primary" loading={isLoading}>
          {t('app.save')}
        </Button>
      </form>
      <h2>{t('profile.emailSection')}</h2>
      <p>
        {user?.email} · {t('profile.emailStatus', { status: t(`profile.status_${status}`) })}
      </p>
      <form onSubmit={(e) => void onChangeEmail(e)} noValidate>
        <Field
          label={t('profile.newEmail')}
          name="email"
          type="email"
          autoComplete="email"
          value={newEmail}
          onChange={setNewEmail}
        />
        <Field
          label={t('profile.currentPassword')}
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
        />
        {emailState.error ? <FormError message={formErrorText(emailState.error, codeText)} /> : null}
        <Button type="submit" loading={emailState.isLoading} disabled={!newEmail.trim() || !password}>
          {t('profile.changeEmail')}
        </Button>
      </form>
    </>
  );
}

export function EmailOptionsSettings() {
  const { t } = useTranslation();
  const { settings } = useSession();
  const [save] = useUpdateSettingsMutation();
  return (
    <fieldset className="toggles">
      <legend className="sr-only">{t('settings.email-options')}</legend>
      <Switch
        label={t('email.accountMails')}
        checked
        disabled
        onChange={() => undefined}
        aria-describedby="account-mails-hint"
      />
      <small id="account-mails-hint" className="muted">
        {t('email.accountMailsHint')}
      </small>
      <Switch
        label={t('email.productUpdates')}
        checked={settings.emailProductUpdates === 1}
        onChange={(on) => void save({ emailProductUpdates: on ? 1 : 0 })}
      />
    </fieldset>
  );
}

export function AuthenticationSettings() {
  const { t } = useTranslation();
  const codeText = useCodeText();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [localError, setLocalError] = useState<string>();
  const [change, { isLoading, error }] = useChangePasswordMutation();
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (next.length < PASSWORD_MIN_LENGTH) return setLocalError(t('auth.passwordTooShort'));
    if (next !== repeat) return setLocalError(t('auth.passwordsDiffer'));
    setLocalError(undefined);
    // success shows the PASSWORD_CHANGED notice sent by the server
    const result = await change({ currentPassword: current, newPassword: next });
    if (!('error' in result)) {
      setCurrent('');
      setNext('');
      setRepeat('');
    }
  };
  const message = localError ?? (error ? formErrorText(error, codeText) : undefined);
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate>
      <Field
        label={t('password.current')}
        name="current"
        type="password"
        autoComplete="current-password"
        value={current}
        onChange={setCurrent}
      />
      <Field
        label={t('password.new')}
        name="new"
        type="password"
        autoComplete="new-password"
        value={next}
        onChange={setNext}
        hint={t('auth.passwordHint')}
      />
      <Field
        label={t('password.repeat')}
        name="repeat"
        type="password"
        autoComplete="new-password"
        value={repeat}
        onChange={setRepeat}
      />
      {message ? <FormError message={message} /> : null}
      <Button type="submit" variant="primary" loading={isLoading}>
        {t('password.submit')}
      </Button>
    </form>
  );
}

export function TerminateSettings() {
  const { t } = useTranslation();
  const codeText = useCodeText();
  const [phrase, setPhrase] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [terminate, { isLoading, error }] = useTerminateMutation();
  const matches = phrase.trim() === TERMINATE_CONFIRMATION_PHRASE;
  const onConfirm = async () => {
    const result = await terminate({ confirmation: phrase.trim() });
    setConfirming(false);
    if (!('error' in result)) window.location.assign('/');
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setConfirming(true);
      }}
      noValidate
    >
      <p>{t('terminate.text')}</p>
      <Field
        label={t('terminate.phraseLabel', { phrase: TERMINATE_CONFIRMATION_PHRASE })}
        name="confirmation"
        value={phrase}
        onChange={setPhrase}
        autoComplete="off"
      />
      {error ? <FormError message={formErrorText(error, codeText)} /> : null}
      <Button type="submit" variant="danger" loading={isLoading} disabled={!matches}>
        {t('terminate.submit')}
      </Button>
      {confirming ? (
        <ConfirmDialog
          title={t('terminate.confirmTitle')}
          confirmLabel={t('terminate.submit')}
          busy={isLoading}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void onConfirm()}
        >
          <p>{t('terminate.text')}</p>
        </ConfirmDialog>
      ) : null}
    </form>
  );
}
