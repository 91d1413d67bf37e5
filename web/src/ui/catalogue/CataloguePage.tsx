/**
 * The UI kit's living catalogue (`/_ui`, development and test builds only): every component in
 * every state, in the app's theme or light and dark side by side. The Chromium test
 * (e2e/uiCatalogue.e2e.spec.ts) screenshots it, so a change in look shows up in review.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useNamespace } from '../../i18n/useNamespace';
import { Loading } from '../EmptyState';
import { ToastView } from '../Toasts';
import { Avatar } from '../kit/Avatar';
import { Badge, type BadgeTone } from '../kit/Badge';
import { Button, ButtonLink, IconButton, type ButtonSize, type ButtonVariant } from '../kit/Button';
import { Checkbox } from '../kit/Checkbox';
import { EmptyState } from '../kit/EmptyState';
import { Icon, type IconName } from '../kit/Icon';
import { Skeleton } from '../kit/Skeleton';
import { Switch } from '../kit/Switch';
import { Table, type Column } from '../kit/Table';
import { TextField } from '../kit/TextField';
import { OverlaysSection } from './OverlaysSection';
import { Section } from './Section';
import './catalogue.css';

const VARIANTS: ButtonVariant[] = ['primary', 'secondary', 'danger', 'ghost'];
const SIZES: ButtonSize[] = ['sm', 'md', 'lg'];
const TONES: BadgeTone[] = ['neutral', 'info', 'success', 'warning', 'danger'];
const ICON_NAMES: IconName[] = ['menu', 'share', 'rename', 'move', 'trash', 'restore', 'close', 'leave'];
/** people's names are not translated */
const PEOPLE = [
  'Ada Lovelace',
  'Alan Turing',
  'Grace Hopper',
  'Emmy Noether',
  'Katherine Johnson',
  'Sofia Kovalevskaya',
];

interface Submission {
  id: number;
  student: string;
  tone: BadgeTone;
  score: number;
  submitted: number;
}
const DAY = 86_400_000;
const START = Date.UTC(2025, 2, 3, 9, 30);
const SUBMISSIONS: Submission[] = PEOPLE.map((student, i) => ({
  id: i + 1,
  student,
  tone: TONES[(i * 3) % TONES.length]!,
  score: [92, 78, 92, 64, 85, 71][i]!,
  submitted: START + ((i * 5) % 6) * DAY,
}));

