/**
 * Settings → users (team owner), team (member's view), leave-business and close-business
 * (spec §2, §3 Business info, §4 Team, §5 confirmation phrases, §6 roles).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import {
  CLOSE_BUSINESS_CONFIRMATION_PHRASE,
  LEAVE_BUSINESS_CONFIRMATION_PHRASE,
  TEAM_INVITE_BATCH_MAX,
  type BusinessInfo,
  type InvitationResult,
  type TeamMember,
} from '@wb/proto';
import { formErrorText } from '../../app/apiClient';
import { LocalLink, useLocalPath } from '../../app/prefix';
import { useAppDispatch } from '../../app/store';
import { ConfirmDialog } from '../../ui/kit/Dialog';
import { EmptyState, Loading } from '../../ui/EmptyState';
import { Field } from '../../ui/Field';
import { FormError } from '../../ui/FormError';
import { Badge } from '../../ui/kit/Badge';
import { Button, buttonClass } from '../../ui/kit/Button';
import { Table, type Column } from '../../ui/kit/Table';
import { notify } from '../../ui/toastsSlice';
import { useCodeMessage, useCodeText } from '../../ui/useCodeText';
import {
  useCancelInvitationMutation,
  useCloseBusinessMutation,
  useGetBusinessInfoQuery,
  useInviteMutation,
  useLeaveTeamMutation,
  useMemberActionMutation,
} from './billingApi';
import { formatDate, parseEmails, phraseMatches } from './billingLogic';
import './billing.css';

type Pending =
  | { kind: 'deactivate' | 'activate' | 'remove'; member: TeamMember }
  | { kind: 'cancelInvitation'; id: number; email: string };

export function UsersSettings() {
  const { t } = useTranslation('billing');
  const info = useGetBusinessInfoQuery();
  if (info.isLoading) return <Loading />;
  const data = info.data;
  if (!data || data.role !== 'owner') {
    return (
      <EmptyState title={data ? t('team.ownerOnly') : t('team.noBusiness')}>
        <p className="muted">{t('team.noBusinessText')}</p>
        {data ? (
          <LocalLink to="/settings/team" className={buttonClass()}>
            {t('team.viewTeam')}
          </LocalLink>
        ) : (
          <LocalLink to="/settings/subscription/upgrade" className={buttonClass({ variant: 'primary' })}>
            {t('sub.upgradeNow')}
          </LocalLink>
        )}
      </EmptyState>
    );
  }
  return <OwnerView info={data} />;
}

function OwnerView({ info }: { info: BusinessInfo }) {
  const { t, i18n } = useTranslation('billing');
  const { t: tc } = useTranslation();
  const dispatch = useAppDispatch();
  const codeText = useCodeText();
  const [pending, setPending] = useState<Pending | undefined>();
  const [act, acting] = useMemberActionMutation();
  const [cancelInvitation, cancelling] = useCancelInvitationMutation();
  const lic = info.licences;
  const confirm = async () => {
    if (!pending) return;
    const result =
      pending.kind === 'cancelInvitation'
        ? await cancelInvitation(pending.id)
        : await act({ userId: pending.member.id, action: pending.kind });
    setPending(undefined);
    if ('error' in result) dispatch(notify({ type: 'error', message: formErrorText(result.error, codeText) }));
    else dispatch(notify({ type: 'info', message: t(`team.done.${pending.kind}`) }));
  };
  const who = (m: TeamMember) => m.name ?? m.email ?? `#${m.id}`;
  const columns: Column<TeamMember>[] = [
    {
      key: 'name',
      header: t('team.name'),
      sortValue: who,
      cell: (m) => (
        <span className="member-name">
          {who(m)}
          {m.role === 'owner' ? <Badge>{t('team.owner')}</Badge> : null}
        </span>
      ),
    },
    { key: 'email', header: t('form.email'), sortValue: (m) => m.email ?? '', cell: (m) => m.email ?? '' },
    {
      key: 'licence',
      header: t('team.licence'),
      sortValue: (m) => m.status,
      cell: (m) => <Badge tone={m.status === 'active' ? 'success' : 'neutral'}>{t(`team.status.${m.status}`)}</Badge>,
    },
    {
      key: 'actions',
      header: <span className="sr-only">{t('team.actions')}</span>,
      align: 'end',
      cell: (m) =>
        m.role === 'owner' ? null : (
          <div className="row-actions">
            {m.status === 'active' ? (
              <Button size="sm" onClick={() => setPending({ kind: 'deactivate', member: m })}>
                {t('team.deactivate')}
              </Button>
            ) : (
              <Button size="sm" onClick={() => setPending({ kind: 'activate', member: m })}>
                {t('team.activate')}
              </Button>
            )}
            <Button
              size="sm"
              variant="ghost"
              className="danger-text"
              onClick={() => setPending({ kind: 'remove', member: m })}
            >
              {t('team.remove')}
            </Button>
          </div>
        ),
    },
  ];
  const members = [...(info.members ?? []), ...(info.deactivated ?? [])];
  return (
    <div className="team">
      <p className="team-name">
        <strong>{info.name}</strong>
        {info.plan ? <Badge tone="info">{t('team.plan', { plan: tc(`plans.${info.plan}`) })}</Badge> : null}
      </p>
      {lic ? (
        <p className="licences" data-testid="licences">
          {t('team.licences', { used: lic.used, total: lic.total })}{' '}
          <LocalLink to="/settings/subscription/update">{t('team.moreLicences')}</LocalLink>
        </p>
      ) : null}
      <InviteForm />
      <h2>{t('team.members')}</h2>
      <Table caption={t('team.members')} captionHidden columns={columns} rows={members} rowKey={(m) => m.id} />
      <h2>{t('team.invitations')}</h2>
      {(info.invitations ?? []).length === 0 ? (
        <p className="muted">{t('team.noInvitations')}</p>
      ) : (
        <ul className="invitation-list">
          {(info.invitations ?? []).map((inv) => (
            <li key={inv.id}>
              <span>{inv.email}</span>{' '}
              <span className="muted">{t('team.sent', { date: formatDate(inv.created, i18n.language) })}</span>{' '}
              <Button size="sm" onClick={() => setPending({ kind: 'cancelInvitation', id: inv.id, email: inv.email })}>
                {t('team.cancelInvitation')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <p>
        <LocalLink to="/settings/close-business" className="danger-link">
          {t('close.link')}
        </LocalLink>
      </p>
      {pending ? (
        <ConfirmDialog
          title={t(`team.confirm.${pending.kind}Title`)}
          confirmLabel={t(`team.confirm.${pending.kind}`)}
          onCancel={() => setPending(undefined)}
          onConfirm={() => void confirm()}
          busy={acting.isLoading || cancelling.isLoading}
        >
          <p>
            {t(`team.confirm.${pending.kind}Text`, {
              name: pending.kind === 'cancelInvitation' ? pending.email : who(pending.member),
            })}
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

function InviteForm() {
  const { t } = useTranslation('billing');
  const codeText = useCodeText();
  const codeMessage = useCodeMessage();
  const [text, setText] = useState('');
  const [results, setResults] = useState<InvitationResult[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [invite, { isLoading }] = useInviteMutation();
  const emails = parseEmails(text);
  const submit = async () => {
    setError(undefined);
    if (emails.length === 0) return;
    if (emails.length > TEAM_INVITE_BATCH_MAX) {
      setError(t('invite.tooMany', { max: TEAM_INVITE_BATCH_MAX }));
      return;
    }
    const result = await invite({ emails });
    if ('error' in result) {
      setError(formErrorText(result.error, codeText));
      return;
    }
    setResults(result.data.results);
    // keep only the refused addresses in the box, to fix and send again
    setText(
      result.data.results
        .filter((r) => r.code)
        .map((r) => r.email)
        .join('\n'),
    );
  };
  return (
    <form
      className="card invite-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Field multiline rows={3} label={t('invite.label')} value={text} onChange={setText} hint={t('invite.hint')} />
      {error ? <FormError message={error} /> : null}
      <Button type="submit" variant="primary" loading={isLoading} disabled={emails.length === 0}>
        {t('invite.send', { count: emails.length })}
      </Button>
      {results.length > 0 ? (
        <ul className="invite-results" aria-live="polite">
          {results.map((r) => (
            <li key={r.email} className={r.code ? 'bad' : 'ok'} data-code={r.code ?? 'OK'}>
              <span>{r.email}</span>: {r.code ? codeMessage(r.code, r.message) : t('invite.sent')}
            </li>
          ))}
        </ul>
      ) : null}
    </form>
  );
}

export function TeamView() {
  const { t } = useTranslation('billing');
  const { t: tc } = useTranslation();
  const info = useGetBusinessInfoQuery();
  if (info.isLoading) return <Loading />;
  const data = info.data;
  if (!data) return <EmptyState title={t('team.noTeam')} />;
  if (data.role === 'owner') {
    return (
      <div className="card">
        <p>{t('team.youOwn', { name: data.name })}</p>
        <div className="actions">
          <LocalLink to="/settings/users" className={buttonClass({ variant: 'primary' })}>
            {t('team.manage')}
          </LocalLink>
          <LocalLink to="/settings/close-business" className={buttonClass()}>
            {t('close.link')}
          </LocalLink>
        </div>
      </div>
    );
  }
  return (
    <div className="card">
      <p>{t('team.memberOf', { name: data.name })}</p>
      <p className="muted">{t('team.ownerIs', { name: data.owner.name })}</p>
      {data.status.active === 1 ? (
        <p className="sub-state state-ok">
          {t('team.licenceActive', { plan: data.plan ? tc(`plans.${data.plan}`) : '' })}
        </p>
      ) : (
        <p className="sub-state state-warn">{t('team.licenceExpired')}</p>
      )}
      <LocalLink to="/settings/leave-business" className={buttonClass()}>
        {t('leave.link')}
      </LocalLink>
    </div>
  );
}

function PhraseForm({
  kind,
  phrase,
  run,
}: {
  kind: 'leave' | 'close';
  phrase: string;
  run: (confirmation: string) => Promise<{ error?: unknown }>;
}) {
  const { t } = useTranslation('billing');
  const codeText = useCodeText();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const lp = useLocalPath();
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const submit = async () => {
    setBusy(true);
    setError(undefined);
    const result = await run(typed.trim());
    setBusy(false);
    if (result.error) {
      setError(formErrorText(result.error, codeText));
      return;
    }
    dispatch(notify({ type: 'info', message: t(`${kind}.done`) }));
    void navigate(lp('/dashboard'));
  };
  return (
    <form
      className="card danger-zone"
      onSubmit={(e) => {
        e.preventDefault();
        if (phraseMatches(typed, phrase)) void submit();
      }}
    >
      <p>{t(`${kind}.text`)}</p>
      <Field
        label={t('cancel.type', { phrase })}
        name="confirmation"
        value={typed}
        onChange={setTyped}
        autoComplete="off"
      />
      {error ? <FormError message={error} /> : null}
      <Button type="submit" variant="danger" loading={busy} disabled={!phraseMatches(typed, phrase)}>
        {t(`${kind}.button`)}
      </Button>
    </form>
  );
}

export function LeaveBusinessSettings() {
  const { t } = useTranslation('billing');
  const info = useGetBusinessInfoQuery();
  const [leave] = useLeaveTeamMutation();
  if (info.isLoading) return <Loading />;
  if (!info.data || info.data.role === 'owner')
    return <EmptyState title={info.data ? t('leave.owner') : t('team.noTeam')} />;
  return (
    <PhraseForm
      kind="leave"
      phrase={LEAVE_BUSINESS_CONFIRMATION_PHRASE}
      run={(confirmation) => leave({ confirmation })}
    />
  );
}

export function CloseBusinessSettings() {
  const { t } = useTranslation('billing');
  const info = useGetBusinessInfoQuery();
  const [close] = useCloseBusinessMutation();
  if (info.isLoading) return <Loading />;
  if (!info.data || info.data.role !== 'owner') return <EmptyState title={t('team.noBusiness')} />;
  return (
    <PhraseForm
      kind="close"
      phrase={CLOSE_BUSINESS_CONFIRMATION_PHRASE}
      run={(confirmation) => close({ confirmation })}
    />
  );
}
