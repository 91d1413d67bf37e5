/// <reference types="jest" />
/** The export dialog: its buttons and options, a download named after the board, errors shown. */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { i18n, loadNamespace } from '../../../i18n/i18n';
import { ExportDialog } from './ExportDialog';
import { rec, sceneOf } from './exportTesting';

beforeAll(() => loadNamespace('board', 'en'));

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const textOf = (b: Blob) =>
  new Promise<string>((resolve) => {
    const r = new FileReader();
    r.onload = () => resolve(r.result as string);
    r.readAsText(b);
  });

const view = { minX: 0, minY: 0, maxX: 800, maxY: 600 };

function open(props: Partial<Parameters<typeof ExportDialog>[0]> = {}) {
  const onClose = jest.fn();
  const scene = props.scene ?? sceneOf([rec.pen([0, 0, 40, 40], { x: 10, y: 10 }), rec.sticky('hi', { x: 100, y: 0 })]);
  render(
    <MemoryRouter>
      <I18nextProvider i18n={i18n}>
        <ExportDialog
          scene={scene}
          selection={new Set()}
          view={view}
          title="Maths: week 3"
          background="empty"
          onClose={onClose}
          {...props}
        />
      </I18nextProvider>
    </MemoryRouter>,
  );
  return { onClose };
}

test('three export buttons; selection disabled without one; document pages only when there are some', () => {
  open();
  for (const action of ['export-png', 'export-svg', 'export-pdf'])
    expect(document.querySelector(`[data-action="${action}"]`)).not.toBeNull();
  expect(input('Selection').disabled).toBe(true);
  expect(input('Whole board').checked).toBe(true);
  expect(screen.queryByLabelText('One page per document page')).toBeNull();
});

test('with document pages on the board the PDF can follow them', () => {
  open({ scene: sceneOf([rec.documentPage(1, 0, 0)]), selection: new Set(['x']) });
  expect(input('One page per document page').disabled).toBe(false);
  expect(input('Selection').disabled).toBe(false);
});

test('SVG export downloads a file named after the board and closes', async () => {
  const created: Blob[] = [];
  const names: string[] = [];
  URL.createObjectURL = jest.fn((b: Blob) => {
    created.push(b);
    return 'blob:x';
  });
  URL.revokeObjectURL = jest.fn();
  const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  const { onClose } = open();
  fireEvent.click(document.querySelector('[data-action="export-svg"]')!);
  await waitFor(() => expect(onClose).toHaveBeenCalled());
  expect(names).toEqual(['Maths week 3.svg']);
  expect(created[0]!.type).toBe('image/svg+xml');
  expect(await textOf(created[0]!)).toContain('<path d="M10 10L50 50"');
  click.mockRestore();
});

test('nothing to export is said, not thrown', async () => {
  const { onClose } = open({ scene: sceneOf([]) });
  fireEvent.click(document.querySelector('[data-action="export-svg"]')!);
  expect((await screen.findByRole('alert')).textContent).toBe('There is nothing to export here.');
  expect(onClose).not.toHaveBeenCalled();
});
