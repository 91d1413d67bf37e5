import type { DocumentDto } from '@wb/proto';
import {
  DEFAULT_SORT,
  PAGE_SORT,
  chunkIds,
  filterFromPath,
  formatBytes,
  fullUrl,
  nextSort,
  selectDocs,
  thumbnailUrl,
  visibleSelection,
  zoomStep,
} from './filesLogic';

const id = (n: number) => n.toString(16).padStart(64, '0');
const doc = (n: number, over: Partial<DocumentDto>): DocumentDto => ({
  id: id(n),
  imageId: id(n + 1000),
  name: `file ${n}`,
  isImage: 0,
  created: '2026-11-01T00:00:00.000Z',
  size: 100,
  pages: 1,
  format: 'pdf',
  status: 'ready',
  pagesDone: 1,
  error: null,
  ...over,
});

describe('formatBytes (1024-based, B to YB)', () => {
  it.each([
    [0, '0 B'],
    [1023, '1,023 B'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [10 * 1024 - 1, '10 KB'],
    [200 * 1024 * 1024, '200 MB'],
    [3.25 * 1024 ** 3, '3.3 GB'],
    [1024 ** 8, '1 YB'],
    [1024 ** 9, '1,024 YB'],
  ])('%d → %s', (bytes, text) => expect(formatBytes(bytes)).toBe(text));
  it('uses the language’s number format and unit symbols', () => {
    expect(formatBytes(1536, 'fr', ['o', 'Ko', 'Mo', 'Go', 'To', 'Po', 'Eo', 'Zo', 'Yo'])).toBe('1,5 Ko');
  });
});

describe('filter, search and sort', () => {
  const docs = [
    doc(1, { name: 'Worksheet.pdf', size: 300, created: '2026-11-01T00:00:00Z' }),
    doc(2, { name: 'photo.JPG', isImage: 1, format: 'jpeg', size: 900, created: '2026-11-03T00:00:00Z' }),
    doc(3, { name: 'slides 10.pptx', format: 'pptx', size: 100, created: '2026-11-02T00:00:00Z' }),
    doc(4, { name: 'slides 9.pptx', format: 'pptx', size: 100, created: '2026-11-04T00:00:00Z' }),
  ];
  const names = (list: DocumentDto[]) => list.map((d) => d.name);

  it('the route sets the filter', () => {
    expect(filterFromPath('/files')).toBe('all');
    expect(filterFromPath('/de/documents')).toBe('documents');
    expect(filterFromPath('/images?x=1')).toBe('images');
    expect(filterFromPath('/files/abc')).toBe('all');
  });
  it('the files page opens by name ascending (spec §9), in natural order', () => {
    expect(PAGE_SORT).toEqual({ field: 'name', dir: 'asc' });
    expect(names(selectDocs(docs, { filter: 'all', query: '', sort: PAGE_SORT }))).toEqual([
      'photo.JPG',
      'slides 9.pptx',
      'slides 10.pptx',
      'Worksheet.pdf',
    ]);
  });
  it('filters documents and images', () => {
    expect(names(selectDocs(docs, { filter: 'images', query: '', sort: DEFAULT_SORT }))).toEqual(['photo.JPG']);
    expect(selectDocs(docs, { filter: 'documents', query: '', sort: DEFAULT_SORT })).toHaveLength(3);
  });
  it('searches case-insensitively', () => {
    expect(names(selectDocs(docs, { filter: 'all', query: ' PHOTO.jpg ', sort: DEFAULT_SORT }))).toEqual(['photo.JPG']);
    expect(selectDocs(docs, { filter: 'all', query: 'SLIDES', sort: DEFAULT_SORT })).toHaveLength(2);
  });
  it('name again flips to descending; size and created start descending, then toggle', () => {
    const byNameDesc = nextSort(PAGE_SORT, 'name');
    expect(byNameDesc).toEqual({ field: 'name', dir: 'desc' });
    expect(names(selectDocs(docs, { filter: 'all', query: '', sort: byNameDesc }))).toEqual([
      'Worksheet.pdf',
      'slides 10.pptx',
      'slides 9.pptx',
      'photo.JPG',
    ]);
    const bySize = nextSort(PAGE_SORT, 'size');
    expect(bySize).toEqual({ field: 'size', dir: 'desc' });
    // equal sizes: newest first
    expect(names(selectDocs(docs, { filter: 'all', query: '', sort: bySize }))).toEqual([
      'photo.JPG',
      'Worksheet.pdf',
      'slides 9.pptx',
      'slides 10.pptx',
    ]);
    const byCreated = nextSort(PAGE_SORT, 'created');
    expect(byCreated).toEqual({ field: 'created', dir: 'desc' });
    expect(names(selectDocs(docs, { filter: 'all', query: '', sort: byCreated }))).toEqual([
      'slides 9.pptx',
      'photo.JPG',
      'slides 10.pptx',
      'Worksheet.pdf',
    ]);
    expect(nextSort(byCreated, 'created')).toEqual({ field: 'created', dir: 'asc' });
    expect(nextSort(bySize, 'name')).toEqual({ field: 'name', dir: 'asc' });
  });
  it('keeps only the shown ids in the selection', () => {
    const shown = selectDocs(docs, { filter: 'images', query: '', sort: DEFAULT_SORT });
    expect(visibleSelection(new Set([id(1), id(2)]), shown)).toEqual([id(2)]);
  });
});

describe('urls and helpers', () => {
  it('thumbnail of page 0 or the image (spec §2), under the image id', () => {
    expect(thumbnailUrl({ imageId: id(5), isImage: 0 })).toBe(`/docs/${id(5)}-0-thumb.webp`);
    expect(thumbnailUrl({ imageId: id(5), isImage: 1 })).toBe(`/images/${id(5)}-thumb.webp`);
    expect(fullUrl({ imageId: id(5), isImage: 0 }, 2)).toBe(`/docs/${id(5)}-2-full.webp`);
    expect(fullUrl({ imageId: id(5), isImage: 1 }, 0)).toBe(`/images/${id(5)}-full.webp`);
  });
  it('chunks deletes by 100', () => {
    const ids = Array.from({ length: 250 }, (_, i) => id(i));
    expect(chunkIds(ids).map((c) => c.length)).toEqual([100, 100, 50]);
  });
  it('zooms in steps and stops at the ends', () => {
    expect(zoomStep(1, 1)).toBe(1.25);
    expect(zoomStep(1, -1)).toBe(0.75);
    expect(zoomStep(3, 1)).toBe(3);
    expect(zoomStep(0.5, -1)).toBe(0.5);
  });
});
