/** The plan and trial steps of role onboarding (spec §2 setup, §5 terms before a trial). */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  PAID_PLAN_NAMES,
  PLANS,
  TRIAL_DAYS,
  eurosToCents,
  formatEur,
  type BillingPeriod,
  type PaidPlanName,
} from '@wb/proto';
import { LocalLink } from '../../app/prefix';
import { useAppDispatch } from '../../app/store';
import { useNamespace } from '../../i18n/useNamespace';
import { Loading } from '../../ui/EmptyState';
import { reportError } from '../../ui/reportError';
import { useCodeText } from '../../ui/useCodeText';
import { useGetFreeTrialQuery, useStartTrialMutation } from './billingApi';
import { PeriodSwitch } from './PeriodSwitch';
import './billing.css';
import { Button, buttonClass } from '../../ui/kit/Button';
import { Checkbox } from '../../ui/kit/Checkbox';

export function PlanStep({
  onBack,
  onStarter,
  onTrial,
}: {
  onBack: () => void;
  onStarter: () => void;
  onTrial: () => void;
}) {
  const { t } = useTranslation();
  const { t: tb } = useTranslation('billing');
  const ready = useNamespace('billing');
  const trial = useGetFreeTrialQuery();
  if (!ready || trial.isLoading) return <Loading />;
  const canTry = trial.data?.canHaveFreeTrial === true;
  return (
    <div>
      <h1 id="setup-title">{t('setup.planTitle')}</h1>
      <p>{t('setup.planText')}</p>
      {canTry ? <p className="trial-offer">{tb('onboarding.trialOffer', { days: TRIAL_DAYS })}</p> : null}
      <div className="actions">
        <Button onClick={onBack}>{t('app.back')}</Button>
        {canTry ? (
          <Button onClick={onTrial}>{tb('onboarding.tryPaid', { days: TRIAL_DAYS })}</Button>
        ) : (
          <LocalLink to="/settings/subscription/upgrade" className={buttonClass()}>
            {t('setup.seePlans')}
          </LocalLink>
        )}
        <Button variant="primary" onClick={onStarter}>
          {t('setup.starterChoice')}
        </Button>
      </div>
    </div>
  );
}

export function TrialStep({ onBack, onStarted }: { onBack: () => void; onStarted: () => void }) {
  const { t } = useTranslation();
  const { t: tb } = useTranslation('billing');
  const ready = useNamespace('billing');
  const dispatch = useAppDispatch();
  const codeText = useCodeText();
  const [plan, setPlan] = useState<PaidPlanName>('standard');
  const [period, setPeriod] = useState<BillingPeriod>('yearly');
  const [terms, setTerms] = useState(false);
  const [start, { isLoading }] = useStartTrialMutation();
  const submit = async () => {
    const result = await start({ plan, billing_period: period, terms });
    if ('error' in result) reportError(dispatch, result.error, codeText);
    else onStarted();
  };
  if (!ready) return <Loading />;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (terms) void submit();
      }}
    >
      <fieldset>
        <legend>
          <h1 id="setup-title">{tb('onboarding.trialTitle', { days: TRIAL_DAYS })}</h1>
        </legend>
        <p>{tb('onboarding.trialText', { days: TRIAL_DAYS })}</p>
        <PeriodSwitch value={period} onChange={setPeriod} />
        <div className="choices plan-choices">
          {PAID_PLAN_NAMES.map((p) => (
            <label key={p} className={plan === p ? 'choice selected' : 'choice'}>
              <input type="radio" name="plan" value={p} checked={plan === p} onChange={() => setPlan(p)} />{' '}
              <strong>{t(`plans.${p}`)}</strong>{' '}
              <span className="muted">
                {tb('price.perSeatMonth', {
                  price: formatEur(eurosToCents(PLANS[p].price[period]), { dropZeroCents: true }),
                })}
              </span>
            </label>
          ))}
        </div>
        <Checkbox
          className="terms-check"
          checked={terms}
          onChange={setTerms}
          label={
            <span>
              {tb('onboarding.terms')}{' '}
              <LocalLink to="/terms" target="_blank">
                {tb('onboarding.termsLink')}
              </LocalLink>
            </span>
          }
        />
      </fieldset>
      <div className="actions">
        <Button onClick={onBack}>{t('app.back')}</Button>
        <Button type="submit" variant="primary" loading={isLoading} disabled={!terms}>
          {tb('onboarding.startTrial')}
        </Button>
      </div>
    </form>
  );
}
