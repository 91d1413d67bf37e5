/**
 * The board's file drawer (spec §2): the caller's files as document cards (thumbnail, page count,
 * name with a tooltip past 25 characters, size in 1024-based units), upload by button or by
 * dropping files onto it (upload cards: %, pages done of total, "Upload failed: …" gone after
 * 5 s), search (case-insensitive, 250 ms debounce), filter, sort, select, and a nested page view
 * for a multi-page document. Cards and pages are dragged onto the board or clicked to land at
 * the view's centre; "add all pages" lays a document out as pages to write on. Viewers browse.
 * The rules (filter, sort, search, byte units) are the files page's: imported, not copied.
 */
import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ArrowDownWideNarrow, ArrowLeft, ArrowUpNarrowWide, FileText, Layers, Plus, Upload, X } from 'lucide-react';
import { DOCUMENT_FORMATS, docPageUrl, type DocumentDto } from '@wb/proto';
import { Drawer, type Dock } from '../../../ui/Drawer';
import { ICON_PROPS } from '../../../ui/icons';
import { Tooltip } from '../../../ui/Tooltip';
import { useGetDocsQuery } from '../../files/filesApi';
import {
  DEFAULT_DIR,
  DEFAULT_SORT,
  FILE_FILTERS,
  FILE_SEARCH_DEBOUNCE_MS,
  NAME_TOOLTIP_LENGTH,
  SORT_FIELDS,
  formatBytes,
  isSortField,
  selectDocs,
  thumbnailUrl,
  visibleSelection,
  type FileFilter,
  type FileSort,
} from '../../files/filesLogic';
import { useUploads, type UploadEntry } from '../../files/useUploads';
import type { FilePlacer } from './BoardFiles';
import { encodeDrag, dragPayloadOf, FILE_DRAG_MIME, type FileDragPayload } from './placement';

/** what the upload button offers (the server sniffs the content; this only helps the picker) */
const ACCEPT = ['image/*', ...DOCUMENT_FORMATS.map((f) => `.${f}`)].join(',');
/** while a file converts, the list is asked again this often (its card shows the progress) */
const PROCESSING_POLL_MS = 2000;

export interface FileDrawerProps {
  dock: Dock;
  onDockChange: (dock: Dock) => void;
  onClose: () => void;
  placer: FilePlacer;
  /** an upload was refused for the plan (ERR_UPLOAD_NOT_ENABLED): the upgrade prompt */
  onUpgrade: () => void;
}

