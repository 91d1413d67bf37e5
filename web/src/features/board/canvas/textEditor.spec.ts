/// <reference types="jest" />
/** The in-place text editor: a real textarea over the shape, ended by Escape, Ctrl/⌘+Enter or blur. */
import { SHAPE_LIMITS } from '@wb/proto';
import { TEXT_LINE_HEIGHT, TextEditor, type TextEditorOptions } from './textEditor';

function setup(over: Partial<TextEditorOptions> = {}) {
  const container = document.createElement('div');
  document.body.appendChild(container);
  const outside = document.createElement('button');
  document.body.appendChild(outside);
  const editor = new TextEditor(container);
  const commits: string[] = [];
  let cancels = 0;
  editor.open({
    text: 'hi',
    screenRect: { x: 10, y: 20, width: 300, height: 40 },
    zoom: 2,
    font: 'Open Sans',
    fontSize: 16,
    color: '#333333',
    onCommit: (t) => commits.push(t),
    onCancel: () => cancels++,
    ...over,
  });
  const ta = container.querySelector('textarea')!;
  const type = (text: string) => {
    ta.value = text;
    ta.dispatchEvent(new Event('input', { bubbles: true }));
  };
  const key = (key: string, init: KeyboardEventInit = {}) => {
    const e = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
    ta.dispatchEvent(e);
    return e;
  };
  const cleanup = () => {
    container.remove();
    outside.remove();
  };
  return { container, outside, editor, ta, commits, cancels: () => cancels, type, key, cleanup };
}

describe('TextEditor', () => {
  it('lays a focused textarea over the box, styled like the painted text', () => {
    const t = setup({ background: '#fff59d', align: 'center' });
    expect(t.editor.isOpen).toBe(true);
    expect(document.activeElement).toBe(t.ta);
    expect(t.ta.value).toBe('hi');
    expect(t.ta.selectionStart).toBe(2);
    expect(t.ta.maxLength).toBe(SHAPE_LIMITS.maxText);
    const s = t.ta.style;
    expect([s.position, s.left, s.top, s.width]).toEqual(['absolute', '10px', '20px', '300px']);
    expect(s.fontSize).toBe('32px'); // 16 world units at zoom 2
    expect(s.fontFamily).toContain('Open Sans');
    expect(s.lineHeight).toBe(String(TEXT_LINE_HEIGHT));
    expect(s.textAlign).toBe('center');
    expect(s.background).toContain('rgb(255, 245, 157)');
    t.cleanup();
  });

  it('Escape commits what was typed and removes the textarea', () => {
    const t = setup();
    t.type('hello\nthere');
    const e = t.key('Escape');
    expect(e.defaultPrevented).toBe(true);
    expect(t.commits).toEqual(['hello\nthere']);
    expect(t.editor.isOpen).toBe(false);
    expect(t.container.querySelector('textarea')).toBeNull();
    t.cleanup();
  });

  it('clicking away (blur) commits; Ctrl/⌘+Enter commits; plain Enter is a new line', () => {
    const a = setup();
    a.type('blurred');
    a.outside.focus();
    expect(a.commits).toEqual(['blurred']);
    expect(a.editor.isOpen).toBe(false);
    a.cleanup();

    const b = setup();
    b.type('x');
    expect(b.key('Enter').defaultPrevented).toBe(false);
    expect(b.editor.isOpen).toBe(true);
    b.key('Enter', { ctrlKey: true });
    expect(b.commits).toEqual(['x']);
    b.cleanup();

    const c = setup();
    c.type('y');
    c.key('Enter', { metaKey: true });
    expect(c.commits).toEqual(['y']);
    c.cleanup();
  });

  it('nothing changed: onCancel, not onCommit', () => {
    const t = setup();
    t.key('Escape');
    expect(t.commits).toEqual([]);
    expect(t.cancels()).toBe(1);
    t.cleanup();
  });

  it('keys never reach the board shortcuts; Escape while composing belongs to the IME', () => {
    const t = setup();
    const seen: string[] = [];
    const onKey = (e: KeyboardEvent) => seen.push(e.key);
    document.addEventListener('keydown', onKey);
    const onPaste = () => seen.push('paste');
    document.addEventListener('paste', onPaste);
    t.key('Backspace');
    t.key('z', { ctrlKey: true });
    t.ta.dispatchEvent(new Event('paste', { bubbles: true }));
    t.key('Escape', { isComposing: true });
    expect(t.editor.isOpen).toBe(true);
    expect(seen).toEqual([]);
    document.removeEventListener('keydown', onKey);
    document.removeEventListener('paste', onPaste);
    t.cleanup();
  });

  it('close() ends the edit like a click-away; opening again ends the previous edit first', () => {
    const t = setup();
    t.type('first');
    const commits2: string[] = [];
    t.editor.open({
      text: '',
      screenRect: { x: 0, y: 0, width: 100, height: 20 },
      zoom: 1,
      font: 'Open Sans',
      fontSize: 16,
      color: '#000000',
      onCommit: (s) => commits2.push(s),
      onCancel: () => undefined,
    });
    expect(t.commits).toEqual(['first']);
    expect(t.container.querySelectorAll('textarea')).toHaveLength(1);
    t.container.querySelector('textarea')!.value = 'second';
    t.editor.close();
    t.editor.close();
    expect(commits2).toEqual(['second']);
    expect(t.editor.isOpen).toBe(false);
    t.cleanup();
  });

  it('grows with its content, never below the box', () => {
    const t = setup();
    Object.defineProperty(t.ta, 'scrollHeight', { configurable: true, get: () => 90 });
    t.type('a\nb\nc');
    expect(t.ta.style.height).toBe('90px');
    Object.defineProperty(t.ta, 'scrollHeight', { configurable: true, get: () => 10 });
    t.type('a');
    expect(t.ta.style.height).toBe('40px');
    t.cleanup();
  });
});
