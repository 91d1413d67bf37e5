/** Small helpers the board chrome shares: the editor's state as a hook, shortcut labels, colours. */
import { useCallback } from 'react';
import { shallowEqual } from 'react-redux';
import { useSyncExternalStoreWithSelector } from 'use-sync-external-store/with-selector';
import type { BoardAccess } from '@wb/proto';
import { SHORTCUTS, allows, type Access, type ActionId, type Shortcut } from '../canvas/actions';
import type { EditorApi, EditorState } from '../canvas/editorApi';
import type { ToolId } from '../canvas/tools/types';

/**
 * The part of the editor's state a component shows: it re-renders only when that part changes
 * (compared field by field), not on every camera move or undo. Without this, an undo re-rendered
 * the whole board chrome (~20 ms on the editor bench).
 */
export function useEditorState<T>(editor: EditorApi, select: (state: EditorState) => T): T {
  // the contract declares methods: bind them rather than trust an implementation's arrow fields
  const subscribe = useCallback((fn: () => void) => editor.subscribe(fn), [editor]);
  const get = useCallback(() => editor.getState(), [editor]);
  return useSyncExternalStoreWithSelector(subscribe, get, get, select, shallowEqual);
}

/** The board's access as the shortcut table spells it ('none' never reaches a joined board). */
export function accessOf(access: BoardAccess | undefined, readOnly: boolean): Access {
  if (readOnly || !access || access === 'none' || access === 'view') return 'view';
  return access;
}
export const mayEdit = (access: Access) => allows(access, 'edit');

// shortcut chips: the locale's key names, Apple's symbols on a Mac (src/ui/keys.ts)
export { formatKeys, isMacPlatform, useFormatKeys } from '../../../ui/keys';

/** The first shortcut of a tool or an action (what tooltips show). */
export function shortcutOf(target: { tool: ToolId } | { action: ActionId }): Shortcut | undefined {
  return SHORTCUTS.find((s) =>
    'tool' in target
      ? 'tool' in s.target && s.target.tool === target.tool
      : 'action' in s.target && s.target.action === target.action,
  );
}

export const toHex = (c: number) => `#${(c & 0xffffff).toString(16).padStart(6, '0')}`;
export const fromHex = (hex: string) => parseInt(hex.replace('#', ''), 16) & 0xffffff;
export const toRgb = (c: number): [number, number, number] => [(c >> 16) & 255, (c >> 8) & 255, c & 255];
export const fromRgb = (rgb: readonly [number, number, number]) => ((rgb[0] << 16) | (rgb[1] << 8) | rgb[2]) >>> 0;

/** Phones: the toolbar starts collapsed and panels become bottom sheets (board.css uses 600 px too). */
export const PHONE_QUERY = '(max-width: 600px)';
export function isPhone(): boolean {
  return typeof matchMedia === 'function' && matchMedia(PHONE_QUERY).matches;
}
