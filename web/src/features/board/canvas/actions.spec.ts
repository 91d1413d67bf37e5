/**
 * @jest-environment node
 */
/// <reference types="jest" />
/** The shortcut table: one meaning per key, every tool reachable. */
import { findShortcut, keyOf, nudgeStep, SHORTCUTS } from './actions';
import { TOOL_IDS } from './tools/types';

describe('shortcuts', () => {
  it('no two entries share keys (a key does one thing)', () => {
    const seen = new Map<string, string>();
    for (const s of SHORTCUTS) {
      const key = s.keys.toLowerCase();
      expect([key, seen.get(key)]).toEqual([key, undefined]);
      seen.set(key, JSON.stringify(s.target));
    }
  });

  it('every tool has a shortcut', () => {
    const tools = new Set(SHORTCUTS.flatMap((s) => ('tool' in s.target ? [s.target.tool] : [])));
    expect(TOOL_IDS.filter((id) => !tools.has(id))).toEqual([]);
  });
});

describe('nudges (spec §9: 1, Shift 10, Ctrl/⌘+Shift 100)', () => {
  const press = (key: string, mods: { shift?: boolean; ctrl?: boolean; meta?: boolean } = {}) => {
    const s = findShortcut(
      keyOf({ key, shiftKey: !!mods.shift, ctrlKey: !!mods.ctrl, metaKey: !!mods.meta, altKey: false }),
    );
    return s && 'action' in s.target ? { action: s.target.action, step: nudgeStep(s.keys) } : null;
  };
  const DIRS = [
    ['ArrowLeft', 'nudgeLeft'],
    ['ArrowRight', 'nudgeRight'],
    ['ArrowUp', 'nudgeUp'],
    ['ArrowDown', 'nudgeDown'],
  ] as const;

  it.each(DIRS)('%s moves by 1, 10 and 100 with every modifier spelling', (key, action) => {
    expect(press(key)).toEqual({ action, step: 1 });
    expect(press(key, { shift: true })).toEqual({ action, step: 10 });
    expect(press(key, { shift: true, ctrl: true })).toEqual({ action, step: 100 });
    expect(press(key, { shift: true, meta: true })).toEqual({ action, step: 100 });
  });

  it('Ctrl/⌘ without Shift is not a nudge (left to the browser)', () => {
    expect(press('ArrowRight', { ctrl: true })).toBeNull();
    expect(press('ArrowRight', { meta: true })).toBeNull();
  });
});
