/**
 * Role onboarding (spec §2): role → plan → trial → done. The role is saved with
 * `roleOnboarding: true` so the flag (and this page) stay until "done" clears it. The plan step
 * offers the 7-day free trial when GET /api/billing/free-trial says so; the trial step needs the
 * terms ticked (the server refuses without them too) and POSTs /api/billing/trial.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { ROLES, type Role } from '@wb/proto';
import { PlanStep, TrialStep } from '../billing/OnboardingPlan';
import { useAppDispatch } from '../../app/store';
import { reportError } from '../../ui/reportError';
import { useCodeText } from '../../ui/useCodeText';
import { useUpdateSettingsMutation } from '../session/sessionApi';
import { useSession } from '../session/useSession';
import { Button } from '../../ui/kit/Button';

const STEPS = ['role', 'plan', 'trial', 'done'] as const;
type Step = (typeof STEPS)[number];

export function SetupPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const codeText = useCodeText();
  const [params, setParams] = useSearchParams();
  const { settings } = useSession();
  const [save, { isLoading }] = useUpdateSettingsMutation();
  const [role, setRole] = useState<Role | undefined>(settings.role);
  const stepParam = params.get('step') as Step | null;
  const step: Step = stepParam && STEPS.includes(stepParam) && settings.role ? stepParam : 'role';
  const go = (next: Step) => {
    const p = new URLSearchParams(params);
    p.set('step', next);
    setParams(p);
  };
  const patch = async (body: Parameters<typeof save>[0]) => {
    const result = await save(body);
    if ('error' in result) {
      reportError(dispatch, result.error, codeText);
      return false;
    }
    return true;
  };
  // No navigate here: the flag clears in the cache at once (optimistic update) and the setup
  // route's own rule then sends the user to `goto` or the dashboard; navigating again after the
  // answer raced with that redirect.
  const finish = async () => {
    await patch({ roleOnboarding: false });
  };
  const n = STEPS.indexOf(step) + 1;
  return (
    <section className="card setup" aria-labelledby="setup-title">
      <p className="muted">{t('setup.step', { n, total: STEPS.length })}</p>
      {step === 'role' ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (role) void patch({ role, roleOnboarding: true }).then((ok) => ok && go('plan'));
          }}
        >
          <fieldset>
            <legend>
              <h1 id="setup-title">{t('setup.roleTitle')}</h1>
            </legend>
            <p>{t('setup.roleText')}</p>
            <div className="choices">
              {ROLES.map((r) => (
                <label key={r} className={role === r ? 'choice selected' : 'choice'}>
                  <input type="radio" name="role" value={r} checked={role === r} onChange={() => setRole(r)} />{' '}
                  {t(`roles.${r}`)}
                </label>
              ))}
            </div>
          </fieldset>
          <Button type="submit" variant="primary" loading={isLoading} disabled={!role}>
            {t('app.continue')}
          </Button>
        </form>
      ) : step === 'plan' ? (
        <PlanStep onBack={() => go('role')} onStarter={() => go('done')} onTrial={() => go('trial')} />
      ) : step === 'trial' ? (
        <TrialStep onBack={() => go('plan')} onStarted={() => go('done')} />
      ) : (
        <div>
          <h1 id="setup-title">{t('setup.doneTitle')}</h1>
          <p>{t('setup.doneText')}</p>
          <Button variant="primary" onClick={() => void finish()} loading={isLoading}>
            {t('setup.start')}
          </Button>
        </div>
      )}
    </section>
  );
}
