/**
 * Settings → subscription, subscription/upgrade, subscription/update and subscription/invoices
 * (spec §2, §3 Subscription/Billing form/Invoice, §4 Subscription states, §5, §9).
 */
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router-dom';
import {
  CANCEL_SUBSCRIPTION_CONFIRMATION_PHRASE,
  COUNTRY_CODES,
  MAX_SEATS,
  PAID_PLAN_NAMES,
  PLANS,
  TRIAL_DAYS,
  eurosToCents,
  formatEur,
  subscriptionState,
  trialWithPaymentMethod,
  type BillingFormInput,
  type BillingPeriod,
  type PaidPlanName,
  type Subscription,
} from '@wb/proto';
import { LocalLink, LocalNavLink, useLocalPath } from '../../app/prefix';
import { useAppDispatch } from '../../app/store';
import { formErrorText } from '../../app/apiClient';
import { Loading, EmptyState } from '../../ui/EmptyState';
import { Field } from '../../ui/Field';
import { FormError } from '../../ui/FormError';
import { notify } from '../../ui/toastsSlice';
import { useCodeText } from '../../ui/useCodeText';
import { useSession } from '../session/useSession';
import {
  useCancelSubscriptionMutation,
  useChangeSubscriptionMutation,
  useGetBusinessDetailsQuery,
  useGetBusinessInfoQuery,
  useGetInvoicesQuery,
  useGetSubscriptionQuery,
  useGetCollaborationUsageQuery,
  useGetFreeTrialQuery,
  useStartTrialMutation,
  useSubscribeMutation,
} from './billingApi';
import {
  billingFormErrors,
  daysLeft,
  formatDate,
  isTeamPlan,
  memberOfOthersTeam,
  phraseMatches,
  quote,
  type BillingField,
} from './billingLogic';
import { PaymentMethod } from './PaymentMethod';
import { PeriodSwitch } from './PeriodSwitch';
import './billing.css';
import { Button, buttonClass } from '../../ui/kit/Button';
import { Checkbox } from '../../ui/kit/Checkbox';
import { Table } from '../../ui/kit/Table';

/** −€12.40 for a refund, €1116.00 for a payment */
const eur = (cents: number) => `${cents < 0 ? '−' : ''}€${formatEur(Math.abs(cents))}`;

/** Subscription pages are the owner's: a member of someone else's team is sent to Team. */
function OwnerOnly({ children }: { children: ReactNode }) {
  const lp = useLocalPath();
  const info = useGetBusinessInfoQuery();
  if (info.isLoading) return <Loading />;
  if (memberOfOthersTeam(info.data)) return <Navigate to={lp('/settings/team')} replace />;
  return <>{children}</>;
}

function SubNav() {
  const { t } = useTranslation('billing');
  return (
    <nav className="sub-nav" aria-label={t('sub.navLabel')}>
      <LocalNavLink to="/settings/subscription" end>
        {t('sub.overview')}
      </LocalNavLink>
      <LocalNavLink to="/settings/subscription/upgrade">{t('sub.upgrade')}</LocalNavLink>
      <LocalNavLink to="/settings/subscription/update">{t('sub.update')}</LocalNavLink>
      <LocalNavLink to="/settings/subscription/invoices">{t('sub.invoices')}</LocalNavLink>
    </nav>
  );
}

/** The state line of spec §4 for a subscription. */

/** The billing form's text inputs in order (the country select sits after the company). */
interface BillingInput {
  name: Exclude<BillingField, 'country_code'>;
  autoComplete?: string;
  type?: string;
  hint?: string;
}
const BILLING_INPUTS: readonly BillingInput[] = [
  { name: 'first_name', autoComplete: 'given-name' },
  { name: 'last_name', autoComplete: 'family-name' },
  { name: 'email', type: 'email', autoComplete: 'email' },
  { name: 'company', autoComplete: 'organization' },
  { name: 'vat_nr', hint: 'form.vatHint' },
  { name: 'city_region', autoComplete: 'address-level2' },
  { name: 'postal_code', autoComplete: 'postal-code' },
  { name: 'street_address', autoComplete: 'address-line1' },
  { name: 'extended_address', autoComplete: 'address-line2' },
];
const COUNTRY_AT = 4;

