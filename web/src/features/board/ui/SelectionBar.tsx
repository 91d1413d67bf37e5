/**
 * Commands for the selected shapes. Power tools (actions.ts POWER_TOOLS) on a plan without the
 * `powerTools` feature stay clickable and open the upgrade prompt instead, so starter users learn
 * the tool exists; the editor refuses them too, the page only decides what people see.
 */
import { useTranslation } from 'react-i18next';
import {
  ArrowDown,
  ArrowUp,
  BringToFront,
  ClipboardPaste,
  Copy,
  CopyPlus,
  Crown,
  Group,
  Lock,
  LockOpen,
  ScanSearch,
  Scissors,
  SendToBack,
  Trash2,
  Ungroup,
  type LucideIcon,
} from 'lucide-react';
import { ICON_PROPS } from '../../../ui/icons';
import { POWER_TOOLS, type ActionId } from '../canvas/actions';
import type { EditorApi } from '../canvas/editorApi';
import { ariaKeys, Tip } from './Toolbar';
import { isMacPlatform, shortcutOf, useEditorState, useFormatKeys } from './editorHooks';

const ICONS: Partial<Record<ActionId, LucideIcon>> = {
  copy: Copy,
  cut: Scissors,
  paste: ClipboardPaste,
  duplicate: CopyPlus,
  delete: Trash2,
  bringForward: ArrowUp,
  sendBackward: ArrowDown,
  bringToFront: BringToFront,
  sendToBack: SendToBack,
  lock: Lock,
  unlock: LockOpen,
  group: Group,
  ungroup: Ungroup,
  zoomSelection: ScanSearch,
};

export interface SelectionBarProps {
  editor: EditorApi;
  /** the plan includes `powerTools` */
  powerTools: boolean;
  onUpgrade: (action: ActionId) => void;
}

export function SelectionBar({ editor, powerTools, onUpgrade }: SelectionBarProps) {
  const { t } = useTranslation('board');
  const selection = useEditorState(editor, (s) => s.selection);
  const mac = isMacPlatform();
  const format = useFormatKeys();
  if (selection.count === 0) return null;
  const { locked, grouped } = selection;
  const groups: ActionId[][] = [
    ['copy', 'cut', 'paste', 'duplicate', 'delete'],
    ['bringForward', 'sendBackward', 'bringToFront', 'sendToBack'],
    [locked ? 'unlock' : 'lock', grouped ? 'ungroup' : 'group'],
    ['zoomSelection'],
  ];
  const button = (id: ActionId) => {
    const Icon = ICONS[id]!;
    const gated = POWER_TOOLS.has(id) && !powerTools;
    const s = shortcutOf({ action: id });
    const name = t(`actions.${id}`);
    const label = gated ? t('selection.powerTool', { name }) : name;
    return (
      <Tip key={id} text={label} keys={s ? format(s.keys) : undefined}>
        <button
          type="button"
          className={gated ? 'tool gated' : 'tool'}
          data-action={id}
          aria-label={label}
          aria-keyshortcuts={s ? ariaKeys(s.keys, mac) : undefined}
          disabled={!editor.can(id)}
          onClick={() => (gated ? onUpgrade(id) : editor.run(id))}
        >
          <Icon {...ICON_PROPS} size={18} />
          {gated ? <Crown {...ICON_PROPS} className="icon-svg gated-mark" size={10} /> : null}
        </button>
      </Tip>
    );
  };
  return (
    <div className="selection-bar" role="toolbar" aria-label={t('selection.label', { count: selection.count })}>
      {groups.map((g, i) => (
        <div key={i} className="selection-group">
          {g.map(button)}
        </div>
      ))}
    </div>
  );
}
