/**
 * The board's tool bar: one button per tool (the seven geometric shapes share a flyout that shows
 * the last one used), undo/redo and the shortcuts panel. Viewers keep select, hand and laser; the
 * editing tools stay visible but disabled so people see what an editor could do. Collapsible
 * (settings.boardCollapsibleToolbar), and the page starts it collapsed on phones.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Angle,
  ArrowBigRight,
  ChartSpline,
  ChevronDown,
  ChevronsLeft,
  ChevronsRight,
  Circle,
  CircleHelp,
  Diamond,
  DraftingCompass,
  Eraser,
  Hand,
  Hexagon,
  MousePointer2,
  Pen,
  Redo2,
  Route,
  Ruler,
  Sigma,
  Slash,
  Spline,
  Square,
  Star,
  StickyNote,
  Triangle,
  Type,
  Undo2,
  Waypoints,
  Zap,
  type LucideIcon,
} from 'lucide-react';
import { GEOMETRIC_SHAPES } from '@wb/proto';
import { ICON_PROPS } from '../../../ui/icons';
import { Tooltip } from '../../../ui/Tooltip';
import { Popover } from '../../../ui/kit/Popover';
import type { ActionId } from '../canvas/actions';
import type { EditorApi } from '../canvas/editorApi';
import { TOOL_IDS, type ToolId } from '../canvas/tools/types';
import { isMacPlatform, isPhone, shortcutOf, useEditorState, useFormatKeys } from './editorHooks';

export const TOOL_ICONS: Record<ToolId, LucideIcon> = {
  select: MousePointer2,
  hand: Hand,
  pen: Pen,
  eraser: Eraser,
  line: Slash,
  polyline: Waypoints,
  curve: Spline,
  connector: Route,
  rectangle: Square,
  ellipse: Circle,
  triangle: Triangle,
  diamond: Diamond,
  star: Star,
  hexagon: Hexagon,
  arrow: ArrowBigRight,
  sticky: StickyNote,
  text: Type,
  formula: Sigma,
  graph: ChartSpline,
  laser: Zap,
  compass: DraftingCompass,
  ruler: Ruler,
  protractor: Angle,
};

/** what a viewer may still use: looking around and pointing */
export const VIEWER_TOOLS: ReadonlySet<ToolId> = new Set(['select', 'hand', 'laser']);
type ShapeTool = (typeof GEOMETRIC_SHAPES)[number] & ToolId;
const SHAPES = GEOMETRIC_SHAPES as readonly ShapeTool[];
const isShape = (id: ToolId): id is ShapeTool => (SHAPES as readonly string[]).includes(id);

export interface ToolbarProps {
  editor: EditorApi;
  /** viewer, plan read-only or board full: only VIEWER_TOOLS */
  readOnly: boolean;
  /** settings.boardCollapsibleToolbar: offer the collapse toggle */
  collapsible: boolean;
  collapsed: boolean;
  onCollapsedChange: (collapsed: boolean) => void;
  onShortcuts: () => void;
}

/** "Pen (P)" with the platform's modifier names */
export function useToolLabel(): (id: ToolId) => { name: string; keys: string | undefined; raw: string | undefined } {
  const { t } = useTranslation('board');
  const mac = isMacPlatform();
  const format = useFormatKeys();
  return (id) => {
    const s = shortcutOf({ tool: id });
    return {
      name: t(`tools.${id}`),
      keys: s ? format(s.keys) : undefined,
      raw: s ? ariaKeys(s.keys, mac) : undefined,
    };
  };
}

/** aria-keyshortcuts spells modifiers as the DOM does ("Control+Shift+Z", "Meta+Z") */
export function ariaKeys(keys: string, mac: boolean): string {
  return keys === '+' ? '+' : keys.replace('Mod', mac ? 'Meta' : 'Control');
}

