/// <reference types="jest" />
/**
 * The files page and the file viewer against a stubbed gateway (the upload client is replaced:
 * its own spec drives the real one): cards, search after 250 ms, route filters, sort toggling,
 * select and delete with consent-gated analytics, upload cards (progress, failure removed after
 * 5 s), the upgrade prompt on ERR_UPLOAD_NOT_ENABLED, and the viewer's pages, zoom and download.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { DocumentDto } from '@wb/proto';
import { makeStore } from '../../app/store';
import { ROUTES, type RouteMatch } from '../../app/routes';
import { i18n } from '../../i18n/i18n';
import { FilesPage } from './FilesPage';
import { FileViewerPage } from './FileViewerPage';
import { UPLOAD_FAILURE_REMOVAL_MS } from './filesLogic';
import { UploadError, uploadFile, type UploadOptions } from './upload/uploadFile';

jest.mock('./upload/uploadFile', () => {
  const actual = jest.requireActual<typeof import('./upload/uploadFile')>('./upload/uploadFile');
  return { ...actual, uploadFile: jest.fn() };
});
// the hashing worker is never started here (uploadFile is replaced), but its module is imported
jest.mock('./upload/hashWorkerFactory', () => ({ createHashWorker: () => undefined }));
const uploadMock = uploadFile as jest.MockedFunction<typeof uploadFile>;

type Answer = { status?: number; body: unknown };
type Calls = { method: string; url: string; body: unknown }[];
function stubApi(answers: Record<string, Answer | ((body: unknown) => Answer)>): Calls {
  const calls: Calls = [];
  globalThis.fetch = jest.fn(async (url: string, init: RequestInit) => {
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, url, body });
    const a = answers[`${method} ${url}`];
    const answer =
      typeof a === 'function' ? a(body) : (a ?? { status: 404, body: { message: 'nope', code: 'ERR_NOT_FOUND' } });
    const status = answer.status ?? 200;
    return {
      ok: status < 400,
      status,
      statusText: '',
      headers: { get: (h: string) => (h === 'content-type' ? 'application/json' : null) },
      text: async () => JSON.stringify(answer.body),
    };
  }) as unknown as typeof fetch;
  return calls;
}

const hex = (n: number) => n.toString(16).padStart(64, '0');
/** the image id its images are served under (not the content hash, issue 25 §4) */
const imgId = (n: number) => (n + 0x1000).toString(16).padStart(64, '0');
const doc = (n: number, over: Partial<DocumentDto> = {}): DocumentDto => ({
  id: hex(n),
  imageId: imgId(n),
  name: `file ${n}.pdf`,
  isImage: 0,
  created: `2026-11-0${n}T10:00:00.000Z`,
  size: 1536,
  pages: 3,
  format: 'pdf',
  status: 'ready',
  pagesDone: 3,
  error: null,
  ...over,
});
const DOCS = [
  doc(1, { name: 'Worksheet.pdf', pages: 1 }),
  doc(2, { name: 'A very long name for the slides of lesson 4.pptx', format: 'pptx', size: 5 * 1024 * 1024 }),
  doc(3, { name: 'Photo.jpg', isImage: 1, format: 'jpeg', pages: 1, size: 900 }),
];

const plan = (fileUpload: boolean) => ({
  name: fileUpload ? 'standard' : 'starter',
  price: { monthly: 0, yearly: 0 },
  features: { fileUpload },
  limits: {},
});
const session = (fileUpload = true) => ({
  'GET /api/user': { body: { id: 7, name: 'Ada', email: 'ada@example.com', email_status: 'verified' } },
  'GET /api/user/settings': { body: { role: 'teacher', roleOnboarding: false } },
  'GET /api/plan': { body: plan(fileUpload) },
  'GET /api/business/info': { body: null },
  'GET /api/billing/free-trial': { body: { canHaveFreeTrial: true } },
});

