/**
 * `boards/{id}`: the full-screen board (spec §2). Guests pick a display name first, once the
 * server said they may join (guestAccess.ts: unknown boards, owners without guest access and
 * restricted boards show their lock screen instead); then the realtime client joins through the
 * gateway while the Automerge wasm loads (this route's chunk only). Close codes become the board
 * lock screens; viewers get a read-only banner and disabled tools. The drawing style starts from
 * the person's settings (guests: this device's copy).
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RT_LIMITS } from '@wb/proto';
import type { PageProps } from '../../app/pageProps';
import { LocalLink } from '../../app/prefix';
import { initialLocale, loadNamespace } from '../../i18n/i18n';
import { splitLocale } from '../../app/routes';
import { useNamespace } from '../../i18n/useNamespace';
import { Loading } from '../../ui/EmptyState';
import { useSession } from '../session/useSession';
import { BoardSession } from './BoardSession';
import { initialStyles } from './ui/styleSettings';
import { guestLock, useGetBoardQuery } from './guestAccess';
import { LockScreen } from './LockScreen';
import { BoardClient } from './realtime/boardClient';
import { loadAutomerge } from './realtime/loadAutomerge';
import { attachBrowserLifecycle } from './realtime/browserLifecycle';
import { IndexedDbChangeStore, outboxKey } from './realtime/changeStore';
import { boardSocketUrl, WebSocketTransport } from './realtime/transport';
import './board.css';

const GUEST_NAME_KEY = 'wb.guestName';

// the wasm and the page's strings load with this chunk, not after its first render (a failure
// is retried, and shown, by the page)
loadAutomerge().catch(() => undefined);
// in the language the app will start in (this chunk may be evaluated before the app has set it)
loadNamespace('board', initialLocale(splitLocale(window.location.pathname).prefix)).catch(() => undefined);

function storedGuestName(): string {
  try {
    return localStorage.getItem(GUEST_NAME_KEY) ?? '';
  } catch {
    return '';
  }
}

let rendered = false;

export function BoardPage({ match, url }: PageProps) {
  if (!rendered) {
    // a profiling mark, once per page load (BENCH_PROFILE_FROM in scripts/bench/editor-perf.ts), not state
    // eslint-disable-next-line react-hooks/globals
    rendered = true;
    performance.mark('wb:board-page'); // the open's timeline: React reached the page
  }
  const boardId = match.params.id ?? '';
  const strings = useNamespace('board');
  const { session, user, settings, plan } = useSession();
  const [guestName, setGuestName] = useState<string | null>(null);
  // the board mounts at once (its socket opens while the wasm loads); a failed load replaces it
  const [engineFailed, setEngineFailed] = useState(false);
  const asGuest = session.status === 'guest';
  const guestCheck = useGetBoardQuery(boardId, { skip: !asGuest || guestName !== null });
  // one realtime client per board and identity, joining as soon as the identity is known: the
  // socket opens while the page's strings and the Automerge wasm still load (S9)
  const userId = user?.id ?? (guestName !== null ? 0 : null);
  const name = user ? user.name : guestName;
  const client = useMemo(
    () =>
      userId === null || name === null
        ? null
        : new BoardClient({
            transport: new WebSocketTransport(boardSocketUrl(window.location, boardId)),
            userId,
            name,
            engine: loadAutomerge(),
            // SPEC K4: unsent changes are kept on this device (per board and person) until saved
            store: IndexedDbChangeStore.create(outboxKey(boardId, userId, name)),
          }),
    [boardId, userId, name],
  );
  useEffect(() => {
    if (!client) return;
    client.start();
    // SPEC K3/K4: reconnect at once when the network is back, ask before leaving unsent changes
    const detach = attachBrowserLifecycle(client);
    return () => {
      detach();
      client.stop();
    };
  }, [client]);

  useEffect(() => {
    let live = true;
    loadAutomerge().catch((err: unknown) => {
      console.error('board editor failed to load', err);
      if (live) setEngineFailed(true);
    });
    return () => {
      live = false;
    };
  }, []);

  if (!strings || session.status === 'loading') return <Loading />;
  if (engineFailed) return <LoadFailed />;
  if (!user && guestName === null) {
    if (guestCheck.isLoading || guestCheck.isUninitialized) return <Loading />;
    const lock = guestCheck.isError ? guestLock(guestCheck.error) : null;
    if (lock) return <LockScreen reason={lock} guest />;
    return <GuestJoin onJoin={setGuestName} loginGoto={url} boardTitle={guestCheck.data?.title} />;
  }
  if (!client) return <Loading />;
  return (
    <BoardSession
      key={boardId}
      boardId={boardId}
      client={client}
      name={name!}
      guest={!user}
      style={initialStyles(user ? settings : null)}
      settings={settings}
      plan={plan}
    />
  );
}

function LoadFailed() {
  const { t } = useTranslation('board');
  return (
    <main id="main" className="board-lock">
      <h1>{t('lock.errorTitle')}</h1>
      <p>{t('loadFailed')}</p>
      <button type="button" className="primary" onClick={() => window.location.reload()}>
        {t('lock.reload')}
      </button>
    </main>
  );
}

/** Guests join by link with a display name (≤ 60 characters, SPEC L3). */
function GuestJoin({
  onJoin,
  loginGoto,
  boardTitle,
}: {
  onJoin: (name: string) => void;
  loginGoto: string;
  boardTitle: string | undefined;
}) {
  const { t } = useTranslation('board');
  const [name, setName] = useState(storedGuestName);
  const [error, setError] = useState<string | null>(null);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const value = name.trim();
    if (!value) return setError(t('guest.required'));
    if (value.length > RT_LIMITS.maxNameLength) return setError(t('guest.tooLong', { max: RT_LIMITS.maxNameLength }));
    try {
      localStorage.setItem(GUEST_NAME_KEY, value);
    } catch {
      // private mode: the name is asked again next time
    }
    onJoin(value);
  };
  return (
    <main id="main" className="board-lock">
      <form className="guest-join" onSubmit={submit} noValidate>
        <h1>{t('guest.title')}</h1>
        {boardTitle ? <p className="guest-board-title">{boardTitle}</p> : null}
        <p>{t('guest.text')}</p>
        <label htmlFor="guest-name">{t('guest.name')}</label>
        <input
          id="guest-name"
          value={name}
          maxLength={RT_LIMITS.maxNameLength}
          autoComplete="nickname"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'guest-name-error' : undefined}
          onChange={(e) => {
            setName(e.target.value);
            setError(null);
          }}
          // the page is this one-field form, opened to type a name: its field takes the focus
          // eslint-disable-next-line jsx-a11y/no-autofocus
          autoFocus
        />
        {error ? (
          <p id="guest-name-error" className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="primary">
          {t('guest.join')}
        </button>
        <LocalLink to={`/login?goto=${encodeURIComponent(loginGoto)}`}>{t('guest.login')}</LocalLink>
      </form>
    </main>
  );
}
