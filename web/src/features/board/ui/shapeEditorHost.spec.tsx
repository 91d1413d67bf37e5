/// <reference types="jest" />
/**
 * The formula/graph panel takes the keyboard (issue 26 #6): focus moves into it once it has
 * loaded, its keys are marked as its own (the board's shortcuts skip them) and Escape closes it,
 * from inside and with the focus on the board.
 */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { GraphShape } from '@wb/proto';
import { i18n, loadNamespace } from '../../../i18n/i18n';
import { DEFAULT_GRAPH_SPEC } from '../graph/graphSpec';
import type { Scene } from '../canvas/scene';
import { fakeEditor } from './fakeEditor';
import { ShapeEditorHost } from './ShapeEditorHost';

const graph: GraphShape = {
  id: 'g1',
  kind: 'graph',
  creator: 1,
  z: 'a0',
  x: 0,
  y: 0,
  w: 480,
  h: 320,
  spec: JSON.stringify(DEFAULT_GRAPH_SPEC),
};

function setup() {
  const editor = fakeEditor({ editing: { id: 'g1', kind: 'graph' } });
  (editor as { scene: Scene }).scene = {
    ...editor.scene,
    get: (id: string) => (id === 'g1' && editor.getState().editing ? { shape: graph } : undefined),
  } as unknown as Scene;
  const view = render(
    <I18nextProvider i18n={i18n}>
      <ShapeEditorHost editor={editor} advancedGraphs onUpgrade={() => undefined} />
    </I18nextProvider>,
  );
  return { editor, ...view };
}

beforeAll(() => loadNamespace('board', 'en'));

describe('ShapeEditorHost', () => {
  test('the opened graph panel takes the focus: its first expression field', async () => {
    setup();
    const input = await screen.findByLabelText('Function 1: y =');
    await waitFor(() => expect(document.activeElement).toBe(input));
    // keys typed in it are the panel's (boardView skips targets inside [data-own-keys])
    expect(input.closest('[data-own-keys]')).not.toBeNull();
  });

  test('Escape in the panel closes it', async () => {
    const { editor } = setup();
    const input = await screen.findByLabelText('Function 1: y =');
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(editor.calls.filter((c) => c.method === 'closeEditor')).toHaveLength(1);
  });

  test('Escape with the focus on the board closes it too', async () => {
    const { editor } = setup();
    await screen.findByLabelText('Function 1: y =');
    act(() => document.body.focus());
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(editor.calls.filter((c) => c.method === 'closeEditor')).toHaveLength(1);
    expect(screen.queryByLabelText('Function 1: y =')).toBeNull();
  });
});
