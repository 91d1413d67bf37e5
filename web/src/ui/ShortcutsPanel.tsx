/**
 * The keyboard shortcuts, on a board and off it (the `?` key, the footer's link): read from the one
 * table the board's key handler uses (board/canvas/actions.ts, a small module without the canvas),
 * so the list cannot drift from what works. On a board, rows its access does not allow are left
 * out (viewers see no editing shortcuts); elsewhere all are listed.
 */
import { useTranslation } from 'react-i18next';
import { useNamespace } from '../i18n/useNamespace';
import { SHORTCUTS, allows, type Access, type Shortcut, type ShortcutGroup } from '../features/board/canvas/actions';
import { useFormatKeys } from './keys';
import { Dialog } from './kit/Dialog';

const GROUPS: readonly ShortcutGroup[] = ['tools', 'editing', 'view', 'panels'];

interface Row {
  id: string;
  label: string;
  keys: string[];
}

/** one row per target (Ctrl+Shift+Z and Ctrl+Y are one "redo"); the presets 1–9 are one row */
export function shortcutRows(
  access: Access,
  format: (keys: string) => string,
  t: (key: string) => string,
): Map<ShortcutGroup, Row[]> {
  const out = new Map<ShortcutGroup, Row[]>(GROUPS.map((g) => [g, []]));
  const byId = new Map<string, Row>();
  for (const s of SHORTCUTS) {
    if (!allows(access, s.access)) continue;
    const id = targetId(s);
    let row = byId.get(id);
    if (!row) {
      row = { id, label: labelOf(s, t), keys: [] };
      byId.set(id, row);
      out.get(s.group)!.push(row);
    }
    if ('preset' in s.target) row.keys = ['1–9'];
    else row.keys.push(format(s.keys));
  }
  return out;
}

function targetId(s: Shortcut): string {
  const t = s.target;
  return 'tool' in t ? `tool:${t.tool}` : 'action' in t ? `action:${t.action}` : 'presets';
}
function labelOf(s: Shortcut, t: (key: string) => string): string {
  const x = s.target;
  return 'tool' in x ? t(`tools.${x.tool}`) : 'action' in x ? t(`actions.${x.action}`) : t('presets.shortcut');
}

/** `access`: the board's (its rows only); off a board every shortcut is listed */
export function ShortcutsPanel({ access = 'own', onClose }: { access?: Access; onClose: () => void }) {
  const { t } = useTranslation('board');
  // the names are the board's strings: off a board they are fetched first
  const ready = useNamespace('board');
  const format = useFormatKeys();
  if (!ready) return null;
  const rows = shortcutRows(access, format, t);
  return (
    <Dialog title={t('shortcuts.title')} onClose={onClose} className="shortcuts">
      <div className="shortcut-groups">
        {GROUPS.map((group) => {
          const items = rows.get(group)!;
          if (items.length === 0) return null;
          return (
            <section key={group} data-group={group}>
              <h3>{t(`shortcuts.${group}`)}</h3>
              <dl>
                {items.map((r) => (
                  <div key={r.id} className="shortcut" data-shortcut={r.id}>
                    <dt>{r.label}</dt>
                    <dd>
                      {r.keys.map((k, i) => (
                        <span key={k}>
                          {i > 0 ? ` ${t('shortcuts.or')} ` : null}
                          <kbd>{k}</kbd>
                        </span>
                      ))}
                    </dd>
                  </div>
                ))}
              </dl>
              {group === 'editing' && items.some((r) => r.id === 'action:nudgeLeft') ? (
                <p className="muted shortcut-note">
                  {t('shortcuts.nudgeNote', { shift: format('Shift'), ctrlShift: format('Mod+Shift') })}
                </p>
              ) : null}
            </section>
          );
        })}
      </div>
    </Dialog>
  );
}
