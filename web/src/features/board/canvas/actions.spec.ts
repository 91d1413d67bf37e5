/**
 * @jest-environment node
 */
/// <reference types="jest" />
/** The shortcut table: one meaning per key, every tool reachable. */
import { SHORTCUTS } from './actions';
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