export function StateText({ sub, now }: { sub: Subscription | null | undefined; now: Date }) {
  const { t, i18n } = useTranslation('billing');
  const state = subscriptionState(sub, now);
  switch (state) {
    case 'trial':
      // a trial with a card added is one state: it runs until the first charge (issue 26 #11)
      return trialWithPaymentMethod(sub, now) ? (
        <p className="sub-state state-trial" data-state="trialWithCard">
          {t('state.trialWithCard', {
            date: formatDate(sub!.first_billing_date, i18n.language),
            amount: eur(sub!.next_billing_amount),
          })}
        </p>
      ) : (
        <p className="sub-state state-trial" data-state="trial">
          {t('state.trial', { count: daysLeft(sub!.first_billing_date, now) })}
        </p>
      );
    case 'trialExpired':
      return <p className="sub-state state-warn">{t('state.trialExpired')}</p>;
    case 'pastDue':
      return (
        <p className="sub-state state-warn">
          {t('state.pastDue')} <LocalLink to="/settings/subscription/update">{t('state.addPayment')}</LocalLink>
        </p>
      );
    case 'cancelled':
      return (
        <p className="sub-state state-warn">
          {t('state.cancelled', { date: formatDate(sub!.expires, i18n.language) })}
        </p>
      );
    case 'active':
      return <p className="sub-state state-ok">{t('state.active')}</p>;
    default:
      return <p className="sub-state">{t('state.none')}</p>;
  }
}

export function SubscriptionOverview() {
  return (
    <OwnerOnly>
      <Overview />
    </OwnerOnly>
  );
}

/** spec §4/§9: the owner's weekly collaboration minutes, from the counter that locks their boards */
function MinutesLine() {
  const { t } = useTranslation('billing');
  const usage = useGetCollaborationUsageQuery();
  if (!usage.data) return null;
  const minutes = (ms: number) => Math.floor(ms / 60_000);
  return (
    <p className="sub-minutes" data-collaboration-minutes>
      {t('sub.minutesThisWeek', { used: minutes(usage.data.usedMs), limit: minutes(usage.data.limitMs) })}
    </p>
  );
}

function Overview() {
  const { t, i18n } = useTranslation('billing');
  const { t: tc } = useTranslation();
  const { plan } = useSession();
  const sub = useGetSubscriptionQuery();
  const s = sub.data ?? null;
  const now = new Date();
  const state = subscriptionState(s, now);
  const offer = state === 'none' || state === 'trialExpired';
  // spec §2: try for free when a trial is available, upgrade now otherwise
  const trial = useGetFreeTrialQuery(undefined, { skip: sub.isLoading || !offer });
  if (sub.isLoading || (offer && trial.isLoading)) return <Loading />;
  const withCard = trialWithPaymentMethod(s, now);
  const firstCharge = s ? `${formatDate(s.first_billing_date, i18n.language)} · ${eur(s.next_billing_amount)}` : '';
  return (
    <div className="subscription">
      <SubNav />
      <div className="card sub-card">
        <p className="sub-plan">
          {t('sub.currentPlan')}{' '}
          <strong>{tc(`plans.${s && state !== 'none' && state !== 'trialExpired' ? s.plan : plan.name}`)}</strong>
        </p>
        <StateText sub={s} now={now} />
        <MinutesLine />
        {s && state !== 'none' ? (
          <dl className="sub-details">
            <dt>{t('sub.period')}</dt>
            <dd>{t(`period.${s.billing_period}`)}</dd>
            <dt>{t('sub.seats')}</dt>
            <dd>{s.seats}</dd>
            {state === 'trial' ? (
              <>
                <dt>{t('sub.trialEnds')}</dt>
                <dd data-testid="trial-ends">{formatDate(s.first_billing_date, i18n.language)}</dd>
                <dt>{t('sub.firstCharge')}</dt>
                <dd data-testid="first-charge">{withCard ? firstCharge : t('sub.noCard')}</dd>
              </>
            ) : state !== 'cancelled' && state !== 'trialExpired' ? (
              <>
                <dt>{t('sub.nextBilling')}</dt>
                <dd>
                  {formatDate(s.next_billing_date ?? s.first_billing_date, i18n.language)} ·{' '}
                  {eur(s.next_billing_amount)}
                </dd>
              </>
            ) : null}
          </dl>
        ) : null}
        <div className="actions">
          {offer ? (
            <LocalLink to="/settings/subscription/upgrade" className={buttonClass({ variant: 'primary' })}>
              {trial.data?.canHaveFreeTrial ? t('sub.tryFree', { days: TRIAL_DAYS }) : t('sub.upgradeNow')}
            </LocalLink>
          ) : state === 'trial' && !withCard ? (
            <LocalLink to="/settings/subscription/upgrade" className={buttonClass({ variant: 'primary' })}>
              {t('sub.addCard')}
            </LocalLink>
          ) : (
            <LocalLink to="/settings/subscription/update" className={buttonClass({ variant: 'primary' })}>
              {state === 'pastDue' ? t('state.addPayment') : t('sub.change')}
            </LocalLink>
          )}
          <LocalLink to="/settings/subscription/invoices" className={buttonClass()}>
            {t('sub.invoices')}
          </LocalLink>
        </div>
      </div>
    </div>
  );
}