export function FileDrawer({ dock, onDockChange, onClose, placer, onUpgrade }: FileDrawerProps) {
  const { t, i18n } = useTranslation('board');
  const locale = i18n.language;
  const [processing, setProcessing] = useState(false);
  const docs = useGetDocsQuery(undefined, { pollingInterval: processing ? PROCESSING_POLL_MS : 0 });
  const all = useMemo(() => docs.data ?? [], [docs.data]);
  useEffect(() => setProcessing(all.some((d) => d.status === 'processing')), [all]);

  const [input, setInput] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQuery(input), FILE_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [input]);
  const [filter, setFilter] = useState<FileFilter>('all');
  const [sort, setSort] = useState<FileSort>(DEFAULT_SORT);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [openId, setOpenId] = useState<string | null>(null);
  const [dropping, setDropping] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const uploads = useUploads({ onUpgrade });

  const shown = useMemo(() => selectDocs(all, { filter, query, sort, locale }), [all, filter, query, sort, locale]);
  const chosen = visibleSelection(selected, shown);
  const open = openId ? all.find((d) => d.id === openId) : undefined;

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer.types).includes('Files');
  const dropProps = {
    onDragOver: (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
      setDropping(true);
    },
    onDragLeave: (e: DragEvent) => {
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDropping(false);
    },
    onDrop: (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setDropping(false);
      uploads.start(Array.from(e.dataTransfer.files));
    },
  };

  return (
    <Drawer title={t('drawer.title')} dock={dock} onDockChange={onDockChange} onClose={onClose}>
      <div className="file-drawer" data-dock={dock} data-dropping={dropping || undefined} {...dropProps}>
        {open ? (
          <PageView doc={open} placer={placer} onBack={() => setOpenId(null)} />
        ) : (
          <>
            <div className="fd-bar">
              <input
                type="search"
                className="fd-search"
                aria-label={t('drawer.search')}
                placeholder={t('drawer.search')}
                value={input}
                onChange={(e) => setInput(e.target.value)}
                onKeyDown={(e) => e.stopPropagation()}
              />
              <div className="fd-filters" role="group" aria-label={t('drawer.filter')}>
                {FILE_FILTERS.map((f) => (
                  <button
                    key={f}
                    type="button"
                    data-filter={f}
                    aria-pressed={filter === f}
                    onClick={() => setFilter(f)}
                  >
                    {t(`drawer.filter_${f}`)}
                  </button>
                ))}
              </div>
              <label className="fd-sort">
                <span className="sr-only">{t('drawer.sort')}</span>
                <select
                  value={sort.field}
                  aria-label={t('drawer.sort')}
                  onChange={(e) =>
                    isSortField(e.target.value) && setSort({ field: e.target.value, dir: DEFAULT_DIR[e.target.value] })
                  }
                >
                  {SORT_FIELDS.map((f) => (
                    <option key={f} value={f}>
                      {t(`drawer.sort_${f}`)}
                    </option>
                  ))}
                </select>
              </label>
              <button
                type="button"
                className="fd-icon"
                data-action="sort-direction"
                data-dir={sort.dir}
                aria-label={sort.dir === 'asc' ? t('drawer.sortAsc') : t('drawer.sortDesc')}
                title={sort.dir === 'asc' ? t('drawer.sortAsc') : t('drawer.sortDesc')}
                onClick={() => setSort({ field: sort.field, dir: sort.dir === 'asc' ? 'desc' : 'asc' })}
              >
                {sort.dir === 'asc' ? (
                  <ArrowUpNarrowWide {...ICON_PROPS} size={16} />
                ) : (
                  <ArrowDownWideNarrow {...ICON_PROPS} size={16} />
                )}
              </button>
              <button type="button" className="fd-upload" data-action="upload" onClick={() => picker.current?.click()}>
                <Upload {...ICON_PROPS} size={16} />
                <span>{t('drawer.upload')}</span>
              </button>
              <input
                ref={picker}
                type="file"
                multiple
                hidden
                accept={ACCEPT}
                data-testid="drawer-file-input"
                onChange={(e) => {
                  uploads.start(Array.from(e.target.files ?? []));
                  e.target.value = '';
                }}
              />
            </div>
            {chosen.length ? (
              <div className="fd-selection" role="group" aria-label={t('drawer.selected', { count: chosen.length })}>
                <span>{t('drawer.selected', { count: chosen.length })}</span>
                <button
                  type="button"
                  data-action="add-selected"
                  disabled={!placer.canPlace}
                  onClick={() =>
                    void placer.placeDocs(shown.filter((d) => chosen.includes(d.id) && d.status === 'ready'))
                  }
                >
                  <Plus {...ICON_PROPS} size={16} />
                  {t('drawer.addSelected')}
                </button>
                <button type="button" data-action="clear-selection" onClick={() => setSelected(new Set())}>
                  {t('drawer.clearSelection')}
                </button>
              </div>
            ) : null}
            {!placer.canPlace ? <p className="fd-note">{t('drawer.viewOnly')}</p> : null}
            <UploadCards entries={uploads.entries} onCancel={uploads.cancel} />
            {docs.isError ? (
              <p className="fd-empty" role="alert">
                {t('drawer.loadFailed')}
              </p>
            ) : docs.isLoading ? (
              <p className="fd-empty">{t('loading')}</p>
            ) : shown.length === 0 ? (
              <p className="fd-empty">{all.length ? t('drawer.noMatch') : t('drawer.empty')}</p>
            ) : (
              <ul className="fd-grid" aria-label={t('drawer.title')}>
                {shown.map((d) => (
                  <DocCard
                    key={d.id}
                    doc={d}
                    locale={locale}
                    selected={selected.has(d.id)}
                    onToggle={() => toggle(d.id)}
                    placer={placer}
                    onOpen={() => setOpenId(d.id)}
                  />
                ))}
              </ul>
            )}
            {dropping ? <div className="fd-drop">{t('drawer.dropHere')}</div> : null}
          </>
        )}
      </div>
    </Drawer>
  );
}

