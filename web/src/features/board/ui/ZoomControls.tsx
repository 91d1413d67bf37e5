/** Zoom out / level / in, fit, 100 %, zoom to selection, and the minimap toggle (bottom right). */
import { useTranslation } from 'react-i18next';
import { Map as MapIcon, Maximize, Minus, Plus, ScanSearch, type LucideIcon } from 'lucide-react';
import { ICON_PROPS } from '../../../ui/icons';
import type { ActionId } from '../canvas/actions';
import type { EditorApi } from '../canvas/editorApi';
import { ariaKeys, Tip } from './Toolbar';
import { formatKeys, isMacPlatform, shortcutOf, useEditorState } from './editorHooks';

export interface ZoomControlsProps {
  editor: EditorApi;
  minimapOpen: boolean;
  onToggleMinimap: () => void;
}

export function ZoomControls({ editor, minimapOpen, onToggleMinimap }: ZoomControlsProps) {
  const { t } = useTranslation('board');
  const state = useEditorState(editor);
  const mac = isMacPlatform();
  const percent = Math.round(state.camera.zoom * 100);
  const button = (id: ActionId, Icon: LucideIcon | null, onClick?: () => void, pressed?: boolean) => {
    const s = shortcutOf({ action: id });
    const name = t(`actions.${id}`);
    return (
      <Tip text={name} keys={s ? formatKeys(s.keys, mac) : undefined}>
        <button
          type="button"
          className="tool"
          data-action={id}
          aria-label={name}
          aria-keyshortcuts={s ? ariaKeys(s.keys, mac) : undefined}
          aria-pressed={pressed}
          disabled={id === 'zoomSelection' && !editor.can(id)}
          onClick={onClick ?? (() => editor.run(id))}
        >
          {Icon ? <Icon {...ICON_PROPS} size={18} /> : <span className="zoom-100">100 %</span>}
        </button>
      </Tip>
    );
  };
  return (
    <div className="zoom-controls" role="toolbar" aria-label={t('zoom.label')}>
      {button('zoomOut', Minus)}
      <output className="zoom-level" aria-live="off" aria-label={t('zoom.level', { percent })}>
        {percent} %
      </output>
      {button('zoomIn', Plus)}
      {button('zoomFit', Maximize)}
      {button('zoom100', null)}
      {button('zoomSelection', ScanSearch)}
      {button('toggleMinimap', MapIcon, onToggleMinimap, minimapOpen)}
    </div>
  );
}