const EMPTY_FORM: Required<{ [K in BillingField]: string }> = {
  first_name: '',
  last_name: '',
  email: '',
  company: '',
  vat_nr: '',
  country_code: '',
  city_region: '',
  postal_code: '',
  street_address: '',
  extended_address: '',
};

function PlanChoice({
  plan,
  setPlan,
  period,
  setPeriod,
  seats,
  setSeats,
  trial = false,
}: {
  plan: PaidPlanName;
  setPlan: (p: PaidPlanName) => void;
  period: BillingPeriod;
  setPeriod: (p: BillingPeriod) => void;
  seats: number;
  setSeats: (n: number) => void;
  /** a trial is for one person: no licences to choose */
  trial?: boolean;
}) {
  const { t } = useTranslation('billing');
  const { t: tc } = useTranslation();
  return (
    <>
      <PeriodSwitch value={period} onChange={setPeriod} />
      <fieldset className="choices plan-choices">
        <legend className="sr-only">{t('sub.plan')}</legend>
        {PAID_PLAN_NAMES.map((p) => (
          <label key={p} className={plan === p ? 'choice selected' : 'choice'}>
            <input type="radio" name="plan" value={p} checked={plan === p} onChange={() => setPlan(p)} />{' '}
            <strong>{tc(`plans.${p}`)}</strong>{' '}
            <span className="muted">
              {t('price.perSeatMonth', {
                price: formatEur(eurosToCents(PLANS[p].price[period]), { dropZeroCents: true }),
              })}
            </span>
          </label>
        ))}
      </fieldset>
      {isTeamPlan(plan) && !trial ? (
        <Field
          label={t('sub.seats')}
          name="seats"
          type="number"
          min={1}
          max={MAX_SEATS}
          value={String(seats)}
          hint={t('sub.seatsHint')}
          onChange={(v) => setSeats(Math.min(MAX_SEATS, Math.max(1, Math.floor(Number(v)) || 1)))}
        />
      ) : null}
    </>
  );
}

function Summary({
  plan,
  period,
  seats,
  country,
  vatNr,
  trialEnds,
}: {
  plan: PaidPlanName;
  period: BillingPeriod;
  seats: number;
  country: string;
  vatNr: string;
  /** during a card-less trial: nothing is charged now, the first charge is on this day */
  trialEnds?: string | null;
}) {
  const { t, i18n } = useTranslation('billing');
  const q = quote(plan, period, seats, country, vatNr);
  return (
    <dl className="sub-details summary" aria-live="polite">
      {trialEnds ? (
        <>
          <dt>{t('sum.today')}</dt>
          <dd data-testid="sum-today">{eur(0)}</dd>
        </>
      ) : null}
      <dt>{t('sum.net', { count: q.months })}</dt>
      <dd data-testid="sum-net">{eur(q.netCents)}</dd>
      <dt>{q.vatApplies ? t('sum.vat', { rate: q.vatRate }) : t('sum.noVat')}</dt>
      <dd data-testid="sum-vat">{eur(q.vatCents)}</dd>
      <dt data-testid="sum-total-label">
        {/* during a trial the total is the first charge, on the trial's last day */}
        <strong>
          {trialEnds ? t('sum.firstCharge', { date: formatDate(trialEnds, i18n.language) }) : t('sum.total')}
        </strong>
      </dt>
      <dd data-testid="sum-total">
        <strong>{eur(q.grossCents)}</strong>
      </dd>
    </dl>
  );
}

