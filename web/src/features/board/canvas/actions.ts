/**
 * Every board command and shortcut in one table: the key handler (boardView.ts) and the
 * keyboard-shortcuts panel read it, so a listed shortcut always works and an unlisted one does
 * not exist. `access` is the level the board must grant (spec §4: own ⊃ edit ⊃ view); a shortcut
 * whose level is not met is ignored, and viewers get no editing tools.
 *
 * Power tools (spec §3 plan feature `powerTools`, paid plans): duplicate, arrange (bring
 * forward/back, to front/back), lock/unlock and group/ungroup. Everything a person needs to draw
 * and correct (tools, undo/redo, copy/cut/paste, delete, select all, nudge, zoom) is free;
 * starter users who reach for a power tool see the upgrade prompt instead.
 */
import type { ToolId } from './tools/types';

export const ACTION_IDS = [
  'undo',
  'redo',
  'copy',
  'cut',
  'paste',
  'duplicate',
  'delete',
  'selectAll',
  'deselect',
  'bringForward',
  'sendBackward',
  'bringToFront',
  'sendToBack',
  'lock',
  'unlock',
  'group',
  'ungroup',
  'nudgeLeft',
  'nudgeRight',
  'nudgeUp',
  'nudgeDown',
  'zoomIn',
  'zoomOut',
  'zoomFit',
  'zoomSelection',
  'zoom100',
  'toggleToolbar',
  'toggleMinimap',
  'shortcuts',
] as const;
export type ActionId = (typeof ACTION_IDS)[number];

export const POWER_TOOLS: ReadonlySet<ActionId> = new Set([
  'duplicate',
  'bringForward',
  'sendBackward',
  'bringToFront',
  'sendToBack',
  'lock',
  'unlock',
  'group',
  'ungroup',
]);

export type Access = 'view' | 'edit' | 'own';
export type ShortcutGroup = 'tools' | 'editing' | 'view' | 'panels';

export interface Shortcut {
  /** what it does: a tool to switch to, an action, or a pen preset (keys 1–9) */
  target: { tool: ToolId } | { action: ActionId } | { preset: number };
  /**
   * the keys as KeyboardEvent.key (case-insensitive for letters); "Mod" = Ctrl or ⌘, "Shift",
   * "Alt". Several entries may share a target (Ctrl+Shift+Z and Ctrl+Y).
   */
  keys: string;
  group: ShortcutGroup;
  access: Access;
}

const tool = (t: ToolId, keys: string, access: Access = 'edit'): Shortcut => ({
  target: { tool: t },
  keys,
  group: 'tools',
  access,
});
const act = (a: ActionId, keys: string, group: ShortcutGroup, access: Access = 'edit'): Shortcut => ({
  target: { action: a },
  keys,
  group,
  access,
});

const NUDGES = [
  ['nudgeLeft', 'ArrowLeft'],
  ['nudgeRight', 'ArrowRight'],
  ['nudgeUp', 'ArrowUp'],
  ['nudgeDown', 'ArrowDown'],
] as const;

