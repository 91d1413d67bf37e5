import { useTranslation } from 'react-i18next';
import { Modal } from './Modal';

/** Spec §2: grouped into tools, editing, view and panels. */
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
      ['undo', 'Ctrl+Z'],
      ['redo', 'Ctrl+Shift+Z'],
      ['copy', 'Ctrl+C'],
      ['paste', 'Ctrl+V'],
      ['delete', 'Del'],
      ['move', '←↑→↓'],
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
    items: [
      ['chat', 'C'],
      ['filesPanel', 'F'],
      ['help', '?'],
    ],
  },
];

export function ShortcutsPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal title={t('shortcuts.title')} onClose={onClose} className="shortcuts">
      <div className="shortcut-groups">
        {GROUPS.map(({ group, items }) => (
          <section key={group}>
            <h3>{t(`shortcuts.${group}`)}</h3>
            <dl>
              {items.map(([name, keys]) => (
                <div key={name} className="shortcut">
                  <dt>{t(`shortcuts.${name}`)}</dt>
                  <dd>
                    <kbd>{keys}</kbd>
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
