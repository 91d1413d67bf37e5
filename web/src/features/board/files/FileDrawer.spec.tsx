/// <reference types="jest" />
/**
 * The board's file drawer against a stubbed `GET /api/docs`: document cards, filter, sort,
 * debounced search, selection, the nested page view, what viewers may do, the dock, and the
 * upgrade prompt of the header's files button.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { useState, type ReactNode } from 'react';
import { PLANS, type DocumentDto } from '@wb/proto';
import { makeStore } from '../../../app/store';
import { i18n, loadNamespace } from '../../../i18n/i18n';
import { BoardUpgradeDialog } from '../ui/BoardUpgrade';
import { BoardHeader } from '../ui/BoardHeader';
import type { FilePlacer } from './BoardFiles';
import { FileDrawer } from './FileDrawer';
import { FILE_DRAG_MIME } from './placement';
import { UploadError, uploadFile, type UploadOptions } from '../../files/upload/uploadFile';

jest.mock('../../files/upload/uploadFile', () => {
  const actual = jest.requireActual<typeof import('../../files/upload/uploadFile')>('../../files/upload/uploadFile');
  return { ...actual, uploadFile: jest.fn() };
});
// the hashing worker is never started here (uploadFile is replaced), but its module is imported
jest.mock('../../files/upload/hashWorkerFactory', () => ({ createHashWorker: () => undefined }));
const uploadMock = uploadFile as jest.MockedFunction<typeof uploadFile>;

const id = (c: string) => c.repeat(64);
const doc = (o: Partial<DocumentDto> & { id: string; name: string }): DocumentDto => ({
  imageId: o.id.replace(/^./, '9'),
  isImage: 0,
  created: '2026-01-01T00:00:00Z',
  size: 1000,
  pages: 1,
  format: 'pdf',
  status: 'ready',
  pagesDone: o.pages ?? 1,
  error: null,
  ...o,
});
const PHOTO = doc({
  id: id('a'),
  name: 'Photo of the classroom whiteboard.png',
  isImage: 1,
  format: 'png',
  size: 2048,
  created: '2026-01-03T00:00:00Z',
});
const SHEET = doc({ id: id('b'), name: 'Worksheet.pdf', pages: 3, size: 1536 * 1024, created: '2026-01-02T00:00:00Z' });
const ALPHA = doc({ id: id('c'), name: 'alpha.docx', format: 'docx', size: 100, created: '2026-01-01T00:00:00Z' });
const SLIDES = doc({
  id: id('d'),
  name: 'zeta.pptx',
  format: 'pptx',
  pages: 10,
  pagesDone: 4,
  status: 'processing',
  size: 5000,
  created: '2025-12-31T00:00:00Z',
});
const DOCS = [PHOTO, SHEET, ALPHA, SLIDES];

function stubApi(answers: Record<string, unknown>) {
  globalThis.fetch = jest.fn(async (url: string, init: RequestInit) => {
    const key = `${(init?.method ?? 'GET').toUpperCase()} ${url}`;
    const found = key in answers;
    return {
      ok: found,
      status: found ? 200 : 404,
      statusText: '',
      headers: { get: (h: string) => (h === 'content-type' ? 'application/json' : null) },
      text: async () => JSON.stringify(found ? answers[key] : { message: 'nope', code: 'ERR_NOT_FOUND' }),
    };
  }) as unknown as typeof fetch;
}

function wrap(children: ReactNode) {
  return (
    <Provider store={makeStore()}>
      <MemoryRouter>
        <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
      </MemoryRouter>
    </Provider>
  );
}

function placer(canPlace = true) {
  const placed: unknown[] = [];
  const p: FilePlacer & { placed: unknown[] } = {
    canPlace,
    placed,
    place: jest.fn(async (payload) => {
      placed.push(payload);
      return true;
    }),
    placeDocs: jest.fn(async (docs) => {
      placed.push(docs.map((d) => d.name));
      return true;
    }),
  };
  return p;
}

function renderDrawer(p = placer(), dock: 'bottom' | 'right' = 'bottom', onDockChange = jest.fn()) {
  const utils = render(
    wrap(<FileDrawer dock={dock} onDockChange={onDockChange} onClose={() => {}} placer={p} onUpgrade={() => {}} />),
  );
  return { ...utils, p, onDockChange };
}

const names = (c: HTMLElement) => Array.from(c.querySelectorAll('.fd-grid .fd-name')).map((e) => e.textContent);

beforeAll(async () => {
  await loadNamespace('board', 'en');
});
beforeEach(() => stubApi({ 'GET /api/docs': DOCS }));

test('cards: newest first, thumbnail, page count singular/plural, 1024-based size, progress while converting', async () => {
  const { container } = renderDrawer();
  await waitFor(() => expect(names(container)).toHaveLength(4));
  expect(names(container)).toEqual([PHOTO.name, SHEET.name, ALPHA.name, SLIDES.name]);
  const card = (d: DocumentDto) => container.querySelector<HTMLElement>(`[data-doc-id="${d.id}"]`)!;
  expect(card(PHOTO).querySelector('img')!.getAttribute('src')).toBe(`/images/${PHOTO.imageId}-thumb.webp`);
  expect(card(SHEET).querySelector('img')!.getAttribute('src')).toBe(`/docs/${SHEET.imageId}-0-thumb.webp`);
  expect(card(SHEET).querySelector('.fd-info')!.textContent).toBe('3 pages · 1.5 MB');
  expect(card(ALPHA).querySelector('.fd-info')!.textContent).toBe('1 page · 100 B');
  expect(card(PHOTO).querySelector('.fd-info')!.textContent).toBe('2 KB');
  expect(card(SLIDES).querySelector('.fd-info')!.textContent).toBe('Processing: 4 of 10 pages');
  expect(card(SLIDES).querySelector<HTMLButtonElement>('.fd-thumb')!.disabled).toBe(true);
});

test('a name past 25 characters shows whole in a tooltip after 500 ms', async () => {
  const { container } = renderDrawer();
  await waitFor(() => expect(names(container)).toHaveLength(4));
  const long = container.querySelector(`[data-doc-id="${PHOTO.id}"] .tooltip-anchor`)!;
  expect(container.querySelector(`[data-doc-id="${ALPHA.id}"] .tooltip-anchor`)).toBeNull();
  fireEvent.mouseEnter(long);
  expect(screen.queryByRole('tooltip')).toBeNull();
  await waitFor(() => expect(screen.getByRole('tooltip').textContent).toBe(PHOTO.name));
});

test('filter, sort (name ascending; size descending by default; direction flips) and debounced search', async () => {
  const { container } = renderDrawer();
  await waitFor(() => expect(names(container)).toHaveLength(4));
  fireEvent.click(container.querySelector('[data-filter="images"]')!);
  expect(names(container)).toEqual([PHOTO.name]);
  fireEvent.click(container.querySelector('[data-filter="documents"]')!);
  expect(names(container)).toEqual([SHEET.name, ALPHA.name, SLIDES.name]);
  fireEvent.click(container.querySelector('[data-filter="all"]')!);

  const sort = screen.getByRole('combobox', { name: 'Sort by' });
  fireEvent.change(sort, { target: { value: 'name' } });
  expect(names(container)).toEqual([ALPHA.name, PHOTO.name, SHEET.name, SLIDES.name]);
  fireEvent.change(sort, { target: { value: 'size' } });
  expect(names(container)).toEqual([SHEET.name, SLIDES.name, PHOTO.name, ALPHA.name]);
  fireEvent.click(container.querySelector('[data-action="sort-direction"]')!);
  expect(names(container)).toEqual([ALPHA.name, PHOTO.name, SLIDES.name, SHEET.name]);

  fireEvent.change(screen.getByRole('searchbox', { name: 'Search files' }), { target: { value: 'WORK' } });
  // not at once: 250 ms after the last keystroke
  expect(names(container)).toHaveLength(4);
  await waitFor(() => expect(names(container)).toEqual([SHEET.name]));
  fireEvent.change(screen.getByRole('searchbox', { name: 'Search files' }), { target: { value: 'nothing like it' } });
  await waitFor(() => expect(container.querySelector('.fd-empty')!.textContent).toBe('No files match your search.'));
});

test('select: count, add the selection to the board in list order, clear', async () => {
  const { container, p } = renderDrawer();
  await waitFor(() => expect(names(container)).toHaveLength(4));
  expect(container.querySelector('[data-action="add-selected"]')).toBeNull();
  fireEvent.click(screen.getByRole('checkbox', { name: `Select ${ALPHA.name}` }));
  fireEvent.click(screen.getByRole('checkbox', { name: `Select ${PHOTO.name}` }));
  expect(screen.getByText('2 selected')).toBeTruthy();
  expect(container.querySelector(`[data-doc-id="${PHOTO.id}"]`)!.getAttribute('data-selected')).toBe('true');
  fireEvent.click(container.querySelector('[data-action="add-selected"]')!);
  expect(p.placed).toEqual([[PHOTO.name, ALPHA.name]]);
  fireEvent.click(container.querySelector('[data-action="clear-selection"]')!);
  expect(container.querySelector('[data-action="add-selected"]')).toBeNull();
});

test('click places an image at the view centre; a card drags with our MIME type', async () => {
  const { container, p } = renderDrawer();
  await waitFor(() => expect(names(container)).toHaveLength(4));
  const thumb = container.querySelector<HTMLElement>(`[data-doc-id="${PHOTO.id}"] .fd-thumb`)!;
  fireEvent.click(thumb);
  expect(p.placed).toEqual([{ kind: 'image', fileId: PHOTO.imageId }]);
  const data = new Map<string, string>();
  const dataTransfer = { setData: (k: string, v: string) => data.set(k, v), effectAllowed: '' };
  fireEvent.dragStart(container.querySelector(`[data-doc-id="${SHEET.id}"] .fd-thumb`)!, { dataTransfer });
  expect(JSON.parse(data.get(FILE_DRAG_MIME)!)).toEqual({ kind: 'document', fileId: SHEET.imageId, pages: 3 });
});

test('nested page view: page thumbnails, place one page, add all pages, back', async () => {
  const { container, p } = renderDrawer();
  await waitFor(() => expect(names(container)).toHaveLength(4));
  fireEvent.click(screen.getByRole('button', { name: `Show the pages of ${SHEET.name}` }));
  const view = screen.getByRole('region', { name: SHEET.name });
  const imgs = Array.from(view.querySelectorAll('.fd-page img')).map((i) => i.getAttribute('src'));
  expect(imgs).toEqual([0, 1, 2].map((i) => `/docs/${SHEET.imageId}-${i}-thumb.webp`));
  fireEvent.click(within(view).getByRole('button', { name: 'Add page 2 to the board' }));
  fireEvent.click(view.querySelector('[data-action="add-all-pages"]')!);
  expect(p.placed).toEqual([
    { kind: 'documentPage', fileId: SHEET.imageId, page: 1 },
    { kind: 'document', fileId: SHEET.imageId, pages: 3 },
  ]);
  const data = new Map<string, string>();
  fireEvent.dragStart(view.querySelector('[data-page="2"] .fd-thumb')!, {
    dataTransfer: { setData: (k: string, v: string) => data.set(k, v) },
  });
  expect(JSON.parse(data.get(FILE_DRAG_MIME)!)).toEqual({ kind: 'documentPage', fileId: SHEET.imageId, page: 2 });
  fireEvent.click(view.querySelector('[data-action="back"]')!);
  expect(names(container)).toHaveLength(4);
});

test('viewers browse (open pages) but cannot place', async () => {
  const { container, p } = renderDrawer(placer(false));
  await waitFor(() => expect(names(container)).toHaveLength(4));
  expect(container.querySelector('.fd-note')!.textContent).toMatch(/only people who can edit/);
  const photo = container.querySelector<HTMLButtonElement>(`[data-doc-id="${PHOTO.id}"] .fd-thumb`)!;
  expect(photo.disabled).toBe(true);
  expect(photo.draggable).toBe(false);
  fireEvent.click(screen.getByRole('button', { name: `Show the pages of ${SHEET.name}` }));
  expect(container.querySelector<HTMLButtonElement>('[data-action="add-all-pages"]')!.disabled).toBe(true);
  expect(p.placed).toEqual([]);
});

test('an empty library says how to start; the dock toggle asks for the other side', async () => {
  stubApi({ 'GET /api/docs': [] });
  const { container, onDockChange } = renderDrawer(placer(), 'right');
  await waitFor(() => expect(container.querySelector('.fd-empty')!.textContent).toMatch(/No files yet/));
  expect(container.querySelector('.drawer')!.className).toContain('drawer-right');
  fireEvent.click(screen.getByRole('button', { name: 'Dock at the bottom' }));
  expect(onDockChange).toHaveBeenCalledWith('bottom');
});

test('the header files button; without fileUpload the upgrade prompt explains files', async () => {
  stubApi({
    'GET /api/user': { id: 7, name: 'Ann', email: 'a@x.io' },
    'GET /api/user/settings': {},
    'GET /api/plan': PLANS.starter,
    'GET /api/billing/free-trial': { canHaveFreeTrial: true },
  });
  function Page() {
    const [upgrade, setUpgrade] = useState(false);
    return (
      <>
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
          save={<p className="save-state save-saved">Saved</p>}
          files={{ open: false, onToggle: () => setUpgrade(true) }}
        />
        {upgrade ? <BoardUpgradeDialog reason="fileUpload" maxPresets={3} onClose={() => setUpgrade(false)} /> : null}
      </>
    );
  }
  const { container } = render(wrap(<Page />));
  fireEvent.click(container.querySelector('[data-action="files"]')!);
  const dialog = screen.getByRole('dialog', { name: 'Files are part of the paid plans' });
  expect(dialog.textContent).toMatch(/file library/);
  await waitFor(() => expect(dialog.querySelector('.upgrade-prompt')!.getAttribute('data-variant')).toBe('tryFree'));
});

test('files dropped onto the drawer upload with cards: %, pages done of total, and a failure that goes after 5 s', async () => {
  const progress: ((u: Parameters<NonNullable<UploadOptions['onProgress']>>[0]) => void)[] = [];
  const finish: ((d: DocumentDto) => void)[] = [];
  uploadMock.mockImplementation(
    (file, opts) =>
      new Promise<DocumentDto>((resolve, reject) => {
        if (file.name === 'bad.bin') {
          reject(new UploadError('Unsupported file', 'ERR_UNSUPPORTED_FILE', 415));
          return;
        }
        progress.push(opts!.onProgress!);
        finish.push(resolve);
      }),
  );
  const { container } = renderDrawer();
  await waitFor(() => expect(names(container)).toHaveLength(4));
  const drawer = container.querySelector('.file-drawer')!;
  const files = [new File(['%PDF'], 'notes.pdf'), new File(['x'], 'bad.bin')];
  fireEvent.dragOver(drawer, { dataTransfer: { types: ['Files'], dropEffect: '' } });
  expect(container.querySelector('.fd-drop')!.textContent).toBe('Drop files to upload them');
  fireEvent.drop(drawer, { dataTransfer: { types: ['Files'], files } });
  const card = (name: string) =>
    Array.from(container.querySelectorAll<HTMLElement>('.fd-upload-card')).find(
      (c) => c.querySelector('.fd-name')!.textContent === name,
    );
  await waitFor(() =>
    expect(card('bad.bin')?.querySelector('.fd-info')!.textContent).toBe('Upload failed: Unsupported file'),
  );
  act(() => progress[0]!({ phase: 'uploading', progress: 0.42 }));
  expect(card('notes.pdf')!.querySelector('.fd-info')!.textContent).toBe('Uploading 42 %');
  act(() => progress[0]!({ phase: 'processing', progress: 0.5, pagesDone: 2, pages: 4 }));
  expect(card('notes.pdf')!.querySelector('.fd-info')!.textContent).toBe('Processing: 2 of 4 pages');
  await act(async () => finish[0]!(doc({ id: id('e'), name: 'notes.pdf', pages: 4 })));
  expect(card('notes.pdf')!.querySelector('.fd-info')!.textContent).toBe('Done');
  // the failed card goes after UPLOAD_FAILURE_REMOVAL_MS (5 s)
  await waitFor(() => expect(card('bad.bin')).toBeUndefined(), { timeout: 6000 });
}, 10000);
