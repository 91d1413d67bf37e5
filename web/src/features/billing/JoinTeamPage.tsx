/**
 * join-team?token=… (spec §2, §8 "Join invitation not found or meant for a different email"):
 * a visitor logs in or signs up first (and comes back here); a user joins with one click
 * (POST /api/business/join), and every refusal shows its code's message.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router-dom';
import type { BusinessInfo } from '@wb/proto';
import { formErrorText, isApiError } from '../../app/apiClient';
import { LocalLink } from '../../app/prefix';
import { useNamespace } from '../../i18n/useNamespace';
import { Loading } from '../../ui/EmptyState';
import { FormError } from '../../ui/FormError';
import { useCodeText } from '../../ui/useCodeText';
import { useSession } from '../session/useSession';
import { useJoinTeamMutation } from './billingApi';
import './billing.css';
import { Button, buttonClass } from '../../ui/kit/Button';

export function JoinTeamPage() {
  const { t } = useTranslation('billing');
  const { t: tc } = useTranslation();
  const ready = useNamespace('billing');
  const codeText = useCodeText();
  const [params] = useSearchParams();
  const location = useLocation();
  const token = params.get('token') ?? '';
  const { session } = useSession();
  const [join, { isLoading }] = useJoinTeamMutation();
  const [joined, setJoined] = useState<BusinessInfo | undefined>();
  const [error, setError] = useState<{ code: string; text: string } | undefined>();
  const here = location.pathname + location.search;

  let body;
  if (!ready) body = <Loading />;
  else if (!token) body = <FormError message={t('join.noToken')} />;
  else if (session.status === 'loading') body = <Loading />;
  else if (session.status === 'guest') {
    body = (
      <>
        <p>{t('join.loginFirst')}</p>
        <div className="actions">
          <LocalLink to={`/login?goto=${encodeURIComponent(here)}`} className={buttonClass({ variant: 'primary' })}>
            {tc('nav.login')}
          </LocalLink>
          <LocalLink to={`/signup?goto=${encodeURIComponent(here)}`} className={buttonClass()}>
            {tc('nav.signup')}
          </LocalLink>
        </div>
      </>
    );
  } else if (joined) {
    body = (
      <>
        <p className="sub-state state-ok">{t('join.joined', { name: joined.name })}</p>
        <LocalLink to="/dashboard" className={buttonClass({ variant: 'primary' })}>
          {tc('nav.home')}
        </LocalLink>
      </>
    );
  } else {
    body = (
      <>
        <p>{t('join.text')}</p>
        {error ? (
          <div data-code={error.code}>
            <FormError message={error.text} />
          </div>
        ) : null}
        <Button
          variant="primary"
          disabled={isLoading}
          onClick={() =>
            void join({ token }).then((result) => {
              if ('error' in result) {
                const e = result.error;
                setError({ code: isApiError(e) ? e.code : 'ERR_UNKNOWN', text: formErrorText(e, codeText) });
              } else setJoined(result.data);
            })
          }
        >
          {t('join.button')}
        </Button>
      </>
    );
  }
  return (
    <section className="card narrow join-team" aria-labelledby="join-title">
      <h1 id="join-title">{tc('title.joinTeam')}</h1>
      {body}
    </section>
  );
}
