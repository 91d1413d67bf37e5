/**
 * The files page (spec §2: files, with the aliases documents and images that set the filter):
 * document cards, search, filter, sort, multi-select and delete, upload by button or by dropping
 * files onto the page, with upload cards.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ArrowDown, ArrowUp, Trash2, Upload } from 'lucide-react';
import { DOCUMENT_FORMATS, type DocumentDto } from '@wb/proto';
import type { PageProps } from '../../app/pageProps';
import { LocalNavLink } from '../../app/prefix';
import { useAppDispatch } from '../../app/store';
import { ConfirmDialog } from '../../ui/kit/Dialog';
import { EmptyState, Loading } from '../../ui/EmptyState';
import { ICON_PROPS } from '../../ui/icons';
import { UpgradeDialog } from '../../ui/UpgradePrompt';
import { reportError } from '../../ui/reportError';
import { notify } from '../../ui/toastsSlice';
import { useCodeText } from '../../ui/useCodeText';
import { useUpgradeVariant } from '../billing/useBilling';
import { useGetPlanQuery } from '../session/sessionApi';
import { useSession } from '../session/useSession';
import { trackFilesEvent } from './analytics';
import { DocumentCard, UploadCard, useFormatBytes } from './FileCards';
import { useDeleteDocsMutation, useGetDocsQuery } from './filesApi';
import {
  PAGE_SORT,
  FILE_FILTERS,
  FILE_SEARCH_DEBOUNCE_MS,
  FILTER_PATHS,
  SORT_FIELDS,
  chunkIds,
  filterFromPath,
  nextSort,
  selectDocs,
  visibleSelection,
  type FileSort,
} from './filesLogic';
import { useUploads } from './useUploads';
import './files.css';
import { Button } from '../../ui/kit/Button';
import { Checkbox } from '../../ui/kit/Checkbox';

/** What the file picker offers: every accepted document type by extension, and any image. */
export const ACCEPT = ['image/*', ...DOCUMENT_FORMATS.map((f) => `.${f}`)].join(',');

function hasFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer?.types ?? []).includes('Files');
}