export function UpgradeSettings() {
  return (
    <OwnerOnly>
      <Upgrade />
    </OwnerOnly>
  );
}

function Upgrade() {
  const { t, i18n } = useTranslation('billing');
  const dispatch = useAppDispatch();
  const codeText = useCodeText();
  const navigate = useNavigate();
  const lp = useLocalPath();
  const { user } = useSession();
  const details = useGetBusinessDetailsQuery();
  const sub = useGetSubscriptionQuery();
  const [plan, setPlan] = useState<PaidPlanName>('standard');
  const [period, setPeriod] = useState<BillingPeriod>('yearly');
  const [seats, setSeats] = useState(1);
  const [form, setForm] = useState(EMPTY_FORM);
  const [promo, setPromo] = useState('');
  const [nonce, setNonce] = useState<string | undefined>();
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [subscribe, { isLoading }] = useSubscribeMutation();
  const onNonce = useCallback((n: string | undefined) => setNonce(n), []);
  const now = new Date();
  const state = subscriptionState(sub.data, now);
  const offer = state === 'none' || state === 'trialExpired';
  // during a card-less trial the checkout adds the card: nothing now, the first charge at the trial's end
  const cardLessTrial = state === 'trial';
  const trial = useGetFreeTrialQuery(undefined, { skip: sub.isLoading || !offer });
  // spec §2: with a trial available the upgrade page starts it (no card); "pay now" shows the checkout
  const [payNow, setPayNow] = useState(false);

  // prefill: the saved business details, else the user's name and address
  useEffect(() => {
    const d = details.data;
    const [first = '', ...rest] = (user?.name ?? '').split(' ');
    setForm((f) => ({
      ...f,
      first_name: f.first_name || d?.first_name || first,
      last_name: f.last_name || d?.last_name || rest.join(' '),
      email: f.email || d?.email || user?.email || '',
      company: f.company || d?.company || '',
      vat_nr: f.vat_nr || d?.vat_nr || '',
      country_code: f.country_code || d?.country_code || '',
      city_region: f.city_region || d?.city_region || '',
      postal_code: f.postal_code || d?.postal_code || '',
      street_address: f.street_address || d?.street_address || '',
      extended_address: f.extended_address || d?.extended_address || '',
    }));
  }, [details.data, user]);
  useEffect(() => {
    const s = sub.data;
    if (s && s.plan !== 'starter') {
      setPlan(s.plan);
      setPeriod(s.billing_period);
      setSeats(s.seats);
    }
  }, [sub.data]);

  const errors = billingFormErrors(form);
  const set = (k: BillingField) => (v: string) => setForm({ ...form, [k]: v });
  const fieldError = (k: BillingField) => (tried && errors[k] ? t(`form.error.${errors[k]}`) : undefined);
  const input = ({ name, autoComplete, type, hint }: BillingInput) => (
    <Field
      key={name}
      label={t(`form.${name}`)}
      name={name}
      type={type}
      value={form[name]}
      onChange={set(name)}
      error={fieldError(name)}
      autoComplete={autoComplete}
      hint={hint ? t(hint) : undefined}
    />
  );
  const submit = async () => {
    setTried(true);
    setError(undefined);
    if (Object.keys(errors).length > 0 || !nonce) return;
    const result = await subscribe({
      plan,
      billing_period: period,
      seats: isTeamPlan(plan) ? seats : 1,
      nonce,
      billing: { ...form, country_code: form.country_code.toUpperCase(), vat_nr: form.vat_nr || undefined },
      ...(promo.trim() ? { promo: promo.trim() } : {}),
    });
    if ('error' in result) {
      setError(formErrorText(result.error, codeText));
      return;
    }
    dispatch(notify({ type: 'info', message: t(cardLessTrial ? 'sub.cardAdded' : 'sub.subscribed') }));
    void navigate(lp('/settings/subscription'));
  };

  if (sub.isLoading || (offer && trial.isLoading)) return <Loading />;
  // a trial with a card added: nothing to buy, it becomes the subscription on its first charge
  if (trialWithPaymentMethod(sub.data, now)) {
    return (
      <div className="subscription">
        <SubNav />
        <div className="card sub-card">
          <StateText sub={sub.data} now={now} />
          <div className="actions">
            <LocalLink to="/settings/subscription/update" className={buttonClass({ variant: 'primary' })}>
              {t('sub.change')}
            </LocalLink>
          </div>
        </div>
      </div>
    );
  }
  if (offer && trial.data?.canHaveFreeTrial && !payNow) {
    return (
      <div className="subscription">
        <SubNav />
        <TrialOffer onPayNow={() => setPayNow(true)} />
      </div>
    );
  }
  const trialEnds = cardLessTrial ? (sub.data?.first_billing_date ?? null) : null;

  return (
    <div className="subscription">
      <SubNav />
      {cardLessTrial ? (
        <p className="sub-state state-trial" data-testid="trial-checkout-note">
          {t('sub.addCardText', { date: formatDate(trialEnds, i18n.language) })}
        </p>
      ) : null}
      <form
        className="upgrade-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <section className="card">
          <h2>{t('sub.choosePlan')}</h2>
          <PlanChoice
            plan={plan}
            setPlan={setPlan}
            period={period}
            setPeriod={setPeriod}
            seats={seats}
            setSeats={setSeats}
          />
        </section>
        <section className="card">
          <h2>{t('form.title')}</h2>
          <div className="form-grid">
            {BILLING_INPUTS.slice(0, COUNTRY_AT).map(input)}
            <CountrySelect
              value={form.country_code}
              onChange={set('country_code')}
              error={fieldError('country_code')}
            />
            {BILLING_INPUTS.slice(COUNTRY_AT).map(input)}
          </div>
          <Field label={t('form.promo')} name="promo" value={promo} onChange={setPromo} />
        </section>
        <section className="card">
          <h2>{t('card.title')}</h2>
          <PaymentMethod onNonce={onNonce} />
          <Summary
            plan={plan}
            period={period}
            seats={isTeamPlan(plan) ? seats : 1}
            country={form.country_code}
            vatNr={form.vat_nr}
            trialEnds={trialEnds}
          />
          {error ? <FormError message={error} /> : null}
          {tried && Object.keys(errors).length > 0 ? <FormError message={t('form.fix')} /> : null}
          <Button type="submit" variant="primary" disabled={isLoading || !nonce}>
            {isLoading ? t('sub.paying') : t(cardLessTrial ? 'sub.addCardSubmit' : 'sub.subscribe')}
          </Button>
        </section>
      </form>
    </div>
  );
}

