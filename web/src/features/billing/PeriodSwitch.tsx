import { useTranslation } from 'react-i18next';
import { BILLING_PERIODS, type BillingPeriod } from '@wb/proto';

/** Monthly / yearly as a radio group styled as a segmented switch. */
export function PeriodSwitch({ value, onChange }: { value: BillingPeriod; onChange: (p: BillingPeriod) => void }) {
  const { t } = useTranslation('billing');
  return (
    <fieldset className="period-switch">
      <legend className="sr-only">{t('period.legend')}</legend>
      {BILLING_PERIODS.map((p) => (
        <label key={p} className={value === p ? 'selected' : undefined}>
          <input type="radio" name="period" value={p} checked={value === p} onChange={() => onChange(p)} />
          {t(`period.${p}`)}
          {p === 'yearly' ? <span className="save-badge">{t('period.save')}</span> : null}
        </label>
      ))}
    </fieldset>
  );
}
