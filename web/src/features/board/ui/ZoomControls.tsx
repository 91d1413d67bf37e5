/** Zoom out / level (click: 100 %) / in, fit, zoom to selection, and the minimap toggle (bottom right). */
import { useTranslation } from 'react-i18next';
import { Map as MapIcon, Maximize, Minus, Plus, ScanSearch, type LucideIcon } from 'lucide-react';
import { ICON_PROPS } from '../../../ui/icons';
import type { ActionId } from '../canvas/actions';
import type { EditorApi } from '../canvas/editorApi';
import { ariaKeys, Tip } from './Toolbar';
import { isMacPlatform, shortcutOf, useEditorState, useFormatKeys } from './editorHooks';

export interface ZoomControlsProps {
  editor: EditorApi;
  minimapOpen: boolean;
  onToggleMinimap: () => void;
}

export function ZoomControls({ editor, minimapOpen, onToggleMinimap }: ZoomControlsProps) {
  const { t } = useTranslation('board');
  const zoom = useEditorState(editor, (s) => s.camera.zoom);
  const mac = isMacPlatform();
  const format = useFormatKeys();
  const percent = Math.round(zoom * 100);
  const button = (id: ActionId, Icon: LucideIcon | null, onClick?: () => void, pressed?: boolean) => {
    const s = shortcutOf({ action: id });
    const name = t(`actions.${id}`);
    return (
      <Tip text={name} keys={s ? format(s.keys) : undefined}>
        <button
          type="button"
          className="tool"
          data-action={id}
          aria-label={Icon ? name : `${t('zoom.level', { percent })}: ${name}`}
          aria-keyshortcuts={s ? ariaKeys(s.keys, mac) : undefined}
          aria-pressed={pressed}
          disabled={id === 'zoomSelection' && !editor.can(id)}
          onClick={onClick ?? (() => editor.run(id))}
        >
          {Icon ? <Icon {...ICON_PROPS} size={18} /> : <span className="zoom-level">{percent} %</span>}
        </button>
      </Tip>
    );
  };
  return (
    <div className="zoom-controls" role="toolbar" aria-label={t('zoom.label')}>
      {button('zoomOut', Minus)}
      {/* the level is the 100 % button, as in Miro and tldraw: one number, not two */}
      {button('zoom100', null)}
      {button('zoomIn', Plus)}
      {button('zoomFit', Maximize)}
      {button('zoomSelection', ScanSearch)}
      {button('toggleMinimap', MapIcon, onToggleMinimap, minimapOpen)}
    </div>
  );
}