/**
 * The free trial from the subscription pages (spec §2, §5 terms first, §9 7 days): the same
 * POST /api/billing/trial as onboarding's trial step, for a person who skipped it there.
 */
function TrialOffer({ onPayNow }: { onPayNow: () => void }) {
  const { t } = useTranslation('billing');
  const dispatch = useAppDispatch();
  const codeText = useCodeText();
  const navigate = useNavigate();
  const lp = useLocalPath();
  const [plan, setPlan] = useState<PaidPlanName>('standard');
  const [period, setPeriod] = useState<BillingPeriod>('yearly');
  const [terms, setTerms] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [start, { isLoading }] = useStartTrialMutation();
  const submit = async () => {
    setError(undefined);
    const result = await start({ plan, billing_period: period, terms });
    if ('error' in result) {
      setError(formErrorText(result.error, codeText));
      return;
    }
    dispatch(notify({ type: 'info', message: t('sub.trialStarted') }));
    void navigate(lp('/settings/subscription'));
  };
  return (
    <form
      className="card trial-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (terms) void submit();
      }}
    >
      <h2>{t('onboarding.trialTitle', { days: TRIAL_DAYS })}</h2>
      <p>{t('onboarding.trialOffer', { days: TRIAL_DAYS })}</p>
      <PlanChoice
        plan={plan}
        setPlan={setPlan}
        period={period}
        setPeriod={setPeriod}
        seats={1}
        setSeats={() => {}}
        trial
      />
      <Checkbox
        className="terms-check"
        checked={terms}
        onChange={setTerms}
        label={
          <span>
            {t('onboarding.terms')}{' '}
            <LocalLink to="/terms" target="_blank">
              {t('onboarding.termsLink')}
            </LocalLink>
          </span>
        }
      />
      {error ? <FormError message={error} /> : null}
      <div className="actions">
        <Button type="submit" variant="primary" loading={isLoading} disabled={!terms}>
          {t('onboarding.startTrial')}
        </Button>
        <Button variant="ghost" onClick={onPayNow}>
          {t('sub.payNowInstead')}
        </Button>
      </div>
    </form>
  );
}

