/// <reference types="jest" />
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { FormulaShape } from '@wb/proto';
import { loadNamespace } from '../../../i18n/i18n';
import FormulaPanel, { type FormulaPatch } from './FormulaPanel';
import { renderFormula } from './mathjax';

const shape = (o: Partial<FormulaShape> = {}): FormulaShape => ({
  id: 'f',
  kind: 'formula',
  creator: 1,
  z: 'a0',
  x: 0,
  y: 0,
  latex: '',
  fontSize: 20,
  color: 0,
  alignment: 'equation',
  ...o,
});

function setup(s = shape()) {
  const updates: FormulaPatch[] = [];
  const calls: string[] = [];
  const update = jest.fn((p: FormulaPatch) => {
    updates.push(p);
    calls.push('update');
  });
  const close = jest.fn(() => void calls.push('close'));
  const view = render(<FormulaPanel shape={s} update={update} close={close} />);
  const input = within(view.container).getByLabelText('LaTeX') as HTMLTextAreaElement;
  return { ...view, updates, calls, update, close, input };
}

/** let the preview's render (a resolved promise once MathJax is loaded) land inside act */
const previewSettles = () => act(() => new Promise<void>((r) => setTimeout(r, 0)));

// the panel's strings are the `board` namespace (English here, as the board loads it)
beforeAll(() => loadNamespace('board', 'en'));

beforeAll(async () => {
  // MathJax loads once for the file (the first load is the slow part)
  await renderFormula('x', { fontSize: 20, color: '#000000', alignment: 'equation' });
});

describe('FormulaPanel', () => {
  it('shows a TeX error under the input, as an alert, and marks the input invalid', async () => {
    const { input } = setup();
    fireEvent.change(input, { target: { value: '\\frac{1}{' } });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/close brace/i);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe(alert.id);
    fireEvent.change(input, { target: { value: '\\frac{1}{2}' } });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(await screen.findByAltText('\\frac{1}{2}')).toBeTruthy();
  });

  it('refuses hostile LaTeX with the policy message at once', async () => {
    const { input } = setup();
    fireEvent.change(input, { target: { value: '\\href{javascript:alert(1)}{x}' } });
    expect(screen.getByRole('alert').textContent).toBe('\\href is not allowed in formulas.');
    await previewSettles();
  });

  it('the palette inserts at the caret and wraps the selection', async () => {
    const { input } = setup(shape({ latex: 'y = x+1' }));
    input.setSelectionRange(4, 7);
    fireEvent.click(screen.getByRole('button', { name: 'Fraction' }));
    expect(input.value).toBe('y = \\frac{x+1}{}');
    await waitFor(() => expect(input.selectionStart).toBe(15));
    fireEvent.click(screen.getByRole('button', { name: 'Greek letters' }));
    fireEvent.click(screen.getByRole('button', { name: 'pi' }));
    expect(input.value).toBe('y = \\frac{x+1}{\\pi}');
    await previewSettles();
  });

  it('commits typing once it rests, with the rendered size', async () => {
    const { input, updates } = setup();
    fireEvent.change(input, { target: { value: 'x^' } });
    fireEvent.change(input, { target: { value: 'x^2' } });
    await waitFor(() => expect(updates).toHaveLength(1));
    const r = await renderFormula('x^2', { fontSize: 20, color: '#000000', alignment: 'equation' });
    expect(updates[0]).toEqual({ latex: 'x^2', w: expect.any(Number), h: expect.any(Number) });
    expect(updates[0]!.w).toBeGreaterThan(r.width);
    expect(updates[0]!.h).toBeGreaterThan(r.height);
  });

  it('Done (and Escape) commit what is pending before closing', async () => {
    const { input, calls, updates } = setup();
    fireEvent.change(input, { target: { value: 'a+b' } });
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(calls).toEqual(['update', 'close']));
    expect(updates[0]).toMatchObject({ latex: 'a+b' });
    const second = setup();
    fireEvent.keyDown(second.input, { key: 'Escape' });
    await waitFor(() => expect(second.close).toHaveBeenCalled());
  });

  it('size and alignment changes carry the new rendered size', async () => {
    const { updates } = setup(shape({ latex: 'a \\\\ bbb', w: 10, h: 10 }));
    const size = screen.getByRole('combobox', { name: 'Size' });
    await act(async () => {
      fireEvent.change(size, { target: { value: '40' } });
    });
    await waitFor(() => expect(updates).toHaveLength(1));
    const at40 = updates[0]!;
    expect(at40.fontSize).toBe(40);
    const r20 = await renderFormula('a \\\\ bbb', { fontSize: 20, color: '#000000', alignment: 'equation' });
    expect(at40.w!).toBeGreaterThan(2 * r20.width);
    fireEvent.change(screen.getByRole('combobox', { name: 'Alignment' }), { target: { value: 'left' } });
    await waitFor(() => expect(updates).toHaveLength(2));
    expect(updates[1]).toMatchObject({ alignment: 'left', w: expect.any(Number), h: expect.any(Number) });
  });

  it('names every control', async () => {
    const { container } = setup();
    await previewSettles();
    for (const el of container.querySelectorAll('button, select, input, textarea')) {
      const name = el.getAttribute('aria-label') ?? el.textContent?.trim() ?? '';
      const labelled = name !== '' || el.closest('label') !== null || el.id !== '';
      expect([el.outerHTML.slice(0, 60), labelled]).toEqual([el.outerHTML.slice(0, 60), true]);
    }
    expect(screen.getByLabelText('Colour')).toBeTruthy();
  });
});
