/** Every preference of spec §3, each saved as soon as it changes. */
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  BOARD_BACKGROUNDS,
  BOARD_PERMISSIONS,
  FILE_DRAWER_DOCKS,
  FORMULA_ALIGNMENTS,
  LINE_PATTERNS,
  LOCALES,
  type Settings,
  type SettingsPatch,
} from '@wb/proto';
import { useAppDispatch } from '../../app/store';
import { reportError } from '../../ui/reportError';
import { notify } from '../../ui/toastsSlice';
import { useCodeText } from '../../ui/useCodeText';
import { storeLocale } from '../../i18n/i18n';
import { useUpdateSettingsMutation } from '../session/sessionApi';
import { useSession } from '../session/useSession';

type Rgb = [number, number, number];
const toHex = (c: Rgb) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
const fromHex = (hex: string): Rgb => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as Rgb;

function Row({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </div>
  );
}

export function PreferencesSettings() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const codeText = useCodeText();
  const { settings, plan } = useSession();
  const [save] = useUpdateSettingsMutation();
  const set = async (patch: SettingsPatch) => {
    if (patch.locale) storeLocale(patch.locale);
    const result = await save(patch);
    if ('error' in result) reportError(dispatch, result.error, codeText);
    else dispatch(notify({ type: 'info', message: t('prefs.saved') }));
  };
  const select = <K extends keyof Settings>(
    key: K,
    label: string,
    values: readonly string[],
    text: (v: string) => string,
  ) => (
    <Row label={label}>
      {(id) => (
        <select
          id={id}
          value={String(settings[key] as string | number)}
          onChange={(e) => void set({ [key]: e.target.value } as SettingsPatch)}
        >
          {values.map((v) => (
            <option key={v} value={v}>
              {text(v)}
            </option>
          ))}
        </select>
      )}
    </Row>
  );
  const flag = (key: keyof Settings, label: string) => (
    <label key={key}>
      <input
        type="checkbox"
        checked={settings[key] === 1}
        onChange={(e) => void set({ [key]: e.target.checked ? 1 : 0 } as SettingsPatch)}
      />{' '}
      {label}
    </label>
  );
  const color = (key: 'toolStrokeColor' | 'toolTextColor' | 'toolFormulaColor', label: string) => (
    <Row label={label}>
      {(id) => (
        <input
          id={id}
          type="color"
          value={toHex(settings[key])}
          onChange={(e) => void set({ [key]: fromHex(e.target.value) })}
        />
      )}
    </Row>
  );
  const number = (
    key: 'toolStrokeWidth' | 'toolTextSize' | 'toolFormulaSize',
    label: string,
    min: number,
    max: number,
  ) => (
    <Row label={label}>
      {(id) => (
        <input
          id={id}
          type="number"
          min={min}
          max={max}
          value={settings[key]}
          onChange={(e) => {
            const v = Number(e.target.value);
            if (Number.isInteger(v) && v >= min && v <= max) void set({ [key]: v });
          }}
        />
      )}
    </Row>
  );
  const canRestrictDeletes = plan.features.collaborationControls;
  return (
    <div className="prefs">
      <Row label={t('prefs.language')}>
        {(id) => (
          <select
            id={id}
            value={settings.locale ?? ''}
            onChange={(e) => void set({ locale: (e.target.value || null) as Settings['locale'] })}
          >
            <option value="">{t('prefs.languageAuto')}</option>
            {LOCALES.map((l) => (
              <option key={l} value={l}>
                {t(`lang.${l}`)}
              </option>
            ))}
          </select>
        )}
      </Row>
      <h2>{t('prefs.boardSection')}</h2>
      {select('newBoardBackground', t('prefs.background'), BOARD_BACKGROUNDS, (v) => t(`prefs.bg_${v}`))}
      {select('newBoardPermissions', t('prefs.permissions'), BOARD_PERMISSIONS, (v) => t(`prefs.perm_${v}`))}
      <Row label={t('prefs.deleteControl')}>
        {(id) => (
          <select
            id={id}
            value={settings.newBoardDeleteOwnOnly}
            onChange={(e) => void set({ newBoardDeleteOwnOnly: e.target.value === '1' ? 1 : 0 })}
          >
            <option value={0}>{t('prefs.deleteAll')}</option>
            <option value={1} disabled={!canRestrictDeletes}>
              {t('prefs.deleteOwn')}
            </option>
          </select>
        )}
      </Row>
      {!canRestrictDeletes ? <small className="muted">{t('prefs.paidOnly')}</small> : null}
      <h2>{t('prefs.toolsSection')}</h2>
      {color('toolStrokeColor', t('prefs.penColor'))}
      {number('toolStrokeWidth', t('prefs.penWidth'), 1, 100)}
      {select('toolLinePattern', t('prefs.linePattern'), LINE_PATTERNS, (v) => t(`prefs.pattern_${v}`))}
      {color('toolTextColor', t('prefs.textColor'))}
      {number('toolTextSize', t('prefs.textSize'), 6, 200)}
      {select(
        'toolTextFont',
        t('prefs.textFont'),
        ['Open Sans', 'Roboto', 'Georgia', 'Courier New', 'Comic Neue'],
        (v) => v,
      )}
      {color('toolFormulaColor', t('prefs.formulaColor'))}
      {number('toolFormulaSize', t('prefs.formulaSize'), 6, 200)}
      {select('toolFormulaAlignment', t('prefs.formulaAlignment'), FORMULA_ALIGNMENTS, (v) => t(`prefs.align_${v}`))}
      <h2>{t('prefs.viewSection')}</h2>
      <fieldset className="toggles">
        <legend className="sr-only">{t('prefs.viewSection')}</legend>
        {flag('boardMinimap', t('prefs.minimap'))}
        {flag('boardCollapsibleToolbar', t('prefs.collapsibleToolbar'))}
        {flag('boardSnapping', t('prefs.snapping'))}
        {flag('boardInertialPanning', t('prefs.inertialPanning'))}
        {flag('showParticipantNames', t('prefs.participantNames'))}
        {flag('largeVideo', t('prefs.largeVideo'))}
      </fieldset>
      {select('fileDrawerDock', t('prefs.fileDrawerDock'), FILE_DRAWER_DOCKS, (v) => t(`prefs.dock_${v}`))}
    </div>
  );
}