function matchFor(pattern: string, params: Record<string, string> = {}): RouteMatch {
  return { route: ROUTES.find((r) => r.pattern === pattern)!, params, prefix: undefined, placeholder: false };
}

function renderPage(path: string, element: React.ReactNode) {
  return render(
    <Provider store={makeStore()}>
      <MemoryRouter initialEntries={[path]}>
        <I18nextProvider i18n={i18n}>
          <Routes>
            <Route path="*" element={element} />
          </Routes>
        </I18nextProvider>
      </MemoryRouter>
    </Provider>,
  );
}
const renderFiles = (path = '/files') => renderPage(path, <FilesPage match={matchFor(path.slice(1))} url={path} />);

const cards = () => Array.from(document.querySelectorAll<HTMLElement>('.doc-grid > li'));
const cardNames = () => cards().map((li) => li.querySelector('.doc-name')?.textContent);

beforeEach(() => {
  uploadMock.mockReset();
  localStorage.clear();
  delete (window as { dataLayer?: unknown }).dataLayer;
});
afterEach(() => jest.useRealTimers());

describe('files page', () => {
  it('shows document cards by name ascending (spec §9): thumbnail, pages, size, tooltip past 25 characters', async () => {
    stubApi({ ...session(), 'GET /api/docs': { body: DOCS } });
    renderFiles();
    await screen.findByText('Photo.jpg');
    expect(cardNames()).toEqual(['A very long name for the slides of lesson 4.pptx', 'Photo.jpg', 'Worksheet.pdf']);
    expect(screen.getByRole('button', { name: 'Sort by Name, ascending' }).getAttribute('aria-pressed')).toBe('true');
    const [slides, image, sheet] = cards();
    expect(image!.querySelector('img')!.getAttribute('src')).toBe(`/images/${imgId(3)}-thumb.webp`);
    expect(slides!.querySelector('img')!.getAttribute('src')).toBe(`/docs/${imgId(2)}-0-thumb.webp`);
    expect(within(slides!).getByText(/3 pages/)).toBeTruthy();
    expect(within(slides!).getByText(/5\.0 MB|5 MB/)).toBeTruthy();
    expect(sheet!.querySelector('.doc-meta')!.textContent).toBe('1 page · 1.5 KB');
    expect(within(image!).getByText(/900 B/)).toBeTruthy();
    expect(within(image!).getByRole('link').getAttribute('href')).toBe(`/files/${hex(3)}`);
    // only the long name has a tooltip
    expect(slides!.querySelector('.tooltip-anchor')).not.toBeNull();
    expect(sheet!.querySelector('.tooltip-anchor')).toBeNull();
  });

  it('searches case-insensitively after 250 ms', async () => {
    stubApi({ ...session(), 'GET /api/docs': { body: DOCS } });
    renderFiles();
    await screen.findByText('Photo.jpg');
    jest.useFakeTimers();
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'WORKSHEET' } });
    act(() => jest.advanceTimersByTime(200));
    expect(cardNames()).toHaveLength(3);
    act(() => jest.advanceTimersByTime(60));
    expect(cardNames()).toEqual(['Worksheet.pdf']);
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'nothing' } });
    act(() => jest.advanceTimersByTime(250));
    expect(screen.getByText('No files match “nothing”.')).toBeTruthy();
  });

  it('the images and documents routes filter', async () => {
    stubApi({ ...session(), 'GET /api/docs': { body: DOCS } });
    renderFiles('/images');
    await screen.findByText('Photo.jpg');
    expect(cardNames()).toEqual(['Photo.jpg']);
  });

  it('opens by name ascending; name again flips to descending; size and date start descending', async () => {
    stubApi({
      ...session(),
      'GET /api/docs': {
        body: [
          doc(1, { name: 'Worksheet.pdf', size: 2000, created: '2026-11-03T00:00:00Z' }),
          doc(2, { name: 'Atlas.pdf', size: 10, created: '2026-11-01T00:00:00Z' }),
          doc(4, { name: 'Maps.pdf', size: 500, created: '2026-11-02T00:00:00Z' }),
        ],
      },
    });
    renderFiles('/documents');
    await screen.findByText('Worksheet.pdf');
    expect(cardNames()).toEqual(['Atlas.pdf', 'Maps.pdf', 'Worksheet.pdf']);
    // the active button names its current direction; choosing it again flips it
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Name, ascending' }));
    expect(screen.getByRole('button', { name: 'Sort by Name, descending' }).getAttribute('aria-pressed')).toBe('true');
    expect(cardNames()).toEqual(['Worksheet.pdf', 'Maps.pdf', 'Atlas.pdf']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Size, descending' }));
    expect(cardNames()).toEqual(['Worksheet.pdf', 'Maps.pdf', 'Atlas.pdf']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Size, descending' }));
    expect(cardNames()).toEqual(['Atlas.pdf', 'Maps.pdf', 'Worksheet.pdf']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Date added, descending' }));
    expect(cardNames()).toEqual(['Worksheet.pdf', 'Maps.pdf', 'Atlas.pdf']);
  });

  it('deletes the selected files after confirming; analytics only with consent', async () => {
    let docs = DOCS;
    const calls = stubApi({
      ...session(),
      'GET /api/docs': () => ({ body: docs }),
      'POST /api/docs/delete': (body) => {
        const ids = (body as { ids: string[] }).ids;
        docs = docs.filter((d) => !ids.includes(d.id));
        return { body: { ids } };
      },
    });
    localStorage.setItem('wb.consent', JSON.stringify({ analytics: true }));
    renderFiles();
    await screen.findByText('Photo.jpg');
    const del = screen.getByRole('button', { name: 'Delete' });
    expect((del as HTMLButtonElement).disabled).toBe(true);
    const box = screen.getByRole('checkbox', { name: 'Select Photo.jpg' });
    box.focus();
    fireEvent.click(box);
    expect(screen.getByText('Selected: 1')).toBeTruthy();
    expect((del as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(del);
    const dialog = await screen.findByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Photo.jpg')).toBeNull());
    expect(calls.find((c) => c.url === '/api/docs/delete')?.body).toEqual({ ids: [hex(3)] });
    expect((window as { dataLayer?: unknown[] }).dataLayer).toContainEqual({ event: 'e_file_delete', count: 1 });
  });

  it('pushes no analytics without consent', async () => {
    let docs = DOCS;
    stubApi({
      ...session(),
      'GET /api/docs': () => ({ body: docs }),
      'POST /api/docs/delete': () => {
        docs = DOCS.slice(1);
        return { body: { ids: [hex(1)] } };
      },
    });
    renderFiles();
    await screen.findByText('Photo.jpg');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(cardNames()).toHaveLength(2));
    expect((window as { dataLayer?: unknown[] }).dataLayer ?? []).toEqual([]);
  });

  it('shows upload cards with progress, and a failure that goes after 5 s', async () => {
    stubApi({ ...session(), 'GET /api/docs': { body: [] } });
    let fail: (e: Error) => void = () => undefined;
    let progress: UploadOptions['onProgress'];
    uploadMock.mockImplementation(
      (_file, opts) =>
        new Promise((_resolve, reject) => {
          progress = opts?.onProgress;
          fail = reject;
        }),
    );
    renderFiles();
    await screen.findByText(/No files yet/);
    await waitFor(() => expect(screen.getByRole('button', { name: /Upload/ })).toBeTruthy());
    const input = screen.getByTestId('file-input');
    const file = new File(['%PDF-1.4'], 'lesson.pdf', { type: 'application/pdf' });
    await waitFor(() => expect(globalThis.fetch).toHaveBeenCalledWith('/api/plan', expect.anything()));
    await act(async () => fireEvent.change(input, { target: { files: [file] } }));
    await waitFor(() => expect(uploadMock).toHaveBeenCalledTimes(1));
    act(() => progress!({ phase: 'uploading', progress: 0.42 }));
    expect(screen.getByText('Uploading… 42%')).toBeTruthy();
    act(() => progress!({ phase: 'processing', progress: 0.5, pagesDone: 2, pages: 4 }));
    expect(screen.getByText('Processing… 2 of 4 pages')).toBeTruthy();
    jest.useFakeTimers();
    await act(async () => fail(new UploadError('Unsupported file', 'ERR_SOMETHING_NEW', 415)));
    expect(screen.getByRole('alert').textContent).toBe('Upload failed: Unsupported file');
    act(() => jest.advanceTimersByTime(UPLOAD_FAILURE_REMOVAL_MS - 100));
    expect(screen.queryByText('lesson.pdf')).not.toBeNull();
    act(() => jest.advanceTimersByTime(200));
    expect(screen.queryByText('lesson.pdf')).toBeNull();
  });

  it('uploads dropped files and refreshes the list when done', async () => {
    let docs: DocumentDto[] = [];
    stubApi({ ...session(), 'GET /api/docs': () => ({ body: docs }) });
    uploadMock.mockImplementation(async (file) => {
      docs = [doc(4, { name: file.name })];
      return docs[0]!;
    });
    localStorage.setItem('wb.consent', JSON.stringify({ analytics: true }));
    const { container } = renderFiles();
    await screen.findByText(/No files yet/);
    await waitFor(() => expect(globalThis.fetch).toHaveBeenCalledWith('/api/plan', expect.anything()));
    const page = container.querySelector('.files-page')!;
    const file = new File(['x'], 'dropped.pdf');
    const dataTransfer = { types: ['Files'], files: [file], dropEffect: 'none' };
    fireEvent.dragEnter(page, { dataTransfer });
    expect(screen.getByText('Drop files here to upload them')).toBeTruthy();
    await act(async () => fireEvent.drop(page, { dataTransfer }));
    await screen.findByText('Done');
    await waitFor(() => expect(cardNames()).toContain('dropped.pdf'));
    expect((window as { dataLayer?: unknown[] }).dataLayer).toContainEqual({ event: 'e_file_upload', format: 'pdf' });
  });

  it('opens the upgrade prompt on ERR_UPLOAD_NOT_ENABLED instead of failing silently', async () => {
    stubApi({ ...session(), 'GET /api/docs': { body: [] } });
    uploadMock.mockRejectedValue(
      new UploadError('Uploading files is not available on your plan', 'ERR_UPLOAD_NOT_ENABLED', 403),
    );
    renderFiles();
    await screen.findByText(/No files yet/);
    await waitFor(() => expect(globalThis.fetch).toHaveBeenCalledWith('/api/plan', expect.anything()));
    await act(async () =>
      fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['x'], 'a.pdf')] } }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Upload your own files')).toBeTruthy();
    await waitFor(() => expect(dialog.querySelector('.upgrade-prompt')?.getAttribute('data-variant')).toBe('tryFree'));
  });

  it('on Starter the Upload button opens the upgrade prompt, not the file chooser', async () => {
    stubApi({ ...session(false), 'GET /api/docs': { body: [] } });
    const choose = jest.spyOn(HTMLInputElement.prototype, 'click').mockImplementation(() => undefined);
    try {
      renderFiles();
      await screen.findByText(/No files yet/);
      await waitFor(() => expect(globalThis.fetch).toHaveBeenCalledWith('/api/plan', expect.anything()));
      await new Promise((r) => setTimeout(r, 20));
      fireEvent.click(screen.getByRole('button', { name: /Upload/ }));
      const dialog = await screen.findByRole('dialog');
      expect(within(dialog).getByText('Upload your own files')).toBeTruthy();
      expect(choose).not.toHaveBeenCalled();
    } finally {
      choose.mockRestore();
    }
  });

  it('with fileUpload on the plan the Upload button opens the file chooser', async () => {
    stubApi({ ...session(true), 'GET /api/docs': { body: [] } });
    const choose = jest.spyOn(HTMLInputElement.prototype, 'click').mockImplementation(() => undefined);
    try {
      renderFiles();
      await screen.findByText(/No files yet/);
      await waitFor(() => expect(globalThis.fetch).toHaveBeenCalledWith('/api/plan', expect.anything()));
      await new Promise((r) => setTimeout(r, 20));
      fireEvent.click(screen.getByRole('button', { name: /Upload/ }));
      expect(choose).toHaveBeenCalledTimes(1);
      expect(screen.queryByRole('dialog')).toBeNull();
    } finally {
      choose.mockRestore();
    }
  });

  it('without fileUpload on the plan the prompt opens before any upload starts', async () => {
    stubApi({ ...session(false), 'GET /api/docs': { body: [] } });
    renderFiles();
    await screen.findByText(/No files yet/);
    await waitFor(() => expect(globalThis.fetch).toHaveBeenCalledWith('/api/plan', expect.anything()));
    await new Promise((r) => setTimeout(r, 20));
    await act(async () =>
      fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['x'], 'a.pdf')] } }),
    );
    expect(await screen.findByRole('dialog')).toBeTruthy();
    expect(uploadMock).not.toHaveBeenCalled();
  });
});