function startDrag(e: DragEvent, payload: FileDragPayload) {
  e.dataTransfer.setData(FILE_DRAG_MIME, encodeDrag(payload));
  e.dataTransfer.effectAllowed = 'copy';
}

/** A file's name, cut with an ellipsis; past 25 characters the whole name shows as a tooltip. */
function FileName({ name }: { name: string }) {
  const label = <span className="fd-name">{name}</span>;
  return name.length > NAME_TOOLTIP_LENGTH ? <Tooltip text={name}>{label}</Tooltip> : label;
}

/** "1 page" / "12 pages": the singular label only for exactly one */
function pagesLabel(t: (k: string, v?: Record<string, unknown>) => string, count: number): string {
  return t(count === 1 ? 'drawer.pageCountOne' : 'drawer.pageCount', { count });
}

function DocCard(props: {
  doc: DocumentDto;
  locale: string;
  selected: boolean;
  onToggle: () => void;
  placer: FilePlacer;
  onOpen: () => void;
}) {
  const { t } = useTranslation('board');
  const { doc, placer } = props;
  const ready = doc.status === 'ready';
  const multi = !doc.isImage && doc.pages > 1;
  // a multi-page document opens its pages (viewers too: browsing); anything else lands on the board
  const action = multi ? 'open-pages' : 'place';
  const usable = ready && (multi || placer.canPlace);
  const label = multi ? t('drawer.openPages', { name: doc.name }) : t('drawer.place', { name: doc.name });
  return (
    <li
      className="fd-card"
      data-doc-id={doc.id}
      data-kind={doc.isImage ? 'image' : 'document'}
      data-status={doc.status}
      data-selected={props.selected}
    >
      <input
        type="checkbox"
        className="fd-check"
        checked={props.selected}
        aria-label={t('drawer.select', { name: doc.name })}
        onChange={props.onToggle}
      />
      <button
        type="button"
        className="fd-thumb"
        data-action={action}
        aria-label={label}
        title={label}
        disabled={!usable}
        draggable={ready && placer.canPlace}
        onDragStart={(e) => startDrag(e, dragPayloadOf(doc))}
        onClick={() => (multi ? props.onOpen() : void placer.place(dragPayloadOf(doc)))}
      >
        {ready ? (
          <img src={thumbnailUrl(doc)} alt="" loading="lazy" draggable={false} />
        ) : (
          <span className="fd-placeholder">
            <FileText {...ICON_PROPS} size={28} />
          </span>
        )}
        {multi ? (
          <span className="fd-pages-badge" aria-hidden="true">
            <Layers {...ICON_PROPS} size={12} />
            {doc.pages}
          </span>
        ) : null}
      </button>
      <div className="fd-meta">
        <FileName name={doc.name} />
        <span className="fd-info">
          {doc.status === 'processing'
            ? doc.error
              ? t('drawer.statusRetrying')
              : doc.pages
                ? t('drawer.statusPages', { done: doc.pagesDone, total: doc.pages })
                : t('drawer.statusProcessing')
            : doc.status === 'failed'
              ? t('drawer.conversionFailed')
              : doc.isImage
                ? formatBytes(doc.size, props.locale)
                : `${pagesLabel(t, doc.pages)} · ${formatBytes(doc.size, props.locale)}`}
        </span>
      </div>
    </li>
  );
}

