/// <reference types="jest" />
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import type { GraphShape } from '@wb/proto';
import { loadNamespace } from '../../../i18n/i18n';
import GraphPanel, { GRAPH_COMMIT_DELAY_MS } from './GraphPanel';
import { DEFAULT_GRAPH_SPEC, parseGraphSpec, type GraphSpec } from './graphSpec';

const shape = (spec: GraphSpec | string = DEFAULT_GRAPH_SPEC): GraphShape => ({
  id: 'g',
  kind: 'graph',
  creator: 1,
  z: 'a0',
  x: 0,
  y: 0,
  w: 480,
  h: 320,
  spec: typeof spec === 'string' ? spec : JSON.stringify(spec),
});

function setup(advancedGraphs: boolean, s = shape()) {
  const update = jest.fn();
  const close = jest.fn();
  const onUpgrade = jest.fn();
  const view = render(
    <GraphPanel shape={s} update={update} close={close} advancedGraphs={advancedGraphs} onUpgrade={onUpgrade} />,
  );
  /** the specs committed so far */
  const specs = () => update.mock.calls.map(([patch]: [{ spec: string }]) => parseGraphSpec(patch.spec).spec);
  return { ...view, update, close, onUpgrade, specs };
}

// the panel's strings are the `board` namespace (English here, as the board loads it)
beforeAll(() => loadNamespace('board', 'en'));
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('GraphPanel', () => {
  it('commits typing 300 ms after the last keystroke, as one spec', () => {
    const { update, specs } = setup(false);
    const input = screen.getByLabelText('Function 1: y =');
    fireEvent.change(input, { target: { value: 'sin' } });
    fireEvent.change(input, { target: { value: 'sin x' } });
    act(() => void jest.advanceTimersByTime(GRAPH_COMMIT_DELAY_MS - 1));
    expect(update).not.toHaveBeenCalled();
    act(() => void jest.advanceTimersByTime(1));
    expect(specs()).toEqual([
      { ...DEFAULT_GRAPH_SPEC, functions: [{ ...DEFAULT_GRAPH_SPEC.functions[0], expr: 'sin x' }] },
    ]);
  });

  it("shows a bad expression's error under its input as an alert", () => {
    setup(false);
    const input = screen.getByLabelText('Function 1: y =');
    fireEvent.change(input, { target: { value: '2*sinn(x)' } });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe("Unknown function 'sinn' at 3");
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe(alert.id);
    fireEvent.change(input, { target: { value: '2 sin x' } });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  describe('without advancedGraphs the advanced controls ask for the upgrade', () => {
    it.each([
      ['adding a function', () => fireEvent.click(screen.getByRole('button', { name: 'Add function' }))],
      [
        'another kind',
        () => fireEvent.change(screen.getByLabelText('Function 1: kind'), { target: { value: 'polar' } }),
      ],
      [
        'a colour',
        () =>
          fireEvent.click(
            within(screen.getByRole('group', { name: 'Function 1: colour' })).getByRole('button', { name: 'red' }),
          ),
      ],
      ['the derivative', () => fireEvent.click(screen.getByRole('checkbox', { name: 'Derivative' }))],
      ['a tangent', () => fireEvent.click(screen.getByRole('checkbox', { name: 'Tangent at x =' }))],
    ])('%s', (_name, act) => {
      const { update, onUpgrade } = setup(false);
      act();
      jest.runAllTimers();
      expect(onUpgrade).toHaveBeenCalledTimes(1);
      expect(update).not.toHaveBeenCalled();
      expect((screen.getByLabelText('Function 1: kind') as HTMLSelectElement).value).toBe('function');
      expect(screen.getAllByRole('listitem')).toHaveLength(1);
    });

    it('the controls stay visible and say why', () => {
      setup(false);
      const add = screen.getByRole('button', { name: 'Add function' });
      const note = document.getElementById(add.getAttribute('aria-describedby')!)!;
      expect(note.textContent).toMatch(/need an upgrade/);
    });

    it('plain editing still works: ranges, grid, labels', () => {
      const { specs, onUpgrade } = setup(false);
      fireEvent.click(screen.getByRole('checkbox', { name: 'Grid' }));
      fireEvent.change(screen.getByLabelText('x from'), { target: { value: '-10' } });
      act(() => void jest.runAllTimers());
      expect(specs().at(-1)).toMatchObject({ grid: false, x: [-10, 6] });
      expect(onUpgrade).not.toHaveBeenCalled();
    });
  });

  describe('with advancedGraphs', () => {
    it('adds a function in the next colour, switches its kind, removes it', () => {
      const { specs } = setup(true);
      fireEvent.click(screen.getByRole('button', { name: 'Add function' }));
      expect(specs().at(-1)!.functions).toEqual([
        DEFAULT_GRAPH_SPEC.functions[0],
        { id: 'f2', kind: 'function', expr: '', color: '#dc2626' },
      ]);
      fireEvent.change(screen.getByLabelText('Function 2: kind'), { target: { value: 'parametric' } });
      expect(specs().at(-1)!.functions[1]).toEqual({
        id: 'f2',
        kind: 'parametric',
        expr: 'cos t',
        exprY: 'sin t',
        color: '#dc2626',
      });
      expect(screen.getByLabelText('Function 2: y(t) =')).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Remove function 2' }));
      expect(specs().at(-1)!.functions).toEqual([DEFAULT_GRAPH_SPEC.functions[0]]);
    });

    it('a parametric or polar curve is drawn over the t / θ interval set for it (0 … 2π by default)', () => {
      const { specs } = setup(true);
      fireEvent.change(screen.getByLabelText('Function 1: kind'), { target: { value: 'polar' } });
      expect(screen.getByRole('group', { name: 'Drawn for' })).toBeTruthy();
      expect((screen.getByLabelText('θ from') as HTMLInputElement).value).toBe('0');
      fireEvent.change(screen.getByLabelText('θ to'), { target: { value: '18.85' } });
      act(() => void jest.runAllTimers());
      expect(specs().at(-1)!.functions[0]).toMatchObject({ kind: 'polar', range: [0, 18.85] });
      // functions of x have no such interval: the visible x range is theirs
      fireEvent.change(screen.getByLabelText('Function 1: kind'), { target: { value: 'function' } });
      expect(screen.queryByRole('group', { name: 'Drawn for' })).toBeNull();
    });

    it('derivative, tangent point and colour are saved', () => {
      const { specs } = setup(true);
      fireEvent.click(screen.getByRole('checkbox', { name: 'Derivative' }));
      fireEvent.click(screen.getByRole('checkbox', { name: 'Tangent at x =' }));
      fireEvent.change(screen.getByLabelText('Function 1: tangent at x'), { target: { value: '2.5' } });
      act(() => void jest.runAllTimers());
      fireEvent.click(screen.getByRole('button', { name: 'green' }));
      expect(specs().at(-1)!.functions[0]).toEqual({
        ...DEFAULT_GRAPH_SPEC.functions[0],
        derivative: true,
        tangentAt: 2.5,
        color: '#059669',
      });
    });
  });

  it('a reversed range is explained and not saved', () => {
    const { update } = setup(true);
    fireEvent.change(screen.getByLabelText('y to'), { target: { value: '-9' } });
    act(() => void jest.runAllTimers());
    expect(screen.getByRole('alert').textContent).toMatch(/^The y range must go from a smaller to a larger number/);
    expect(update).not.toHaveBeenCalled();
  });

  it('damaged settings are said, the default is edited', () => {
    setup(true, shape('{oops'));
    expect(screen.getByText(/The graph settings are not valid JSON\. Showing the default graph\./)).toBeTruthy();
    expect((screen.getByLabelText('Function 1: y =') as HTMLInputElement).value).toBe('x^2');
  });

  it('Done and Escape commit pending typing before closing', () => {
    const { update, close } = setup(false);
    fireEvent.change(screen.getByLabelText('Function 1: y ='), { target: { value: 'x^3' } });
    fireEvent.keyDown(screen.getByLabelText('Function 1: y ='), { key: 'Escape' });
    expect(update).toHaveBeenCalledTimes(1);
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('shows a change made elsewhere (pan, zoom, a peer) when nothing is pending', () => {
    const { rerender, update, close, onUpgrade } = setup(false);
    const moved = shape({ ...DEFAULT_GRAPH_SPEC, x: [0, 12] });
    rerender(<GraphPanel shape={moved} update={update} close={close} advancedGraphs={false} onUpgrade={onUpgrade} />);
    expect((screen.getByLabelText('x from') as HTMLInputElement).value).toBe('0');
    expect((screen.getByLabelText('x to') as HTMLInputElement).value).toBe('12');
  });
});
