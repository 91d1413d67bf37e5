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
import { Select, SelectItem } from '../../ui/kit/Select';
import { Switch } from '../../ui/kit/Switch';
import { useUpdateSettingsMutation } from '../session/sessionApi';
import { useSession } from '../session/useSession';

type Rgb = [number, number, number];
const toHex = (c: Rgb) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
/** the language select's key for "follow the browser" (no stored locale) */
const AUTO = 'auto';
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
    <Select
      label={label}
      value={String(settings[key] as string | number)}
      onChange={(v) => void set({ [key]: String(v) } as SettingsPatch)}
    >
      {values.map((v) => (
        <SelectItem key={v} id={v}>
          {text(v)}
        </SelectItem>
      ))}
    </Select>
  );
  const flag = (key: keyof Settings, label: string) => (
    <Switch
      key={key}
      label={label}
      checked={settings[key] === 1}
      onChange={(on) => void set({ [key]: on ? 1 : 0 } as SettingsPatch)}
    />
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
      <Select
        label={t('prefs.language')}
        value={settings.locale ?? AUTO}
        onChange={(v) => void set({ locale: (v === AUTO ? null : v) as Settings['locale'] })}
      >
        {[AUTO, ...LOCALES].map((l) => (
          <SelectItem key={l} id={l}>
            {l === AUTO ? t('prefs.languageAuto') : t(`lang.${l}`)}
          </SelectItem>
        ))}
      </Select>
      <h2>{t('prefs.boardSection')}</h2>
      {select('newBoardBackground', t('prefs.background'), BOARD_BACKGROUNDS, (v) => t(`prefs.bg_${v}`))}
      {select('newBoardPermissions', t('prefs.permissions'), BOARD_PERMISSIONS, (v) => t(`prefs.perm_${v}`))}
      <Select
        label={t('prefs.deleteControl')}
        value={String(settings.newBoardDeleteOwnOnly)}
        onChange={(v) => void set({ newBoardDeleteOwnOnly: v === '1' ? 1 : 0 })}
        description={canRestrictDeletes ? undefined : t('prefs.paidOnly')}
      >
        <SelectItem id="0">{t('prefs.deleteAll')}</SelectItem>
        <SelectItem id="1" isDisabled={!canRestrictDeletes}>
          {t('prefs.deleteOwn')}
        </SelectItem>
      </Select>
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
