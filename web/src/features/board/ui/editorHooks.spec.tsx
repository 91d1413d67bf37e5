import { act, render } from '@testing-library/react';
import { useEditorState } from './editorHooks';
import { fakeEditor } from './fakeEditor';

describe('useEditorState', () => {
  test('a component re-renders only when the part of the state it selects changes', () => {
    const editor = fakeEditor();
    let renders = 0;
    function UndoButtons() {
      renders++;
      const s = useEditorState(editor, (st) => ({ canUndo: st.canUndo, canRedo: st.canRedo }));
      return <p>{`${s.canUndo} ${s.canRedo}`}</p>;
    }
    const { container } = render(<UndoButtons />);
    expect(renders).toBe(1);
    // a camera move and a new state object with the same flags: no render
    act(() => editor.update({ camera: { x: 10, y: 0, zoom: 1 } }));
    act(() => editor.update({}));
    expect(renders).toBe(1);
    act(() => editor.update({ canUndo: true }));
    expect(renders).toBe(2);
    expect(container.textContent).toBe('true false');
  });
});
