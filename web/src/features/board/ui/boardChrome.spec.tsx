/// <reference types="jest" />
/**
 * The board's chrome against a fake EditorApi (jsdom has no canvas): tool buttons drive the
 * editor and reflect its state, viewers get no editing tools or shortcuts, power tools on the
 * starter plan open the upgrade prompt, the owner renames in place, the minimap centres.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { useState, type ReactNode } from 'react';
import { FALLBACK_STARTER_PLAN, PLANS } from '@wb/proto';
import { makeStore } from '../../../app/store';
import { i18n, loadNamespace, setLocale } from '../../../i18n/i18n';
import { Toasts } from '../../../ui/Toasts';
import { TOOLTIP_SHOW_MS } from '../../../ui/Tooltip';
import { TOOL_IDS } from '../canvas/tools/types';
import { BoardUpgradeDialog } from './BoardUpgrade';
import { BoardHeader, TitleEditor } from './BoardHeader';
import { formatKeys } from './editorHooks';
import { fakeEditor } from './fakeEditor';
import { Minimap, MINIMAP_HEIGHT, MINIMAP_WIDTH, minimapTransform } from './Minimap';
import { SelectionBar } from './SelectionBar';
import { shortcutRows, ShortcutsPanel } from '../../../ui/ShortcutsPanel';
import { StylePanel } from './StylePanel';
import { Toolbar } from './Toolbar';
import { ZoomControls } from './ZoomControls';

type Calls = { method: string; url: string; body: unknown }[];
function stubApi(answers: Record<string, { status?: number; body: unknown }>): Calls {
  const calls: Calls = [];
  globalThis.fetch = jest.fn(async (url: string, init: RequestInit) => {
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, url, body });
    const a = answers[`${method} ${url}`] ?? { status: 404, body: { message: 'nope', code: 'ERR_NOT_FOUND' } };
    const status = a.status ?? 200;
    return {
      ok: status < 400,
      status,
      statusText: '',
      headers: { get: (h: string) => (h === 'content-type' ? 'application/json' : null) },
      text: async () => JSON.stringify(a.body),
    };
  }) as unknown as typeof fetch;
  return calls;
}

function wrap(children: ReactNode) {
  return (
    <Provider store={makeStore()}>
      <MemoryRouter>
        <I18nextProvider i18n={i18n}>
          {children}
          <Toasts />
        </I18nextProvider>
      </MemoryRouter>
    </Provider>
  );
}

beforeAll(async () => {
  // jsdom has no PointerEvent: without it fireEvent.pointerDown drops clientX/clientY
  if (typeof window.PointerEvent === 'undefined')
    Object.assign(window, {
      PointerEvent: class extends MouseEvent {
        pointerId: number;
        constructor(type: string, init: PointerEventInit = {}) {
          super(type, init);
          this.pointerId = init.pointerId ?? 0;
        }
      },
    });
  await loadNamespace('board', 'en');
  await loadNamespace('boards', 'en');
});
beforeEach(() => {
  stubApi({});
});

function ToolbarHarness({ editor, readOnly = false }: { editor: ReturnType<typeof fakeEditor>; readOnly?: boolean }) {
  const [collapsed, setCollapsed] = useState(false);
  return (
    <Toolbar
      editor={editor}
      readOnly={readOnly}
      collapsible
      collapsed={collapsed}
      onCollapsedChange={setCollapsed}
      onShortcuts={() => undefined}
    />
  );
}

describe('Toolbar', () => {
  test('one data-tool button per tool (shapes behind the flyout); a click sets the tool and shows it pressed', () => {
    const editor = fakeEditor();
    const { container } = render(wrap(<ToolbarHarness editor={editor} />));
    const pen = container.querySelector<HTMLButtonElement>('[data-tool="pen"]')!;
    expect(pen.getAttribute('aria-label')).toBe('Pen');
    expect(pen.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(pen);
    expect(editor.calls).toContainEqual({ method: 'setTool', args: ['pen'] });
    expect(pen.getAttribute('aria-pressed')).toBe('true');
    // the view switching tools itself (text → select after placing) shows too
    act(() => editor.update({ tool: 'select' }));
    expect(pen.getAttribute('aria-pressed')).toBe('false');

    fireEvent.click(container.querySelector('[data-tool="rectangle"]')!);
    const menu = screen.getByRole('group', { name: 'Shapes' });
    fireEvent.click(within(menu).getByRole('button', { name: 'Star' }));
    expect(editor.calls).toContainEqual({ method: 'setTool', args: ['star'] });
    // the flyout shows the last shape used
    expect(container.querySelector('[data-tool="star"]')).not.toBeNull();
    fireEvent.click(container.querySelector('[data-tool="star"]')!);
    // (the flyout is a kit popover in <body>)
    const ids = new Set([...document.querySelectorAll('[data-tool]')].map((b) => b.getAttribute('data-tool')));
    expect([...TOOL_IDS].filter((id) => !ids.has(id))).toEqual([]);
  });

  test('the shapes flyout: focus moves into it, Escape closes it and focus returns to its button', async () => {
    const editor = fakeEditor();
    const { container } = render(wrap(<ToolbarHarness editor={editor} />));
    const button = container.querySelector<HTMLButtonElement>('.tool-flyout button[aria-haspopup]')!;
    act(() => button.focus());
    fireEvent.click(button);
    const shapes = screen.getByRole('group', { name: 'Shapes' });
    await waitFor(() =>
      expect(screen.getByRole('dialog', { name: 'Shapes' }).contains(document.activeElement)).toBe(true),
    );
    expect(shapes.querySelector('[data-tool="rectangle"]')!.getAttribute('aria-pressed')).toBe('true');
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('group', { name: 'Shapes' })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(button));
  });

  test('the tooltip shows the name and the shortcut after 500 ms', () => {
    jest.useFakeTimers();
    try {
      const editor = fakeEditor();
      const { container } = render(wrap(<ToolbarHarness editor={editor} />));
      const anchor = container.querySelector('[data-tool="eraser"]')!.parentElement!;
      fireEvent.mouseEnter(anchor);
      act(() => void jest.advanceTimersByTime(TOOLTIP_SHOW_MS - 10));
      expect(screen.queryByRole('tooltip')).toBeNull();
      act(() => void jest.advanceTimersByTime(20));
      expect(screen.getByRole('tooltip').textContent).toBe('EraserE');
      fireEvent.mouseLeave(anchor);
      act(() => void jest.advanceTimersByTime(60));
      expect(screen.queryByRole('tooltip')).toBeNull();
    } finally {
      jest.useRealTimers();
    }
  });

  test("the shapes button's tooltip is hidden while its flyout is open (it covered the first shape)", () => {
    jest.useFakeTimers();
    try {
      const editor = fakeEditor();
      const { container } = render(wrap(<ToolbarHarness editor={editor} />));
      const button = container.querySelector<HTMLButtonElement>('.tool-flyout button[aria-haspopup]')!;
      fireEvent.mouseEnter(button.parentElement!);
      act(() => void jest.advanceTimersByTime(TOOLTIP_SHOW_MS + 10));
      expect(screen.getByRole('tooltip').textContent).toBe('Shapes: RectangleR');
      fireEvent.click(button);
      expect(screen.getByRole('group', { name: 'Shapes' })).toBeTruthy();
      expect(screen.queryByRole('tooltip')).toBeNull();
      // still hovered, still open: no tip even after the delay
      act(() => void jest.advanceTimersByTime(TOOLTIP_SHOW_MS + 10));
      expect(screen.queryByRole('tooltip')).toBeNull();
      fireEvent.click(button);
      act(() => void jest.advanceTimersByTime(TOOLTIP_SHOW_MS + 10));
      expect(screen.getByRole('tooltip').textContent).toBe('Shapes: RectangleR');
    } finally {
      jest.useRealTimers();
    }
  });

  test('viewers keep select, hand and laser; every editing tool and undo are disabled', () => {
    const editor = fakeEditor({ canUndo: true });
    const { container } = render(wrap(<ToolbarHarness editor={editor} readOnly />));
    const enabled = [...container.querySelectorAll<HTMLButtonElement>('[data-tool]')]
      .filter((b) => !b.disabled)
      .map((b) => b.dataset.tool);
    expect(enabled.sort()).toEqual(['hand', 'laser', 'select']);
    expect(container.querySelector<HTMLButtonElement>('[data-action="undo"]')!.disabled).toBe(true);
    fireEvent.click(container.querySelector('[data-tool="pen"]')!);
    expect(editor.calls.filter((c) => c.method === 'setTool')).toEqual([]);
  });

  test('undo/redo follow the editor and run the commands; the bar collapses to the current tool', () => {
    const editor = fakeEditor({ canUndo: true, tool: 'pen' });
    const { container } = render(wrap(<ToolbarHarness editor={editor} />));
    const undo = container.querySelector<HTMLButtonElement>('[data-action="undo"]')!;
    expect(undo.disabled).toBe(false);
    expect(container.querySelector<HTMLButtonElement>('[data-action="redo"]')!.disabled).toBe(true);
    fireEvent.click(undo);
    expect(editor.calls).toContainEqual({ method: 'run', args: ['undo'] });
    fireEvent.click(screen.getByRole('button', { name: 'Collapse the tool bar' }));
    expect(container.querySelectorAll('[data-tool]')).toHaveLength(1);
    expect(container.querySelector('[data-tool="pen"]')).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Expand the tool bar' }));
    expect(container.querySelectorAll('[data-tool]').length).toBeGreaterThan(10);
  });
});

describe('ShortcutsPanel', () => {
  const t = (k: string) => k;
  test('grouped into tools, editing, view and panels; viewers see no editing shortcuts', () => {
    const pc = (k: string) => formatKeys(k, false);
    const edit = shortcutRows('edit', pc, t);
    expect([...edit.keys()]).toEqual(['tools', 'editing', 'view', 'panels']);
    expect(edit.get('editing')!.find((r) => r.id === 'action:redo')!.keys).toEqual(['Ctrl+Shift+Z', 'Ctrl+Y']);
    expect(edit.get('tools')!.find((r) => r.id === 'presets')!.keys).toEqual(['1–9']);
    expect(edit.get('editing')!.find((r) => r.id === 'action:nudgeRight')!.keys).toEqual([
      '→',
      'Shift+→',
      'Ctrl+Shift+→',
    ]);
    const view = shortcutRows('view', pc, t);
    expect(view.get('tools')!.map((r) => r.id)).toEqual(['tool:select', 'tool:hand', 'tool:laser']);
    // a viewer may still copy, select all and deselect: those need only view access
    expect(view.get('editing')!.map((r) => r.id)).toEqual(['action:copy', 'action:selectAll', 'action:deselect']);
  });

  test('Mod is ⌘ on a Mac and Ctrl elsewhere', () => {
    expect(formatKeys('Mod+Shift+Z', true)).toBe('⌘⇧Z');
    expect(formatKeys('Mod+Shift+Z', false)).toBe('Ctrl+Shift+Z');
    expect(formatKeys('+', false)).toBe('+');
    expect(formatKeys('ArrowLeft', false)).toBe('←');
  });

  test("chips use each locale's key names; a Mac shows ⌘ ⇧ ⌥ whatever the language", () => {
    const de = { ctrl: 'Strg', shift: 'Umschalt', alt: 'Alt', delete: 'Entf', escape: 'Esc' };
    expect(formatKeys('Mod+Shift+Z', false, de)).toBe('Strg+Umschalt+Z');
    expect(formatKeys('Delete', false, de)).toBe('Entf');
    expect(formatKeys('Mod+Shift+Z', true, de)).toBe('⌘⇧Z');
    expect(formatKeys('Alt+Shift+ArrowUp', true, de)).toBe('⌥⇧↑');
  });

  test('German shortcut chips read Strg and Umschalt (all ten locales have the names)', async () => {
    await loadNamespace('board', 'de');
    await setLocale('de');
    try {
      render(wrap(<ShortcutsPanel access="own" onClose={() => undefined} />));
      const dialog = screen.getByRole('dialog');
      const chips = [...dialog.querySelectorAll('kbd')].map((k) => k.textContent);
      expect(chips).toContain('Strg+Umschalt+Z');
      expect(chips).toContain('Strg+Umschalt+→');
      expect(chips).toContain('Entf');
      expect(chips.filter((c) => /Ctrl|Shift/.test(c ?? ''))).toEqual([]);
      expect(dialog.textContent).toContain('mit Umschalt um 10, mit Strg+Umschalt um 100');
    } finally {
      await act(() => setLocale('en'));
    }
  });

  test('the modal lists the allowed rows only', () => {
    render(wrap(<ShortcutsPanel access="view" onClose={() => undefined} />));
    const dialog = screen.getByRole('dialog', { name: 'Board shortcuts' });
    expect(within(dialog).queryByText('Pen')).toBeNull();
    expect(within(dialog).queryByText('Undo')).toBeNull();
    expect(within(dialog).getByText('Laser pointer')).toBeTruthy();
    expect(within(dialog).getByText('Minimap')).toBeTruthy();
  });
});

describe('SelectionBar', () => {
  test('runs commands and disables what cannot run', () => {
    const editor = fakeEditor({ selection: { count: 2, kinds: ['pen'], locked: false, grouped: false } });
    editor.enabled = new Set(['copy', 'delete', 'group']);
    const { container } = render(wrap(<SelectionBar editor={editor} powerTools onUpgrade={() => undefined} />));
    expect(container.querySelector<HTMLButtonElement>('[data-action="paste"]')!.disabled).toBe(true);
    fireEvent.click(container.querySelector('[data-action="delete"]')!);
    fireEvent.click(container.querySelector('[data-action="group"]')!);
    expect(editor.calls.filter((c) => c.method === 'run').map((c) => c.args[0])).toEqual(['delete', 'group']);
  });

  test('on the starter plan a power tool opens the upgrade prompt instead of running', async () => {
    const editor = fakeEditor({ selection: { count: 1, kinds: ['shape'], locked: false, grouped: false } });
    editor.enabled = new Set(['duplicate', 'copy']);
    stubApi({
      'GET /api/user': { body: { id: 7, name: 'Ann', email: 'a@x.io' } },
      'GET /api/user/settings': { body: {} },
      'GET /api/plan': { body: PLANS.starter },
      'GET /api/billing/free-trial': { body: { canHaveFreeTrial: true } },
    });
    function Page() {
      const [upgrade, setUpgrade] = useState(false);
      return (
        <>
          <SelectionBar editor={editor} powerTools={false} onUpgrade={() => setUpgrade(true)} />
          {upgrade ? <BoardUpgradeDialog reason="powerTools" maxPresets={3} onClose={() => setUpgrade(false)} /> : null}
        </>
      );
    }
    const { container } = render(wrap(<Page />));
    const dup = container.querySelector<HTMLButtonElement>('[data-action="duplicate"]')!;
    expect(dup.getAttribute('aria-label')).toBe('Duplicate (paid plans)');
    fireEvent.click(dup);
    expect(editor.calls.filter((c) => c.method === 'run')).toEqual([]);
    const dialog = screen.getByRole('dialog', { name: 'Power tools are part of the paid plans' });
    await waitFor(() => expect(dialog.querySelector('.upgrade-prompt')!.getAttribute('data-variant')).toBe('tryFree'));
    // free commands still run
    fireEvent.click(container.querySelector('[data-action="copy"]')!);
    expect(editor.calls.filter((c) => c.method === 'run').map((c) => c.args[0])).toEqual(['copy']);
  });
});

describe('StylePanel', () => {
  test('pen: colour, width and pattern go to setStyle; pen-only goes to setPenOnly', () => {
    const editor = fakeEditor({ tool: 'pen' });
    render(
      wrap(
        <StylePanel
          editor={editor}
          presets={[]}
          maxPresets={3}
          onSavePresets={() => undefined}
          onUpgrade={() => undefined}
        />,
      ),
    );
    // swatches are announced by their colour's name, not a hex code
    expect(screen.queryByRole('button', { name: /#[0-9a-f]{6}/i })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Red' }));
    fireEvent.change(screen.getByLabelText('Width'), { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Dashed' }));
    fireEvent.click(screen.getByLabelText(/Stylus only/));
    expect(editor.calls).toEqual([
      { method: 'setStyle', args: [{ strokeColor: 0xe53935 }] },
      { method: 'setStyle', args: [{ strokeWidth: 12 }] },
      { method: 'setStyle', args: [{ linePattern: 'dashed' }] },
      { method: 'setPenOnly', args: [true] },
    ]);
    expect(screen.queryByText('Fill')).toBeNull();
  });

  test('saving a preset beyond the plan limit opens the upgrade prompt', () => {
    const editor = fakeEditor({ tool: 'pen' });
    const saved: unknown[] = [];
    let upgrades = 0;
    const preset = { color: [0, 0, 0] as [number, number, number], width: 3, pattern: 'pen' as const };
    const { rerender } = render(
      wrap(
        <StylePanel
          editor={editor}
          presets={[preset]}
          maxPresets={FALLBACK_STARTER_PLAN.limits.maxPresets}
          onSavePresets={(p) => saved.push(p)}
          onUpgrade={() => upgrades++}
        />,
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save current as preset' }));
    expect(saved).toHaveLength(1);
    rerender(
      wrap(
        <StylePanel
          editor={editor}
          presets={[preset, preset, preset]}
          maxPresets={3}
          onSavePresets={(p) => saved.push(p)}
          onUpgrade={() => upgrades++}
        />,
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save current as preset' }));
    expect(saved).toHaveLength(1);
    expect(upgrades).toBe(1);
  });

  test('shapes get fill, text gets font and size, a selection edits its kinds', () => {
    const editor = fakeEditor({ tool: 'rectangle' });
    const { unmount } = render(
      wrap(<StylePanel editor={editor} presets={[]} maxPresets={3} onSavePresets={null} onUpgrade={() => undefined} />),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Transparent' }));
    expect(editor.calls[0]).toEqual({ method: 'setStyle', args: [{ fill: 'semi', fillColor: 0 }] });
    unmount();
    const text = fakeEditor({ selection: { count: 1, kinds: ['text'], locked: false, grouped: false } });
    render(
      wrap(<StylePanel editor={text} presets={[]} maxPresets={3} onSavePresets={null} onUpgrade={() => undefined} />),
    );
    expect(screen.getByRole('heading', { name: 'Selection (1)' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Font'), { target: { value: 'Georgia' } });
    expect(text.calls).toEqual([{ method: 'setStyle', args: [{ textFont: 'Georgia' }] }]);
    expect(screen.queryByText('Presets')).toBeNull();
  });
});

describe('TitleEditor', () => {
  test('the owner renames in place: Enter saves through the boards PUT, Escape cancels', async () => {
    const calls = stubApi({ 'PUT /api/boards/b1': { body: { id: 'b1', title: 'Physics' } } });
    const saved: string[] = [];
    render(wrap(<TitleEditor boardId="b1" title="Maths" onSaved={(t) => saved.push(t)} />));
    fireEvent.click(screen.getByRole('button', { name: 'Rename the board Maths' }));
    const input = screen.getByRole('textbox', { name: 'Board name' });
    fireEvent.change(input, { target: { value: 'Nope' } });
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByRole('textbox')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Rename the board Maths' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Board name' }), { target: { value: '  Physics ' } });
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Board name' }), { key: 'Enter' });
    await waitFor(() => expect(saved).toEqual(['Physics']));
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([
      { method: 'PUT', url: '/api/boards/b1', body: { title: 'Physics' } },
    ]);
  });

  test('a refused rename is toasted and the old title stays', async () => {
    stubApi({ 'PUT /api/boards/b1': { status: 403, body: { message: 'no', code: 'ERR_FORBIDDEN' } } });
    const saved: string[] = [];
    render(wrap(<TitleEditor boardId="b1" title="Maths" onSaved={(t) => saved.push(t)} />));
    fireEvent.click(screen.getByRole('button', { name: 'Rename the board Maths' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Board name' }), { target: { value: 'Physics' } });
    fireEvent.blur(screen.getByRole('textbox', { name: 'Board name' }));
    await waitFor(() => expect(document.querySelector('.toast')).not.toBeNull());
    expect(saved).toEqual([]);
    expect(screen.getByRole('button', { name: 'Rename the board Maths' })).toBeTruthy();
  });
});

describe('BoardHeader', () => {
  test("the board menu holds a phone's share, files and backgrounds; a picked background is saved", async () => {
    const calls = stubApi({ 'PUT /api/boards/b1': { body: { id: 'b1', background: 'blackboard' } } });
    const picked: string[] = [];
    let filesToggled = 0;
    const { container } = render(
      wrap(
        <BoardHeader
          boardId="b1"
          title="Maths"
          owner
          guest={false}
          plan={PLANS.standard}
          background="empty"
          onBackground={(bg) => picked.push(bg)}
          presence={[]}
          selfPeerId={undefined}
          onExport={() => {}}
          save={null}
          files={{ open: false, onToggle: () => filesToggled++ }}
        />,
      ),
    );
    // the wide bar's chips (hidden on phones by board.css) and the menu's phone items
    expect(container.querySelector('.wide-only[data-action="share"]')).not.toBeNull();
    expect(container.querySelector('.wide-only[data-action="files"]')).not.toBeNull();
    fireEvent.click(container.querySelector('[data-action="board-menu"]')!);
    const menu = document.querySelector('.board-menu-items')!;
    expect([...menu.querySelectorAll('[data-action]')].map((b) => b.getAttribute('data-action'))).toEqual([
      'menu-share',
      'menu-files',
      'export',
    ]);
    fireEvent.click(menu.querySelector('[data-action="menu-files"]')!);
    expect(filesToggled).toBe(1);
    expect(document.querySelector('.board-menu-items')).toBeNull();
    fireEvent.click(container.querySelector('[data-action="board-menu"]')!);
    // the current background changes nothing; another is saved through the boards PUT
    fireEvent.click(document.querySelector('.board-menu-items [data-background="empty"]')!);
    fireEvent.click(container.querySelector('[data-action="board-menu"]')!);
    fireEvent.click(document.querySelector('.board-menu-items [data-background="blackboard"]')!);
    await waitFor(() => expect(picked).toEqual(['blackboard']));
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([
      { method: 'PUT', url: '/api/boards/b1', body: { background: 'blackboard' } },
    ]);
  });

  test("a viewer's board menu holds only export", () => {
    stubApi({});
    const { container } = render(
      wrap(
        <BoardHeader
          boardId="b1"
          title="Maths"
          owner={false}
          guest={false}
          plan={PLANS.starter}
          background="empty"
          onBackground={() => {}}
          presence={[]}
          selfPeerId={undefined}
          onExport={() => {}}
          save={null}
        />,
      ),
    );
    fireEvent.click(container.querySelector('[data-action="board-menu"]')!);
    const menu = document.querySelector('.board-menu-items')!;
    // every button of the menu (not the popover's hidden Dismiss buttons)
    expect([...menu.querySelectorAll('.board-menu-list button')].map((b) => b.getAttribute('data-action'))).toEqual([
      'export',
    ]);
  });
});

describe('Zoom and minimap', () => {
  test('zoom buttons run their commands and show the level', () => {
    const editor = fakeEditor({ camera: { x: 0, y: 0, zoom: 1.5 } });
    let toggled = 0;
    const { container } = render(
      wrap(<ZoomControls editor={editor} minimapOpen={false} onToggleMinimap={() => toggled++} />),
    );
    expect(screen.getByText('150 %')).toBeTruthy();
    for (const id of ['zoomOut', 'zoomIn', 'zoomFit', 'zoom100'])
      fireEvent.click(container.querySelector(`[data-action="${id}"]`)!);
    fireEvent.click(container.querySelector('[data-action="toggleMinimap"]')!);
    expect(editor.calls.map((c) => c.args[0])).toEqual(['zoomOut', 'zoomIn', 'zoomFit', 'zoom100']);
    expect(toggled).toBe(1);
  });

  test('a click on the minimap centres the board on that world point', () => {
    jest.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
    const editor = fakeEditor({ view: { minX: 0, minY: 0, maxX: 800, maxY: 600 } });
    editor.items.push({ bounds: { minX: 1000, minY: 1000, maxX: 2000, maxY: 1400 } });
    render(wrap(<Minimap editor={editor} colors={new Map()} />));
    const map = screen.getByRole('img', { name: /Minimap of the board/ });
    const m = minimapTransform({ minX: 0, minY: 0, maxX: 2000, maxY: 1400 });
    const target = m.toMap(1500, 1200);
    fireEvent.pointerDown(map, { clientX: target.x, clientY: target.y, pointerId: 1 });
    const call = editor.calls.find((c) => c.method === 'centerOn')!;
    expect(call.args[0]).toBeCloseTo(1500, 0);
    expect(call.args[1]).toBeCloseTo(1200, 0);
    expect(MINIMAP_WIDTH / MINIMAP_HEIGHT).toBeCloseTo(200 / 140);
  });
});