/** The nested page view of a multi-page document: its page thumbnails, "add all pages", back. */
function PageView({ doc, placer, onBack }: { doc: DocumentDto; placer: FilePlacer; onBack: () => void }) {
  const { t } = useTranslation('board');
  const pages = Array.from({ length: Math.max(1, doc.pages) }, (_, i) => i);
  return (
    <section className="fd-pages" aria-label={doc.name}>
      <div className="fd-bar">
        <button type="button" data-action="back" onClick={onBack}>
          <ArrowLeft {...ICON_PROPS} size={16} />
          <span>{t('drawer.back')}</span>
        </button>
        <h3 className="fd-doc-title">
          <FileName name={doc.name} />
        </h3>
        <span className="fd-info">{pagesLabel(t, doc.pages)}</span>
        <button
          type="button"
          className="fd-upload"
          data-action="add-all-pages"
          disabled={!placer.canPlace}
          onClick={() => void placer.place({ kind: 'document', fileId: doc.imageId, pages: Math.max(1, doc.pages) })}
        >
          <Plus {...ICON_PROPS} size={16} />
          <span>{t('drawer.addAllPages')}</span>
        </button>
      </div>
      {!placer.canPlace ? <p className="fd-note">{t('drawer.viewOnly')}</p> : null}
      <ul className="fd-grid">
        {pages.map((page) => (
          <li key={page} className="fd-card fd-page" data-page={page}>
            <button
              type="button"
              className="fd-thumb"
              data-action="place-page"
              aria-label={t('drawer.placePage', { page: page + 1 })}
              title={t('drawer.placePage', { page: page + 1 })}
              disabled={!placer.canPlace}
              draggable={placer.canPlace}
              onDragStart={(e) => startDrag(e, { kind: 'documentPage', fileId: doc.imageId, page })}
              onClick={() => void placer.place({ kind: 'documentPage', fileId: doc.imageId, page })}
            >
              <img src={docPageUrl(doc.imageId, page, 'thumb')} alt="" loading="lazy" draggable={false} />
            </button>
            <span className="fd-info">{t('drawer.page', { page: page + 1 })}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Upload cards (spec §2, §4): name, state with %, pages done of total, or the failure. */
function UploadCards({ entries, onCancel }: { entries: readonly UploadEntry[]; onCancel: (key: string) => void }) {
  const { t } = useTranslation('board');
  if (!entries.length) return null;
  return (
    <ul className="fd-uploads" aria-label={t('drawer.uploads')}>
      {entries.map((u) => (
        <li key={u.key} className="fd-upload-card" data-status={u.status} role="status">
          <span className="fd-name">{u.name}</span>
          <span className="fd-info">{uploadText(t, u)}</span>
          {u.status !== 'failed' && u.status !== 'done' ? (
            <>
              <progress max={1} value={u.progress} />
              <button type="button" className="fd-icon" aria-label={t('drawer.cancel')} onClick={() => onCancel(u.key)}>
                <X {...ICON_PROPS} size={14} />
              </button>
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function uploadText(t: (k: string, v?: Record<string, unknown>) => string, u: UploadEntry): string {
  const percent = Math.round(u.progress * 100);
  switch (u.status) {
    case 'queued':
      return t('drawer.statusQueued');
    case 'hashing':
      return t('drawer.statusHashing', { percent });
    case 'uploading':
      return t('drawer.statusUploading', { percent });
    case 'processing':
      return u.pages
        ? t('drawer.statusPages', { done: u.pagesDone ?? 0, total: u.pages })
        : t('drawer.statusProcessing');
    case 'done':
      return t('drawer.statusDone');
    case 'failed':
      return t('drawer.uploadFailed', { message: u.error ?? '' });
  }
}
