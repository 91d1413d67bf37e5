/**
 * The files page's rules, free of React: byte units (spec §9: 1024-based, B to YB), search
 * (case-insensitive), filter (all, documents, images), sort (name ascending; size and created
 * descending by default) and the thumbnail of a card (spec §2).
 */
import { DOCS_BATCH_MAX, docPageUrl, imageUrl, type DocumentDto } from '@wb/proto';

export const FILE_SEARCH_DEBOUNCE_MS = 250;
export const UPLOAD_FAILURE_REMOVAL_MS = 5000;
/** a finished upload card stays this long so the person sees it went through */
export const UPLOAD_DONE_REMOVAL_MS = 2000;
/** spec §9: the name's tooltip applies above 25 characters */
export const NAME_TOOLTIP_LENGTH = 25;

export const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/** `units`: the language's symbols for B…YB (French writes octets: o, Ko, Mo…). */
export function formatBytes(bytes: number, locale = 'en', units: readonly string[] = BYTE_UNITS): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  // one decimal for small numbers of a unit (1.5 MB), none for bytes or from 10 up (12 MB)
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  const text = new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value);
  return `${text} ${units[unit] ?? BYTE_UNITS[unit]}`;
}

export const FILE_FILTERS = ['all', 'documents', 'images'] as const;
export type FileFilter = (typeof FILE_FILTERS)[number];

/** The route sets the filter: files, documents or images (spec §2). */
export function filterFromPath(path: string): FileFilter {
  const last = path.split('?')[0]!.replace(/\/+$/, '').split('/').pop();
  return last === 'documents' ? 'documents' : last === 'images' ? 'images' : 'all';
}
export const FILTER_PATHS: Record<FileFilter, string> = { all: '/files', documents: '/documents', images: '/images' };

export const SORT_FIELDS = ['name', 'size', 'created'] as const;
export type SortField = (typeof SORT_FIELDS)[number];
export type SortDir = 'asc' | 'desc';
export interface FileSort {
  field: SortField;
  dir: SortDir;
}
export const DEFAULT_DIR: Record<SortField, SortDir> = { name: 'asc', size: 'desc', created: 'desc' };
/** spec §7: the list is shown newest first */
/** spec §9: the files page opens sorted by name, ascending */
export const PAGE_SORT: FileSort = { field: 'name', dir: DEFAULT_DIR.name };
/** newest first: the board's file drawer opens so (recent uploads on top; features/board/files) */
export const DEFAULT_SORT: FileSort = { field: 'created', dir: 'desc' };

export function isSortField(v: unknown): v is SortField {
  return typeof v === 'string' && (SORT_FIELDS as readonly string[]).includes(v);
}

/** Choosing the current field again flips its direction; another field starts at its default. */
export function nextSort(current: FileSort, field: SortField): FileSort {
  if (current.field === field) return { field, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { field, dir: DEFAULT_DIR[field] };
}

export function matchesFilter(doc: DocumentDto, filter: FileFilter): boolean {
  return filter === 'all' || (filter === 'images') === (doc.isImage === 1);
}

/** Case-insensitive substring match on the name (spec §5); blank matches everything. */
export function matchesQuery(doc: DocumentDto, query: string, locale = 'en'): boolean {
  const q = query.trim().toLocaleLowerCase(locale);
  return q === '' || doc.name.toLocaleLowerCase(locale).includes(q);
}

export function sortDocs(docs: readonly DocumentDto[], sort: FileSort, locale = 'en'): DocumentDto[] {
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
  const sign = sort.dir === 'asc' ? 1 : -1;
  const byField = (a: DocumentDto, b: DocumentDto): number => {
    if (sort.field === 'name') return collator.compare(a.name, b.name);
    if (sort.field === 'size') return a.size - b.size;
    return Date.parse(a.created) - Date.parse(b.created);
  };
  // ties fall back to newest first, then the id, so the order is stable between refetches
  return [...docs].sort(
    (a, b) => sign * byField(a, b) || Date.parse(b.created) - Date.parse(a.created) || a.id.localeCompare(b.id),
  );
}

export function selectDocs(
  docs: readonly DocumentDto[],
  opts: { filter: FileFilter; query: string; sort: FileSort; locale?: string },
): DocumentDto[] {
  return sortDocs(
    docs.filter((d) => matchesFilter(d, opts.filter) && matchesQuery(d, opts.query, opts.locale)),
    opts.sort,
    opts.locale,
  );
}

/** images are served under the document's image id, never its content hash (issue 25 §4) */
export function thumbnailUrl(doc: Pick<DocumentDto, 'imageId' | 'isImage'>): string {
  return doc.isImage ? imageUrl(doc.imageId, 'thumb') : docPageUrl(doc.imageId, 0, 'thumb');
}
export function fullUrl(doc: Pick<DocumentDto, 'imageId' | 'isImage'>, pageIndex: number): string {
  return doc.isImage ? imageUrl(doc.imageId, 'full') : docPageUrl(doc.imageId, pageIndex, 'full');
}
/** How many pages a viewer shows (an image is one page). */
export function pageCount(doc: Pick<DocumentDto, 'isImage' | 'pages'>): number {
  return doc.isImage ? 1 : Math.max(1, doc.pages);
}

/** Selected ids still shown (a search or filter hides some: they are not deleted unseen). */
export function visibleSelection(selected: ReadonlySet<string>, shown: readonly DocumentDto[]): string[] {
  return shown.filter((d) => selected.has(d.id)).map((d) => d.id);
}

export function chunkIds(ids: readonly string[], size = DOCS_BATCH_MAX): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size));
  return out;
}

/** Zoom steps of the file viewer (1 = fit to width). */
export const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3] as const;
export function zoomStep(current: number, dir: 1 | -1): number {
  if (dir > 0) return ZOOM_STEPS.find((z) => z > current + 1e-9) ?? ZOOM_STEPS[ZOOM_STEPS.length - 1]!;
  return [...ZOOM_STEPS].reverse().find((z) => z < current - 1e-9) ?? ZOOM_STEPS[0];
}