export const SHORTCUTS: readonly Shortcut[] = [
  tool('select', 'V', 'view'),
  tool('hand', 'H', 'view'),
  tool('pen', 'P'),
  tool('eraser', 'E'),
  tool('line', 'L'),
  tool('polyline', 'Shift+L'),
  tool('curve', 'C'),
  tool('connector', 'X'),
  tool('rectangle', 'R'),
  tool('ellipse', 'O'),
  tool('triangle', 'Shift+T'),
  tool('diamond', 'D'),
  tool('star', 'Shift+S'),
  tool('hexagon', 'Shift+H'),
  tool('arrow', 'A'),
  tool('sticky', 'N'),
  tool('text', 'T'),
  tool('formula', 'F'),
  tool('graph', 'G'),
  tool('laser', 'K', 'view'),
  tool('compass', 'Shift+C'),
  tool('ruler', 'Shift+R'),
  tool('protractor', 'Shift+P'),
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n): Shortcut => ({
    target: { preset: n },
    keys: String(n),
    group: 'tools',
    access: 'edit',
  })),
  act('undo', 'Mod+Z', 'editing'),
  act('redo', 'Mod+Shift+Z', 'editing'),
  act('redo', 'Mod+Y', 'editing'),
  act('copy', 'Mod+C', 'editing', 'view'),
  act('cut', 'Mod+X', 'editing'),
  act('paste', 'Mod+V', 'editing'),
  act('duplicate', 'Mod+D', 'editing'),
  act('delete', 'Delete', 'editing'),
  act('delete', 'Backspace', 'editing'),
  act('selectAll', 'Mod+A', 'editing', 'view'),
  act('deselect', 'Escape', 'editing', 'view'),
  act('bringForward', 'Mod+]', 'editing'),
  act('sendBackward', 'Mod+[', 'editing'),
  act('bringToFront', 'Mod+Shift+]', 'editing'),
  act('sendToBack', 'Mod+Shift+[', 'editing'),
  act('lock', 'Mod+Shift+L', 'editing'),
  act('group', 'Mod+G', 'editing'),
  act('ungroup', 'Mod+Shift+G', 'editing'),
  // spec §9: arrows move by 1, with Shift by 10, with Ctrl/⌘+Shift by 100 (nudgeStep)
  ...NUDGES.flatMap(([a, arrow]) => ['', 'Shift+', 'Mod+Shift+'].map((mods) => act(a, mods + arrow, 'editing'))),
  act('zoomIn', '+', 'view', 'view'),
  act('zoomIn', '=', 'view', 'view'),
  act('zoomOut', '-', 'view', 'view'),
  act('zoomFit', 'Shift+1', 'view', 'view'),
  act('zoomSelection', 'Shift+2', 'view', 'view'),
  act('zoom100', 'Shift+0', 'view', 'view'),
  act('toggleToolbar', 'Mod+.', 'panels', 'view'),
  act('toggleMinimap', 'M', 'panels', 'view'),
  act('shortcuts', '?', 'panels', 'view'),
];

/** Arrow keys: 1, Shift 10, Ctrl/⌘+Shift 100 world units (spec §9), read from the matched keys. */
export function nudgeStep(keys: string): number {
  const parts = keys.split('+');
  if (parts.includes('Shift') && parts.includes('Mod')) return 100;
  return parts.includes('Shift') ? 10 : 1;
}

const LEVEL: Record<Access, number> = { view: 0, edit: 1, own: 2 };
export function allows(granted: Access, needed: Access): boolean {
  return LEVEL[granted] >= LEVEL[needed];
}

const PHYSICAL: Record<string, string> = {
  BracketLeft: '[',
  BracketRight: ']',
  ...Object.fromEntries([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => [`Digit${d}`, String(d)])),
};

/** The canonical form of a key event, as in `Shortcut.keys` ("Mod+Shift+Z", "Shift+1", "?"). */
export function keyOf(e: {
  key: string;
  code?: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}): string {
  const parts: string[] = [];
  if (e.ctrlKey || e.metaKey) parts.push('Mod');
  if (e.altKey) parts.push('Alt');
  // Shift+digit and Shift+bracket: use the physical key (the character is "!" or "}" on a US layout)
  const physical = e.code ? PHYSICAL[e.code] : undefined;
  let key = e.shiftKey && physical ? physical : e.key;
  // "?" and "+" are typed with Shift: the character says it already
  const shiftIsInKey = !physical && key.length === 1 && !/[a-z0-9]/i.test(key);
  if (e.shiftKey && !shiftIsInKey) parts.push('Shift');
  if (key.length === 1) key = key.toUpperCase();
  parts.push(key);
  return parts.join('+');
}

/** The shortcut a key event means, if any (the first match in the table). */
export function findShortcut(key: string): Shortcut | undefined {
  return SHORTCUT_BY_KEY.get(key);
}
const SHORTCUT_BY_KEY = new Map<string, Shortcut>();
for (const s of SHORTCUTS) {
  const k = s.keys
    .split('+')
    .map((p, i, all) => (i === all.length - 1 && p.length === 1 ? p.toUpperCase() : p))
    .join('+');
  if (!SHORTCUT_BY_KEY.has(k)) SHORTCUT_BY_KEY.set(k, s);
}