/** The value after the person stopped typing for `ms` (spec §5: file search waits 250 ms). */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function FilesPage({ url }: PageProps) {
  const { t, i18n } = useTranslation();
  const dispatch = useAppDispatch();
  const codeText = useCodeText();
  const { user } = useSession();
  const planQuery = useGetPlanQuery(undefined, { skip: !user });
  const docsQuery = useGetDocsQuery(undefined, { skip: !user });
  const [deleteDocs, deleting] = useDeleteDocsMutation();
  const formatSize = useFormatBytes();
  const filter = filterFromPath(url);

  const [query, setQuery] = useState('');
  const settledQuery = useDebounced(query, FILE_SEARCH_DEBOUNCE_MS);
  const [sort, setSort] = useState<FileSort>(PAGE_SORT);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirm, setConfirm] = useState<string[]>();
  const [upgrade, setUpgrade] = useState(false);
  const [dragging, setDragging] = useState(false);
  const dragDepth = useRef(0);
  const input = useRef<HTMLInputElement>(null);
  const searchId = useId();

  const onUpgrade = useCallback(() => setUpgrade(true), []);
  const uploads = useUploads({ onUpgrade, translate: codeText });

  const shown = useMemo(
    () => selectDocs(docsQuery.data ?? [], { filter, query: settledQuery, sort, locale: i18n.language }),
    [docsQuery.data, filter, settledQuery, sort, i18n.language],
  );
  const selectedIds = useMemo(() => visibleSelection(selected, shown), [selected, shown]);

  const toggle = useCallback(
    (id: string) =>
      setSelected((prev) => {
        const next = new Set(prev);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );

  const uploadsAllowed = !(planQuery.data && !planQuery.data.features.fileUpload);
  /** Without the plan feature the upgrade prompt opens before any file is read (spec §2). */
  const startUploads = (files: FileList | File[] | null) => {
    const list = Array.from(files ?? []);
    if (list.length === 0) return;
    if (!uploadsAllowed) {
      setUpgrade(true);
      return;
    }
    uploads.start(list);
  };
  /** The Upload button: the prompt first on a plan without uploads, not a file chooser whose pick is refused. */
  const chooseFiles = () => {
    if (uploadsAllowed) input.current?.click();
    else setUpgrade(true);
  };

  const runDelete = async (ids: string[]) => {
    setConfirm(undefined);
    let removed = 0;
    for (const chunk of chunkIds(ids)) {
      const result = await deleteDocs(chunk);
      if ('error' in result) {
        reportError(dispatch, result.error, codeText);
        break;
      }
      removed += result.data.ids.length;
    }
    if (removed > 0) {
      trackFilesEvent('e_file_delete', { count: removed });
      dispatch(notify({ type: 'info', message: t('files.deleted', { count: removed }) }));
    }
    setSelected(new Set());
  };

  const dragProps = {
    onDragEnter: (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      dragDepth.current += 1;
      setDragging(true);
    },
    onDragOver: (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: (e: DragEvent) => {
      if (!hasFiles(e)) return;
      dragDepth.current = Math.max(0, dragDepth.current - 1);
      if (dragDepth.current === 0) setDragging(false);
    },
    onDrop: (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      dragDepth.current = 0;
      setDragging(false);
      startUploads(Array.from(e.dataTransfer.files));
    },
  };

  let body;
  if (docsQuery.isLoading || (docsQuery.isUninitialized && !docsQuery.data)) body = <Loading />;
  else if (docsQuery.isError || !docsQuery.data)
    body = (
      <EmptyState title={t('files.loadFailed')}>
        <Button onClick={() => void docsQuery.refetch()}>{t('files.retry')}</Button>
      </EmptyState>
    );
  else if (shown.length === 0)
    body = settledQuery.trim() ? (
      <EmptyState title={t('files.noMatch', { query: settledQuery.trim() })} />
    ) : (
      <EmptyState title={filter === 'all' ? t('files.empty') : t(`files.empty_${filter}`)}>
        <p>{t('files.emptyHint')}</p>
      </EmptyState>
    );
  else
    body = (
      <ul className="doc-grid" aria-label={t(`files.${filter}`)}>
        {shown.map((doc: DocumentDto) => (
          <DocumentCard
            key={doc.id}
            doc={doc}
            selected={selected.has(doc.id)}
            size={formatSize(doc.size)}
            onToggle={toggle}
          />
        ))}
      </ul>
    );

  const allSelected = shown.length > 0 && selectedIds.length === shown.length;
  return (
    <section className={`page wide files-page${dragging ? ' dragging' : ''}`} {...dragProps}>
      <h1>{t('title.files')}</h1>
      <nav className="tabs" aria-label={t('files.filter')}>
        <ul>
          {FILE_FILTERS.map((f) => (
            <li key={f}>
              <LocalNavLink to={FILTER_PATHS[f]} end>
                {t(`files.${f}`)}
              </LocalNavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="files-toolbar">
        <Button variant="primary" icon={<Upload {...ICON_PROPS} size={16} />} onClick={chooseFiles}>
          {t('files.upload.button')}
        </Button>
        <input
          ref={input}
          type="file"
          multiple
          accept={ACCEPT}
          hidden
          data-testid="file-input"
          onChange={(e) => {
            startUploads(e.target.files);
            e.target.value = '';
          }}
        />
        <span className="files-drop-hint">{t('files.upload.dropHint')}</span>
        <div className="toolbar-right">
          <label htmlFor={searchId} className="sr-only">
            {t('files.search')}
          </label>
          <input
            id={searchId}
            type="search"
            value={query}
            placeholder={t('files.search')}
            onChange={(e) => setQuery(e.target.value)}
          />
          <div className="files-sort" role="group" aria-label={t('files.sort.label')}>
            {SORT_FIELDS.map((field) => {
              const active = sort.field === field;
              const Arrow = (active ? sort.dir : nextSort(sort, field).dir) === 'asc' ? ArrowUp : ArrowDown;
              return (
                <Button
                  key={field}
                  aria-pressed={active}
                  data-sort={field}
                  aria-label={t('files.sort.by', {
                    field: t(`files.sort.${field}`),
                    dir: t(`files.sort.${active ? sort.dir : nextSort(sort, field).dir}`),
                  })}
                  onClick={() => setSort((s) => nextSort(s, field))}
                >
                  {t(`files.sort.${field}`)}
                  {active ? <Arrow {...ICON_PROPS} size={14} /> : null}
                </Button>
              );
            })}
          </div>
        </div>
      </div>
      <div className="selection-bar files-selection" role="toolbar" aria-label={t('files.selection.label')}>
        <Checkbox
          label={t('files.selection.all')}
          checked={allSelected}
          disabled={shown.length === 0}
          ref={(el) => {
            if (el) el.indeterminate = selectedIds.length > 0 && !allSelected;
          }}
          onChange={(on) => setSelected(new Set(on ? shown.map((d) => d.id) : []))}
        />
        <span aria-live="polite">
          {selectedIds.length > 0 ? t('files.selection.count', { count: selectedIds.length }) : null}
        </span>
        <Button
          variant="danger"
          size="sm"
          className="files-delete"
          icon={<Trash2 {...ICON_PROPS} size={16} />}
          loading={deleting.isLoading}
          disabled={selectedIds.length === 0}
          onClick={() => setConfirm(selectedIds)}
        >
          {t('files.delete')}
        </Button>
      </div>
      {uploads.entries.length > 0 ? (
        <ul className="upload-list" aria-label={t('files.upload.list')} aria-live="polite">
          {uploads.entries.map((entry) => (
            <UploadCard key={entry.key} entry={entry} onCancel={uploads.cancel} />
          ))}
        </ul>
      ) : null}
      {body}
      {dragging ? (
        <div className="files-drop-overlay" aria-hidden="true">
          <Upload {...ICON_PROPS} size={40} />
          <span>{t('files.upload.dropHere')}</span>
        </div>
      ) : null}
      {confirm ? (
        <ConfirmDialog
          title={t('files.confirmDelete.title', { count: confirm.length })}
          confirmLabel={t('files.delete')}
          onCancel={() => setConfirm(undefined)}
          onConfirm={() => void runDelete(confirm)}
        >
          <p>{t('files.confirmDelete.text', { count: confirm.length })}</p>
        </ConfirmDialog>
      ) : null}
      {upgrade ? <UploadUpgradeDialog onClose={() => setUpgrade(false)} /> : null}
    </section>
  );
}

/** ERR_UPLOAD_NOT_ENABLED: the app's upgrade prompt for the person's situation (spec §2). */
function UploadUpgradeDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const variant = useUpgradeVariant();
  return (
    <UpgradeDialog
      variant={variant}
      title={t('files.upgrade.title')}
      text={t('files.upgrade.text')}
      onClose={onClose}
    />
  );
}