function CountrySelect({ value, onChange, error }: { value: string; onChange: (v: string) => void; error?: string }) {
  const { t, i18n } = useTranslation('billing');
  const names = (() => {
    try {
      return new Intl.DisplayNames([i18n.language], { type: 'region' });
    } catch {
      return undefined;
    }
  })();
  const options = COUNTRY_CODES.map((c) => ({ code: c, name: names?.of(c) ?? c })).sort((a, b) =>
    a.name.localeCompare(b.name, i18n.language),
  );
  return (
    <div className="field">
      <label htmlFor="billing-country">{t('form.country_code')}</label>
      <select
        id="billing-country"
        name="country_code"
        value={value}
        aria-invalid={error ? true : undefined}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">{t('form.chooseCountry')}</option>
        {options.map((o) => (
          <option key={o.code} value={o.code}>
            {o.name}
          </option>
        ))}
      </select>
      {error ? <small className="field-error">{error}</small> : null}
    </div>
  );
}

export function UpdateSettings() {
  return (
    <OwnerOnly>
      <Update />
    </OwnerOnly>
  );
}

function Update() {
  const { t } = useTranslation('billing');
  const dispatch = useAppDispatch();
  const codeText = useCodeText();
  const sub = useGetSubscriptionQuery();
  const [plan, setPlan] = useState<PaidPlanName>('standard');
  const [period, setPeriod] = useState<BillingPeriod>('yearly');
  const [seats, setSeats] = useState(1);
  const [nonce, setNonce] = useState<string | undefined>();
  const [showCard, setShowCard] = useState(false);
  const [phrase, setPhrase] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [change, changing] = useChangeSubscriptionMutation();
  const [cancel, cancelling] = useCancelSubscriptionMutation();
  const onNonce = useCallback((n: string | undefined) => setNonce(n), []);
  useEffect(() => {
    const s = sub.data;
    if (s && s.plan !== 'starter') {
      setPlan(s.plan);
      setPeriod(s.billing_period);
      setSeats(s.seats);
    }
  }, [sub.data]);
  if (sub.isLoading) return <Loading />;
  const s = sub.data;
  const now = new Date();
  const state = subscriptionState(s, now);
  if (!s || state === 'none' || state === 'trialExpired') {
    return (
      <div className="subscription">
        <SubNav />
        <EmptyState title={t('sub.noSubscription')}>
          <LocalLink to="/settings/subscription/upgrade" className={buttonClass({ variant: 'primary' })}>
            {t('sub.upgradeNow')}
          </LocalLink>
        </EmptyState>
      </div>
    );
  }
  const done = (message: string) => dispatch(notify({ type: 'info', message }));
  const saveChange = async () => {
    setError(undefined);
    const body = {
      ...(plan !== s.plan ? { plan } : {}),
      ...(period !== s.billing_period ? { billing_period: period } : {}),
      ...(isTeamPlan(plan) && seats !== s.seats ? { seats } : {}),
    };
    if (Object.keys(body).length === 0) return;
    const result = await change(body);
    if ('error' in result) setError(formErrorText(result.error, codeText));
    else done(t('sub.changed'));
  };
  const saveCard = async () => {
    if (!nonce) return;
    setError(undefined);
    const result = await change({ nonce });
    if ('error' in result) setError(formErrorText(result.error, codeText));
    else {
      setShowCard(false);
      done(t('sub.cardSaved'));
    }
  };
  const doCancel = async () => {
    setError(undefined);
    const result = await cancel({ confirmation: phrase.trim() });
    if ('error' in result) setError(formErrorText(result.error, codeText));
    else {
      setPhrase('');
      done(t('sub.cancelledToast'));
    }
  };
  return (
    <div className="subscription">
      <SubNav />
      <StateText sub={s} now={now} />
      {error ? <FormError message={error} /> : null}
      <section className="card">
        <h2>{t('sub.changeTitle')}</h2>
        <p className="muted">{t('sub.changeText')}</p>
        <PlanChoice
          plan={plan}
          setPlan={setPlan}
          period={period}
          setPeriod={setPeriod}
          seats={seats}
          setSeats={setSeats}
        />
        <Button variant="primary" onClick={() => void saveChange()} disabled={changing.isLoading}>
          {t('sub.saveChange')}
        </Button>
      </section>
      <section className="card">
        <h2>{t('card.title')}</h2>
        {showCard || state === 'pastDue' ? (
          <>
            {state === 'pastDue' ? <p>{t('state.pastDue')}</p> : null}
            <PaymentMethod onNonce={onNonce} />
            <Button variant="primary" onClick={() => void saveCard()} disabled={!nonce || changing.isLoading}>
              {t('card.save')}
            </Button>
          </>
        ) : (
          <Button onClick={() => setShowCard(true)}>{t('card.replace')}</Button>
        )}
      </section>
      {state !== 'cancelled' ? (
        <section className="card danger-zone">
          <h2>{t('cancel.title')}</h2>
          <p>{t('cancel.text')}</p>
          <Field
            label={t('cancel.type', { phrase: CANCEL_SUBSCRIPTION_CONFIRMATION_PHRASE })}
            name="confirmation"
            value={phrase}
            onChange={setPhrase}
            autoComplete="off"
          />
          <Button
            variant="danger"
            disabled={!phraseMatches(phrase, CANCEL_SUBSCRIPTION_CONFIRMATION_PHRASE) || cancelling.isLoading}
            onClick={() => void doCancel()}
          >
            {t('cancel.button')}
          </Button>
        </section>
      ) : null}
    </div>
  );
}