export function Toolbar({ editor, readOnly, collapsible, collapsed, onCollapsedChange, onShortcuts }: ToolbarProps) {
  const { t } = useTranslation('board');
  const state = useEditorState(editor, (s) => ({ tool: s.tool, canUndo: s.canUndo, canRedo: s.canRedo }));
  const mac = isMacPlatform();
  const format = useFormatKeys();
  const [lastShape, setLastShape] = useState<ShapeTool>(() => (isShape(state.tool) ? state.tool : 'rectangle'));
  useEffect(() => {
    if (isShape(state.tool)) setLastShape(state.tool);
  }, [state.tool]);

  const allowed = (id: ToolId) => !readOnly || VIEWER_TOOLS.has(id);
  const pick = (id: ToolId) => {
    if (allowed(id)) editor.setTool(id);
  };
  const actionButton = (id: ActionId, Icon: LucideIcon, enabled: boolean) => {
    const s = shortcutOf({ action: id });
    const name = t(`actions.${id}`);
    return (
      <Tip text={name} keys={s ? format(s.keys) : undefined}>
        <button
          type="button"
          className="tool"
          data-action={id}
          aria-label={name}
          aria-keyshortcuts={s ? ariaKeys(s.keys, mac) : undefined}
          disabled={!enabled}
          onClick={() => editor.run(id)}
        >
          <Icon {...ICON_PROPS} size={20} />
        </button>
      </Tip>
    );
  };

  const tools: ReactNode[] = [];
  for (const id of TOOL_IDS) {
    if (isShape(id)) {
      if (id === SHAPES[0])
        tools.push(
          <ShapeFlyout
            key="shapes"
            current={state.tool}
            last={lastShape}
            disabled={readOnly}
            onPick={(s) => {
              setLastShape(s);
              pick(s);
            }}
          />,
        );
      continue;
    }
    tools.push(<ToolButton key={id} id={id} active={state.tool === id} disabled={!allowed(id)} onPick={pick} />);
  }

  const ToggleIcon = collapsed ? ChevronsRight : ChevronsLeft;
  return (
    <div
      className={`board-toolbar${collapsed ? ' collapsed' : ''}`}
      role="toolbar"
      aria-label={t('toolbar.label')}
      aria-orientation="vertical"
      data-readonly={readOnly || undefined}
    >
      {collapsed ? (
        // collapsed: the current tool only, so people still see what they draw with
        <ToolButton id={state.tool} active disabled={false} onPick={() => onCollapsedChange(false)} />
      ) : (
        <>
          <div className="toolbar-tools">{tools}</div>
          <span className="toolbar-sep" aria-hidden="true" />
          {actionButton('undo', Undo2, !readOnly && state.canUndo)}
          {actionButton('redo', Redo2, !readOnly && state.canRedo)}
          <span className="toolbar-sep" aria-hidden="true" />
          <Tip text={t('actions.shortcuts')} keys="?">
            <button
              type="button"
              className="tool"
              data-action="shortcuts"
              aria-label={t('actions.shortcuts')}
              aria-keyshortcuts="?"
              onClick={onShortcuts}
            >
              <CircleHelp {...ICON_PROPS} size={20} />
            </button>
          </Tip>
        </>
      )}
      {collapsible || collapsed ? (
        <Tip text={collapsed ? t('toolbar.expand') : t('toolbar.collapse')} keys={format('Mod+.')}>
          <button
            type="button"
            className="tool toolbar-toggle"
            data-action="toggleToolbar"
            aria-label={collapsed ? t('toolbar.expand') : t('toolbar.collapse')}
            aria-expanded={!collapsed}
            onClick={() => onCollapsedChange(!collapsed)}
          >
            <ToggleIcon {...ICON_PROPS} size={18} />
          </button>
        </Tip>
      ) : null}
    </div>
  );
}

function ToolButton({
  id,
  active,
  disabled,
  onPick,
}: {
  id: ToolId;
  active: boolean;
  disabled: boolean;
  onPick: (id: ToolId) => void;
}) {
  const { name, keys, raw } = useToolLabel()(id);
  const Icon = TOOL_ICONS[id];
  return (
    <Tip text={name} keys={keys}>
      <button
        type="button"
        className={active ? 'tool active' : 'tool'}
        data-tool={id}
        aria-label={name}
        aria-pressed={active}
        aria-keyshortcuts={raw}
        disabled={disabled}
        onClick={() => onPick(id)}
      >
        <Icon {...ICON_PROPS} size={20} />
      </button>
    </Tip>
  );
}

/**
 * The geometric shapes behind one button: a click picks the last shape and opens the choice, a kit
 * Popover beside the tool bar (above it on phones, where the bar runs along the bottom).
 */
function ShapeFlyout({
  current,
  last,
  disabled,
  onPick,
}: {
  current: ToolId;
  last: ShapeTool;
  disabled: boolean;
  onPick: (id: ShapeTool) => void;
}) {
  const { t } = useTranslation('board');
  const label = useToolLabel();
  const [open, setOpen] = useState(false);
  const { name, keys } = label(last);
  const Icon = TOOL_ICONS[last];
  const active = isShape(current);
  return (
    <div className="tool-flyout">
      {/* no tip while the flyout is open: it would cover the first shape */}
      <Tip text={`${t('toolbar.shapes')}: ${name}`} keys={keys} hidden={open}>
        <Popover
          label={t('toolbar.shapes')}
          className="flyout-menu"
          placement={isPhone() ? 'top start' : 'right top'}
          isOpen={open}
          onOpenChange={(next) => {
            if (next) onPick(last);
            setOpen(next);
          }}
          trigger={
            <button
              type="button"
              className={active ? 'tool active' : 'tool'}
              data-tool={last}
              aria-label={`${t('toolbar.shapes')}: ${name}`}
              aria-pressed={active}
              aria-haspopup="dialog"
              disabled={disabled}
            >
              <Icon {...ICON_PROPS} size={20} />
              <ChevronDown {...ICON_PROPS} className="icon-svg flyout-mark" size={10} />
            </button>
          }
        >
          {(close) => (
            <div className="flyout-shapes" role="group" aria-label={t('toolbar.shapes')}>
              {SHAPES.map((id) => {
                const l = label(id);
                const ShapeIcon = TOOL_ICONS[id];
                return (
                  <Tip key={id} text={l.name} keys={l.keys}>
                    <button
                      type="button"
                      className={current === id ? 'tool active' : 'tool'}
                      data-tool={id}
                      aria-label={l.name}
                      aria-pressed={current === id}
                      aria-keyshortcuts={l.raw}
                      onClick={() => {
                        onPick(id);
                        close();
                      }}
                    >
                      <ShapeIcon {...ICON_PROPS} size={20} />
                    </button>
                  </Tip>
                );
              })}
            </div>
          )}
        </Popover>
      </Tip>
    </div>
  );
}

/** The app's tooltip (500 ms to show, 50 ms to hide) with the name and the shortcut. */
export function Tip({
  text,
  keys,
  hidden,
  children,
}: {
  text: string;
  keys?: string;
  hidden?: boolean;
  children: React.ReactElement;
}) {
  return (
    <Tooltip
      hidden={hidden}
      text={
        <>
          {text}
          {keys ? <kbd className="tooltip-keys">{keys}</kbd> : null}
        </>
      }
    >
      {children}
    </Tooltip>
  );
}
