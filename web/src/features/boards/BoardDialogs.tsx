/** The dashboard's dialogs; all use the kit's Dialog (focus trap, Escape, route change). */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  BOARD_BACKGROUNDS,
  BOARD_PERMISSIONS,
  BOARD_TITLE_MAX_LENGTH,
  FOLDER_NAME_MAX_LENGTH,
  type BoardBackground,
  type BoardPermission,
  type BoardShare,
  type FolderDto,
  type Plan,
  type Settings,
} from '@wb/proto';
import { Dialog } from '../../ui/kit/Dialog';
import { Field } from '../../ui/Field';
import { UpgradeDialog as PlanUpgradeDialog, UpgradePrompt } from '../../ui/UpgradePrompt';
import { useUpgradeVariant } from '../billing/useBilling';
import { useAppDispatch } from '../../app/store';
import { notify } from '../../ui/toastsSlice';
import {
  useGetShareQuery,
  useGrantPermissionMutation,
  useUpdateBoardMutation,
  type CreateBoardInput,
} from './boardsApi';

type Submit = () => Promise<boolean>;

function Select<T extends string>({
  label,
  value,
  values,
  text,
  onChange,
  disabled,
}: {
  label: string;
  value: T;
  values: readonly T[];
  text: (v: T) => string;
  onChange: (v: T) => void;
  disabled?: (v: T) => boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as T)}>
        {values.map((v) => (
          <option key={v} value={v} disabled={disabled?.(v)}>
            {text(v)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A form in a modal: Enter submits, the dialog closes when `onSubmit` reports success. */
function FormDialog({
  title,
  submitLabel,
  onClose,
  onSubmit,
  children,
}: {
  title: string;
  submitLabel: string;
  onClose: () => void;
  onSubmit: Submit;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    const ok = await onSubmit().catch(() => false);
    setBusy(false);
    if (ok) onClose();
  };
  return (
    <Dialog
      title={title}
      onClose={onClose}
      footer={
        <>
          <button type="button" onClick={onClose}>
            {t('confirm.cancel')}
          </button>
          <button type="submit" form={formId} className="primary" disabled={busy}>
            {submitLabel}
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={(e) => void submit(e)} noValidate>
        {children}
      </form>
    </Dialog>
  );
}

/** New board: background, permission and collaboration control start from the user's settings. */
export function CreateBoardDialog({
  settings,
  plan,
  folder,
  onClose,
  onCreate,
}: {
  settings: Settings;
  plan: Plan;
  /** the folder view the user is in (needs the folders feature) */
  folder: FolderDto | undefined;
  onClose: () => void;
  onCreate: (input: CreateBoardInput) => Promise<boolean>;
}) {
  const { t } = useTranslation('boards');
  const { t: tc } = useTranslation();
  const canRestrict = plan.features.collaborationControls;
  const [title, setTitle] = useState('');
  const [background, setBackground] = useState<BoardBackground>(settings.newBoardBackground);
  const [permission, setPermission] = useState<BoardPermission>(settings.newBoardPermissions);
  const [ownOnly, setOwnOnly] = useState(canRestrict && settings.newBoardDeleteOwnOnly === 1);
  const inFolder = folder && plan.features.folders ? folder : undefined;
  return (
    <FormDialog
      title={t('create.title')}
      submitLabel={t('create.submit')}
      onClose={onClose}
      onSubmit={() =>
        onCreate({
          ...(title.trim() ? { title: title.trim() } : {}),
          background,
          defaultPermission: permission,
          deleteOwnOnly: ownOnly,
          ...(inFolder ? { folder: inFolder.id } : {}),
        })
      }
    >
      <Field
        label={t('create.name')}
        name="title"
        value={title}
        onChange={setTitle}
        placeholder={t('create.placeholder')}
        maxLength={BOARD_TITLE_MAX_LENGTH}
        data-autofocus
      />
      <Select
        label={tc('prefs.background')}
        value={background}
        values={BOARD_BACKGROUNDS}
        text={(v) => tc(`prefs.bg_${v}`)}
        onChange={setBackground}
      />
      <Select
        label={tc('prefs.permissions')}
        value={permission}
        values={BOARD_PERMISSIONS}
        text={(v) => tc(`prefs.perm_${v}`)}
        onChange={setPermission}
      />
      <Select
        label={tc('prefs.deleteControl')}
        value={ownOnly ? 'own' : 'all'}
        values={['all', 'own'] as const}
        text={(v) => tc(v === 'own' ? 'prefs.deleteOwn' : 'prefs.deleteAll')}
        onChange={(v) => setOwnOnly(v === 'own')}
        disabled={(v) => v === 'own' && !canRestrict}
      />
      {!canRestrict ? <small className="muted">{tc('prefs.paidOnly')}</small> : null}
      {inFolder ? <p className="muted">{t('create.inFolder', { folder: inFolder.name })}</p> : null}
    </FormDialog>
  );
}

/** One name field: rename a board, create or rename a folder. */
export function NameDialog({
  title,
  label,
  submitLabel,
  initial,
  maxLength,
  onClose,
  onSave,
}: {
  title: string;
  label: string;
  submitLabel: string;
  initial: string;
  maxLength: number;
  onClose: () => void;
  onSave: (name: string) => Promise<boolean>;
}) {
  const { t } = useTranslation('boards');
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string>();
  return (
    <FormDialog
      title={title}
      submitLabel={submitLabel}
      onClose={onClose}
      onSubmit={async () => {
        const trimmed = name.trim();
        if (!trimmed) {
          setError(t('name.required'));
          return false;
        }
        return onSave(trimmed);
      }}
    >
      <Field
        label={label}
        name="name"
        value={name}
        onChange={(v) => {
          setName(v);
          setError(undefined);
        }}
        maxLength={maxLength}
        error={error}
        data-autofocus
        required
      />
    </FormDialog>
  );
}

export const BOARD_NAME_MAX = BOARD_TITLE_MAX_LENGTH;
export const FOLDER_NAME_MAX = FOLDER_NAME_MAX_LENGTH;

/** Move boards to a folder or to unsorted (unsorted needs no feature). */
export function MoveDialog({
  count,
  folders,
  current,
  onClose,
  onMove,
}: {
  count: number;
  folders: readonly FolderDto[];
  /** the folder the boards are in when they share one */
  current: number | null | undefined;
  onClose: () => void;
  onMove: (folder: number | null) => Promise<boolean>;
}) {
  const { t } = useTranslation('boards');
  const firstOther = folders.find((f) => f.id !== current)?.id ?? null;
  const [target, setTarget] = useState<string>(String(current === undefined ? firstOther : (firstOther ?? '')));
  return (
    <FormDialog
      title={t('move.title', { count })}
      submitLabel={t('move.submit')}
      onClose={onClose}
      onSubmit={() => onMove(target === '' || target === 'null' ? null : Number(target))}
    >
      <Select
        label={t('move.target')}
        value={target}
        values={['null', ...folders.map((f) => String(f.id))]}
        text={(v) => (v === 'null' ? t('move.unsorted') : (folders.find((f) => String(f.id) === v)?.name ?? v))}
        onChange={setTarget}
      />
      {folders.length === 0 ? <p className="muted">{t('move.noFolders')}</p> : null}
    </FormDialog>
  );
}

export type UpgradeReason = 'boardLimit' | 'folders' | 'collaborationControls' | 'feature';

/** Spec §2 upgrade prompt, with why the user sees it. */
export function UpgradeDialog({
  reason,
  maxBoards,
  onClose,
}: {
  reason: UpgradeReason;
  maxBoards: number;
  onClose: () => void;
}) {
  const { t } = useTranslation('boards');
  const variant = useUpgradeVariant();
  return (
    <PlanUpgradeDialog
      variant={variant}
      title={t(`upgrade.${reason}Title`)}
      text={t(`upgrade.${reason}Text`, { max: maxBoards })}
      onClose={onClose}
    />
  );
}

/** Share: the link, the permission for people who join and the collaboration control (owner only). */
export function ShareDialog({
  boardId,
  boardTitle,
  plan,
  onClose,
  onError,
}: {
  boardId: string;
  boardTitle: string;
  plan: Plan;
  onClose: () => void;
  onError: (error: unknown) => void;
}) {
  const { t } = useTranslation('boards');
  const { t: tc } = useTranslation();
  const dispatch = useAppDispatch();
  const linkId = useId();
  const share = useGetShareQuery(boardId, { refetchOnMountOrArgChange: true });
  const [update, { isLoading: saving }] = useUpdateBoardMutation();
  const canRestrict = plan.features.collaborationControls;
  const upgradeVariantOfUser = useUpgradeVariant();
  const save = async (patch: { defaultPermission?: BoardPermission; deleteOwnOnly?: boolean }) => {
    const result = await update({ boardId, ...patch });
    if ('error' in result) onError(result.error);
    else dispatch(notify({ type: 'info', message: t('share.saved') }));
  };
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      dispatch(notify({ type: 'info', message: t('share.copied') }));
    } catch {
      // no clipboard permission: select the text so the user copies it themselves
      const input = document.getElementById(linkId) as HTMLInputElement | null;
      input?.select();
      dispatch(notify({ type: 'warning', message: t('share.copyFailed') }));
    }
  };
  const data = share.data;
  return (
    <Dialog title={t('share.title', { title: boardTitle })} onClose={onClose} className="share-dialog">
      {share.isError ? (
        <p role="alert">{t('share.loadFailed')}</p>
      ) : !data ? (
        <p role="status">{tc('app.loading')}</p>
      ) : (
        <>
          <div className="field">
            <label htmlFor={linkId}>{t('share.link')}</label>
            <div className="share-link">
              <input id={linkId} readOnly value={data.url} onFocus={(e) => e.target.select()} />
              <button type="button" className="primary" onClick={() => void copy(data.url)} data-autofocus>
                {t('share.copy')}
              </button>
            </div>
          </div>
          {!plan.features.guests ? <p className="muted">{t('share.guestsNeedPlan')}</p> : null}
          <Select
            label={tc('prefs.permissions')}
            value={data.defaultPermission}
            values={BOARD_PERMISSIONS}
            text={(v) => tc(`prefs.perm_${v}`)}
            onChange={(v) => void save({ defaultPermission: v })}
          />
          <Select
            label={tc('prefs.deleteControl')}
            value={data.deleteOwnOnly ? 'own' : 'all'}
            values={['all', 'own'] as const}
            text={(v) => tc(v === 'own' ? 'prefs.deleteOwn' : 'prefs.deleteAll')}
            onChange={(v) => void save({ deleteOwnOnly: v === 'own' })}
            // turning the control off never needs the feature
            disabled={(v) => v === 'own' && !canRestrict && !data.deleteOwnOnly}
          />
          {!canRestrict && !data.deleteOwnOnly ? (
            <div className="share-upgrade">
              <p className="muted">{t('upgrade.collaborationControlsText')}</p>
              <UpgradePrompt variant={upgradeVariantOfUser} />
            </div>
          ) : null}
          <p className="muted" aria-live="polite">
            {saving ? tc('app.saving') : t('share.members', { count: data.members.length })}
          </p>
          <MemberList boardId={boardId} share={data} onError={onError} />
        </>
      )}
    </Dialog>
  );
}

const DEFAULT_GRANT = 'default';

/** Everyone who joined (or was granted): a permission each, or the board's default. */
function MemberList({
  boardId,
  share,
  onError,
}: {
  boardId: string;
  share: BoardShare;
  onError: (error: unknown) => void;
}) {
  const { t, i18n } = useTranslation('boards');
  const { t: tc } = useTranslation();
  const dispatch = useAppDispatch();
  const [grant, { isLoading }] = useGrantPermissionMutation();
  if (share.members.length === 0) return null;
  const change = async (userId: number, value: string) => {
    const permission = value === DEFAULT_GRANT ? null : (value as BoardPermission);
    const result = await grant({ boardId, userId, permission });
    if ('error' in result) onError(result.error);
    else dispatch(notify({ type: 'info', message: t('share.saved') }));
  };
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  return (
    <ul className="share-members" aria-label={t('share.people')}>
      {share.members.map((m) => {
        const name = m.name ?? t('share.unknownName', { id: m.userId });
        return (
          <li key={m.userId}>
            <span className="share-member-name">
              {name}
              <span className="muted">
                {m.joined ? t('share.joined', { date: date.format(new Date(m.joined)) }) : t('share.notJoined')}
              </span>
            </span>
            <select
              aria-label={t('share.permissionOf', { name })}
              value={m.permission ?? DEFAULT_GRANT}
              disabled={isLoading}
              onChange={(e) => void change(m.userId, e.target.value)}
            >
              <option value={DEFAULT_GRANT}>
                {t('share.defaultGrant', { permission: tc(`prefs.perm_${share.defaultPermission}`) })}
              </option>
              {BOARD_PERMISSIONS.map((p) => (
                <option key={p} value={p}>
                  {tc(`prefs.perm_${p}`)}
                </option>
              ))}
            </select>
          </li>
        );
      })}
    </ul>
  );
}