export function CataloguePage() {
  const { t } = useTranslation('catalogue');
  const ready = useNamespace('catalogue');
  const [params, setParams] = useSearchParams();
  const both = params.has('both');
  if (!ready) return <Loading />;
  return (
    <section className="page catalogue">
      <h1>{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      <Switch
        label={t('sideBySide')}
        checked={both}
        onChange={(on) => setParams(on ? { both: '' } : {}, { replace: true })}
      />
      {both ? (
        <div className="catalogue-panes">
          <Pane theme="light" />
          <Pane theme="dark" />
        </div>
      ) : (
        <Pane />
      )}
    </section>
  );
}

/** The whole catalogue once; with `theme` in that theme whatever the app's. */
function Pane({ theme }: { theme?: 'light' | 'dark' }) {
  const { t } = useTranslation('catalogue');
  return (
    <div className="catalogue-pane" data-theme={theme}>
      {theme ? <h2 className="catalogue-theme">{t(theme)}</h2> : null}
      <Buttons />
      <Fields />
      <Section title={t('sections.badges')}>
        <div className="catalogue-row">
          {TONES.map((tone) => (
            <Badge key={tone} tone={tone}>
              {t(`badges.${tone}`)}
            </Badge>
          ))}
        </div>
      </Section>
      <Section title={t('sections.avatars')}>
        <div className="catalogue-row">
          {PEOPLE.map((name, i) => (
            <Avatar key={name} name={name} userId={i + 1} label />
          ))}
          <Avatar name={PEOPLE[0]!} userId={1} size="sm" label />
          <Avatar name={PEOPLE[1]!} userId={2} size="lg" label />
          <Avatar name={PEOPLE[2]!} src="/favicon.svg" size="lg" label />
        </div>
      </Section>
      <Section title={t('sections.icons')}>
        <div className="catalogue-row">
          {ICON_NAMES.map((name) => (
            <span key={name} className="catalogue-icon">
              <Icon name={name} size={20} />
              <code>{name}</code>
            </span>
          ))}
        </div>
      </Section>
      <Section title={t('sections.skeleton')}>
        <div className="catalogue-grid">
          <Skeleton lines={3} />
          <Skeleton shape="block" />
          <div className="catalogue-row">
            <Skeleton shape="circle" />
            <Skeleton width="10rem" />
          </div>
        </div>
      </Section>
      <Section title={t('sections.empty')}>
        <EmptyState title={t('empty.title')}>
          <p className="muted">{t('empty.body')}</p>
          <Button variant="primary">{t('empty.action')}</Button>
        </EmptyState>
      </Section>
      <Tables />
      <Section title={t('sections.toasts')}>
        <div className="catalogue-stack">
          <ToastView type="info" text={t('toasts.info')} onDismiss={() => undefined} />
          <ToastView type="warning" text={t('toasts.warning')} onDismiss={() => undefined} />
          <ToastView type="error" text={t('toasts.error')} onDismiss={() => undefined} />
        </div>
      </Section>
      <OverlaysSection />
    </div>
  );
}

function Buttons() {
  const { t } = useTranslation('catalogue');
  return (
    <Section title={t('sections.buttons')}>
      <div className="catalogue-grid catalogue-buttons">
        {VARIANTS.map((variant) => (
          <div key={variant} className="catalogue-row">
            <Button variant={variant}>{t(`buttons.${variant}`)}</Button>
            <Button variant={variant} disabled>
              {t('buttons.disabled')}
            </Button>
            <Button variant={variant} loading>
              {t('buttons.loading')}
            </Button>
          </div>
        ))}
        <div className="catalogue-row">
          {SIZES.map((size) => (
            <Button key={size} variant="primary" size={size}>
              {t(`buttons.${size}`)}
            </Button>
          ))}
        </div>
        <div className="catalogue-row">
          {SIZES.map((size) => (
            <IconButton key={size} size={size} label={t('buttons.share')} icon={<Icon name="share" />} />
          ))}
          <IconButton label={t('buttons.rename')} icon={<Icon name="rename" />} variant="secondary" />
          <IconButton label={t('buttons.danger')} icon={<Icon name="trash" />} variant="danger" />
          <IconButton label={t('buttons.share')} icon={<Icon name="share" />} disabled />
          <ButtonLink href="#buttons" variant="secondary">
            {t('buttons.link')}
          </ButtonLink>
        </div>
      </div>
    </Section>
  );
}

function Fields() {
  const { t } = useTranslation('catalogue');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('ada@');
  const [notes, setNotes] = useState('');
  const [notify, setNotify] = useState(true);
  const [digest, setDigest] = useState(false);
  const [grid, setGrid] = useState(true);
  const [snap, setSnap] = useState(false);
  return (
    <Section title={t('sections.fields')}>
      <div className="catalogue-grid catalogue-fields">
        <TextField label={t('fields.name')} hint={t('fields.nameHint')} value={name} onChange={setName} />
        <TextField
          label={t('fields.email')}
          type="email"
          value={email}
          onChange={setEmail}
          error={t('fields.emailError')}
        />
        <TextField label={t('fields.locked')} value={PEOPLE[0]!} onChange={() => undefined} disabled />
        <TextField label={t('fields.notes')} multiline rows={3} value={notes} onChange={setNotes} />
        <div className="catalogue-stack">
          <Checkbox label={t('fields.notify')} hint={t('fields.notifyHint')} checked={notify} onChange={setNotify} />
          <Checkbox label={t('fields.digest')} checked={digest} onChange={setDigest} />
          <Checkbox label={t('fields.required')} checked disabled />
        </div>
        <div className="catalogue-stack">
          <Switch label={t('fields.grid')} checked={grid} onChange={setGrid} />
          <Switch label={t('fields.snap')} checked={snap} onChange={setSnap} />
          <Switch label={t('fields.locked')} checked={false} onChange={() => undefined} disabled />
        </div>
      </div>
    </Section>
  );
}

function Tables() {
  const { t, i18n } = useTranslation('catalogue');
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' });
  const columns: Column<Submission>[] = [
    {
      key: 'student',
      header: t('table.student'),
      sortValue: (s) => s.student,
      cell: (s) => (
        <span className="catalogue-person">
          <Avatar name={s.student} userId={s.id} size="sm" />
          {s.student}
        </span>
      ),
    },
    { key: 'status', header: t('table.status'), cell: (s) => <Badge tone={s.tone}>{t(`badges.${s.tone}`)}</Badge> },
    { key: 'score', header: t('table.score'), align: 'end', sortValue: (s) => s.score, cell: (s) => s.score },
    {
      key: 'submitted',
      header: t('table.submitted'),
      align: 'end',
      sortValue: (s) => s.submitted,
      cell: (s) => date.format(s.submitted),
    },
  ];
  return (
    <Section title={t('sections.table')}>
      <div className="catalogue-stack">
        <Table
          caption={t('table.caption')}
          columns={columns}
          rows={SUBMISSIONS}
          rowKey={(s) => s.id}
          initialSort={{ key: 'score', direction: 'descending' }}
          onRowClick={() => undefined}
          maxHeight="16rem"
        />
        <Table
          caption={t('table.emptyCaption')}
          columns={columns}
          rows={[]}
          rowKey={(s) => s.id}
          empty={t('empty.title')}
        />
      </div>
    </Section>
  );
}
