/**
 * The card part of the billing forms. GET /api/billing/client-token tells which payment
 * environment the billing service talks to (the token is base64 JSON with `environment`):
 * - "fake" (the local fake gateway of development and tests): a clearly marked TEST MODE form
 *   whose choices yield Braintree's test nonces;
 * - "sandbox" / "production": Braintree Drop-in, loaded from Braintree's CDN only then (the card
 *   fields are Braintree's iframes, so card data never touches our pages or servers). The script
 *   is pinned to one version (`DROPIN_VERSION`); Braintree publishes no SRI hash for it, so the
 *   pin plus the CSP (gateway/src/http/security.ts allows Braintree's hosts in these environments
 *   only) is what bounds what runs. Drop-in works only against Braintree's servers, so the fake
 *   environment keeps the test form.
 *
 * `onNonce` gets the nonce of the chosen payment method (Drop-in: each time a card becomes
 * requestable, from `requestPaymentMethod()`), or undefined while none is ready.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetClientTokenQuery } from './billingApi';
import { TEST_NONCES, paymentEnvironment } from './billingLogic';

/** braintree-web-drop-in, pinned: a new version is a reviewed change (and a CSP check). */
export const DROPIN_VERSION = '1.44.1';
export const DROPIN_SCRIPT_URL = `https://js.braintreegateway.com/web/dropin/${DROPIN_VERSION}/js/dropin.min.js`;

/** The part of Drop-in's API used here (https://braintree.github.io/braintree-web-drop-in/docs/current/). */
export interface DropinInstance {
  requestPaymentMethod(): Promise<{ nonce: string }>;
  isPaymentMethodRequestable(): boolean;
  on(event: 'paymentMethodRequestable' | 'noPaymentMethodRequestable', handler: () => void): void;
  teardown(): Promise<void>;
}
export interface DropinApi {
  create(options: {
    authorization: string;
    container: HTMLElement;
    locale?: string;
    card?: { cardholderName?: { required: boolean } };
  }): Promise<DropinInstance>;
}
declare global {
  interface Window {
    braintree?: { dropin?: DropinApi };
  }
}

/** Drop-in's locales for ours (those it lacks fall back to English). */
const DROPIN_LOCALES: Record<string, string> = {
  en: 'en_US',
  de: 'de_DE',
  fr: 'fr_FR',
  es: 'es_ES',
  it: 'it_IT',
  pl: 'pl_PL',
  ru: 'ru_RU',
};

let loading: Promise<DropinApi> | null = null;

/** Adds Drop-in's script once, on first use; a failed load can be tried again. */
export function loadDropin(): Promise<DropinApi> {
  if (window.braintree?.dropin) return Promise.resolve(window.braintree.dropin);
  if (loading) return loading;
  const script = document.createElement('script');
  script.src = DROPIN_SCRIPT_URL;
  script.async = true;
  const attempt = new Promise<DropinApi>((resolve, reject) => {
    script.onload = () => {
      const api = window.braintree?.dropin;
      if (api) resolve(api);
      else reject(new Error('Drop-in did not initialise'));
    };
    script.onerror = () => reject(new Error('Drop-in could not be loaded'));
  });
  loading = attempt.catch((err: unknown) => {
    loading = null;
    script.remove();
    throw err;
  });
  document.head.appendChild(script);
  return loading;
}

export function PaymentMethod({ onNonce }: { onNonce: (nonce: string | undefined) => void }) {
  const { t } = useTranslation('billing');
  const token = useGetClientTokenQuery();
  const clientToken = token.data?.clientToken;
  const env = paymentEnvironment(clientToken);
  if (token.isLoading) return <p className="muted">{t('card.loading')}</p>;
  if (token.isError || !clientToken) return <p className="form-error">{t('card.unavailable')}</p>;
  if (env === 'fake') return <TestCardForm onNonce={onNonce} />;
  if (env === 'sandbox' || env === 'production') return <DropIn clientToken={clientToken} onNonce={onNonce} />;
  return <CardUnavailable onNonce={onNonce} />;
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

/** Braintree Drop-in in `container`, created with the client token and torn down on unmount. */
export function DropIn({
  clientToken,
  onNonce,
}: {
  clientToken: string;
  onNonce: (nonce: string | undefined) => void;
}) {
  const { t, i18n } = useTranslation('billing');
  const container = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const language = i18n.language;
  // the latest callback, without re-creating Drop-in (and losing typed card details) when it changes
  const report = useRef(onNonce);
  useEffect(() => {
    report.current = onNonce;
  }, [onNonce]);

  useEffect(() => {
    const onNonce = (nonce: string | undefined) => report.current(nonce);
    let gone = false;
    let instance: DropinInstance | null = null;
    onNonce(undefined);
    setState('loading');
    const requestNonce = async (dropin: DropinInstance) => {
      try {
        const { nonce } = await dropin.requestPaymentMethod();
        if (!gone) onNonce(nonce);
      } catch {
        // incomplete or invalid card details: Drop-in shows what is wrong in its own fields
        if (!gone) onNonce(undefined);
      }
    };
    loadDropin()
      .then((api) =>
        api.create({
          authorization: clientToken,
          container: container.current!,
          locale: DROPIN_LOCALES[language.slice(0, 2)] ?? 'en_US',
          card: { cardholderName: { required: false } },
        }),
      )
      .then((dropin) => {
        if (gone) {
          void dropin.teardown().catch(() => undefined);
          return;
        }
        instance = dropin;
        setState('ready');
        dropin.on('paymentMethodRequestable', () => void requestNonce(dropin));
        dropin.on('noPaymentMethodRequestable', () => onNonce(undefined));
        // a saved card of a known customer is selected at once
        if (dropin.isPaymentMethodRequestable()) void requestNonce(dropin);
      })
      .catch(() => {
        if (gone) return;
        setState('failed');
        onNonce(undefined);
      });
    return () => {
      gone = true;
      // Drop-in removes its iframes and listeners; the container is React's and stays empty
      if (instance) void instance.teardown().catch(() => undefined);
    };
  }, [clientToken, language]);

  return (
    <div className="dropin" data-testid="dropin">
      {state === 'loading' && <p className="muted">{t('card.loading')}</p>}
      {state === 'failed' && <p className="form-error">{t('card.unavailable')}</p>}
      <div ref={container} data-testid="dropin-container" />
    </div>
  );
}

/** A client token of no known environment: no way to take a card. */
function CardUnavailable({ onNonce }: { onNonce: (nonce: string | undefined) => void }) {
  const { t } = useTranslation('billing');
  useEffect(() => onNonce(undefined), [onNonce]);
  return (
    <div className="card-unavailable" data-testid="card-unavailable">
      <p className="form-error">{t('card.unavailable')}</p>
    </div>
  );
}
