/** Pricing (spec §2 marketing, §9 plan table): four plans, per-seat prices, monthly/yearly switch. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FEATURE_NAMES, PLAN_NAMES, PLANS, eurosToCents, formatEur, type BillingPeriod } from '@wb/proto';
import { LocalLink } from '../../app/prefix';
import { Loading, Page } from '../../ui/EmptyState';
import { useNamespace } from '../../i18n/useNamespace';
import { PeriodSwitch } from './PeriodSwitch';
import './billing.css';
import { buttonClass } from '../../ui/kit/Button';

export function PricingPage() {
  const { t } = useTranslation('billing');
  const { t: tc } = useTranslation();
  const ready = useNamespace('billing');
  const [period, setPeriod] = useState<BillingPeriod>('yearly');
  if (!ready) return <Loading />;
  return (
    <Page title={tc('title.pricing')} wide>
      <p className="lead">{t('pricing.lead')}</p>
      <PeriodSwitch value={period} onChange={setPeriod} />
      <div className="plans pricing-plans">
        {PLAN_NAMES.map((name) => {
          const plan = PLANS[name];
          const cents = eurosToCents(plan.price[period]);
          return (
            <article key={name} className={name === 'premium' ? 'card plan featured' : 'card plan'}>
              <h2>{tc(`plans.${name}`)}</h2>
              <p className="price" data-testid={`price-${name}`}>
                <span className="amount">€{formatEur(cents, { dropZeroCents: true })}</span>{' '}
                <span className="muted">{t('pricing.perSeatMonth')}</span>
              </p>
              <p className="muted">
                {name === 'starter'
                  ? t('pricing.free')
                  : t(period === 'yearly' ? 'pricing.billedYearly' : 'pricing.billedMonthly')}
              </p>
              <ul className="plan-limits">
                <li>{t('pricing.boards', { count: plan.limits.maxBoards })}</li>
                <li>{t('pricing.storage', { size: formatBytes(plan.limits.maxData) })}</li>
                <li>{t('pricing.minutes', { count: plan.limits.maxCollaborationMinutesPerWeek })}</li>
              </ul>
              <ul className="plan-features">
                {FEATURE_NAMES.map((f) =>
                  plan.features[f] ? (
                    <li key={f} className="yes">
                      {t(`features.${f}`)}
                    </li>
                  ) : null,
                )}
              </ul>
              <LocalLink
                to="/signup"
                className={buttonClass({ variant: name === 'premium' ? 'primary' : 'secondary' })}
              >
                {name === 'starter' ? t('pricing.startFree') : t('pricing.tryFree')}
              </LocalLink>
            </article>
          );
        })}
      </div>
      <p className="muted">{t('pricing.vatNote')}</p>
    </Page>
  );
}

/** 1024-based units (spec §9), whole numbers. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${Math.round(v * 10) / 10} ${units[i]}`;
}
