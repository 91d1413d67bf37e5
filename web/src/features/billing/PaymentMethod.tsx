/**
 * The card part of the billing forms. GET /api/billing/client-token tells which payment
 * environment the billing service talks to (the token is base64 JSON with `environment`):
 * - "fake" (the local fake gateway of development and tests): a clearly marked TEST MODE form
 *   whose choices yield Braintree's test nonces;
 * - "sandbox" / "production": Braintree Drop-in belongs here. It is loaded from Braintree's CDN,
 *   which this offline build cannot reach or vet, so `DropInSeam` only says the card form is
 *   unavailable. To finish it: load braintree-web-drop-in, `dropin.create({ authorization:
 *   clientToken, container })`, and call `onNonce(payload.nonce)` from `requestPaymentMethod()`.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetClientTokenQuery } from './billingApi';
import { TEST_NONCES, paymentEnvironment } from './billingLogic';

/** `nonce`: the chosen payment method's nonce, or undefined while none is ready. */
export function PaymentMethod({ onNonce }: { onNonce: (nonce: string | undefined) => void }) {
  const { t } = useTranslation('billing');
  const token = useGetClientTokenQuery();
  const env = paymentEnvironment(token.data?.clientToken);
  if (token.isLoading) return <p className="muted">{t('card.loading')}</p>;
  if (token.isError) return <p className="form-error">{t('card.unavailable')}</p>;
  if (env === 'fake') return <TestCardForm onNonce={onNonce} />;
  return <DropInSeam onNonce={onNonce} />;
}

function TestCardForm({ onNonce }: { onNonce: (nonce: string | undefined) => void }) {
  const { t } = useTranslation('billing');
  const [choice, setChoice] = useState<keyof typeof TEST_NONCES>('valid');
  useEffect(() => onNonce(TEST_NONCES[choice]), [choice, onNonce]);
  return (
    <fieldset className="test-card" data-testid="test-card-form">
      <legend>
        <span className="test-badge">{t('card.testMode')}</span> {t('card.testLegend')}
      </legend>
      <p className="muted">{t('card.testText')}</p>
      {(['valid', 'declined'] as const).map((c) => (
        <label key={c} className={choice === c ? 'choice selected' : 'choice'}>
          <input type="radio" name="test-card" checked={choice === c} onChange={() => setChoice(c)} /> {t(`card.${c}`)}{' '}
          <code className="muted">{TEST_NONCES[c]}</code>
        </label>
      ))}
    </fieldset>
  );
}

/** Braintree Drop-in for sandbox and production: not available offline (see the file comment). */
export function DropInSeam({ onNonce }: { onNonce: (nonce: string | undefined) => void }) {
  const { t } = useTranslation('billing');
  useEffect(() => onNonce(undefined), [onNonce]);
  return (
    <div className="card-unavailable" data-testid="dropin-seam">
      <p className="form-error">{t('card.unavailable')}</p>
    </div>
  );
}
