/** The board page's chat: one ChatModel per board client, the panel's open state and unread count. */
import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import { ChatModel, type ChatTransport } from './chatModel';

export function useBoardChat(client: ChatTransport) {
  const model = useMemo(() => new ChatModel(client), [client]);
  useEffect(() => model.attach(), [model]);
  const state = useSyncExternalStore(model.subscribe, model.getState);
  const toggle = useCallback(() => model.setOpen(!model.getState().open), [model]);
  const close = useCallback(() => model.setOpen(false), [model]);
  return { model, open: state.open, unread: state.unread, toggle, close };
}