describe('file viewer', () => {
  const renderViewer = (id: string) =>
    renderPage(`/files/${id}`, <FileViewerPage match={matchFor('files/:id', { id })} url={`/files/${id}`} />);

  it('pages through a document with buttons and keys, zooms and offers the original', async () => {
    stubApi({ ...session(), [`GET /api/docs/${hex(2)}`]: { body: doc(2, { name: 'slides.pptx' }) } });
    renderViewer(hex(2));
    await screen.findByRole('heading', { name: 'slides.pptx' });
    const img = () => screen.getByRole('img');
    expect(img().getAttribute('src')).toBe(`/docs/${imgId(2)}-0-full.webp`);
    expect(screen.getByTestId('viewer-page').textContent).toBe('Page 1 of 3');
    const prev = screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement;
    expect(prev.disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(img().getAttribute('src')).toBe(`/docs/${imgId(2)}-1-full.webp`);
    fireEvent.keyDown(window, { key: 'End' });
    expect(screen.getByTestId('viewer-page').textContent).toBe('Page 3 of 3');
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    expect(img().getAttribute('src')).toBe(`/docs/${imgId(2)}-1-full.webp`);
    fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(img().style.width).toBe('125%');
    fireEvent.keyDown(window, { key: '0' });
    expect(img().style.width).toBe('100%');
    const download = screen.getByRole('link', { name: /Download/ });
    expect(download.getAttribute('href')).toBe(`/api/docs/${hex(2)}/original`);
  });

  it('shows the image of an image file without page navigation', async () => {
    stubApi({ ...session(), [`GET /api/docs/${hex(3)}`]: { body: doc(3, { isImage: 1, name: 'Photo.jpg' }) } });
    renderViewer(hex(3));
    expect((await screen.findByRole('img', { name: 'Photo.jpg' })).getAttribute('src')).toBe(
      `/images/${imgId(3)}-full.webp`,
    );
    expect(screen.queryByRole('button', { name: 'Next page' })).toBeNull();
  });

  it('says when the file does not exist', async () => {
    stubApi({ ...session(), [`GET /api/docs/${hex(9)}`]: { body: null } });
    renderViewer(hex(9));
    expect(await screen.findByText('This file could not be found.')).toBeTruthy();
  });
  it('says so for an id that is no content hash, without asking the server', async () => {
    const calls = stubApi(session());
    renderViewer('not-a-hash');
    expect(await screen.findByText('This file could not be found.')).toBeTruthy();
    expect(calls.some((c) => c.url.startsWith('/api/docs'))).toBe(false);
  });
});