export function InvoicesSettings() {
  return (
    <OwnerOnly>
      <Invoices />
    </OwnerOnly>
  );
}

function Invoices() {
  const { t, i18n } = useTranslation('billing');
  const invoices = useGetInvoicesQuery();
  if (invoices.isLoading) return <Loading />;
  const list = invoices.data ?? [];
  return (
    <div className="subscription">
      <SubNav />
      {invoices.isError ? <FormError message={t('invoices.error')} /> : null}
      {list.length === 0 ? (
        <EmptyState title={t('invoices.none')} />
      ) : (
        <Table
          caption={t('sub.invoices')}
          captionHidden
          rows={list}
          rowKey={(inv) => inv.id}
          columns={[
            {
              key: 'date',
              header: t('invoices.date'),
              sortValue: (inv) => inv.date,
              cell: (inv) => formatDate(inv.date, i18n.language),
            },
            { key: 'type', header: t('invoices.type'), cell: (inv) => t(`invoices.types.${inv.type}`) },
            { key: 'status', header: t('invoices.status'), cell: (inv) => t(`invoices.statuses.${inv.status}`) },
            {
              key: 'amount',
              header: t('invoices.amount'),
              align: 'end',
              sortValue: (inv) => inv.amount,
              cell: (inv) => eur(inv.amount),
            },
            {
              key: 'pdf',
              header: <span className="sr-only">{t('invoices.pdf')}</span>,
              cell: (inv) => (
                <a href={`/api/billing/invoices/${encodeURIComponent(inv.id)}.pdf`} target="_blank" rel="noreferrer">
                  {t('invoices.pdf')}
                </a>
              ),
            },
          ]}
        />
      )}
    </div>
  );
}

export type { BillingFormInput };
