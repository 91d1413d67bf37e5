import { useTranslation } from 'react-i18next';
import { useFormatKeys } from './keys';
import { Modal } from './Modal';

/**
 * Spec §2: grouped into tools, editing, view and panels. Keys as the board's table spells them
 * ("Mod" = Ctrl or ⌘), shown in the person's language (keys.ts); a board lists its own.
 */
const GROUPS: { group: string; items: [string, string][] }[] = [
  {
    group: 'tools',
    items: [
      ['select', 'V'],
      ['pen', 'P'],
      ['line', 'L'],
      ['text', 'T'],
      ['sticky', 'N'],
      ['presets', '1–9'],
    ],
  },
  {
    group: 'editing',
    items: [
      ['undo', 'Mod+Z'],
      ['redo', 'Mod+Shift+Z'],
      ['copy', 'Mod+C'],
      ['paste', 'Mod+V'],
      ['delete', 'Delete'],
      ['move', 'ArrowLeft ArrowUp ArrowRight ArrowDown'],
    ],
  },
  {
    group: 'view',
    items: [
      ['zoomIn', '+'],
      ['zoomOut', '−'],
      ['zoomFit', 'Shift+1'],
      ['minimap', 'M'],
    ],
  },
  {
    group: 'panels',
    items: [['help', '?']],
  },
];

export function ShortcutsPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const format = useFormatKeys();
  return (
    <Modal title={t('shortcuts.title')} onClose={onClose} className="shortcuts">
      <div className="shortcut-groups">
        {GROUPS.map(({ group, items }) => (
          <section key={group}>
            <h3>{t(`shortcuts.${group}`)}</h3>
            <dl>
              {items.map(([name, keys]) => (
                <div key={name} className="shortcut">
                  <dt>{t(`shortcuts.${name}`, { shift: format('Shift'), ctrlShift: format('Mod+Shift') })}</dt>
                  <dd>
                    <kbd>{keys.split(' ').map(format).join('')}</kbd>
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Modal>
  );
}
