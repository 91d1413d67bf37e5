/**
 * The file viewer (spec §2 `files/{id}`): one full-size page at a time, previous/next (buttons,
 * arrow keys, Page Up/Down, Home/End), zoom (buttons, + and −, 0 to fit) and the original's download.
 */
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, ChevronLeft, ChevronRight, Download, Maximize2, ZoomIn, ZoomOut } from 'lucide-react';
import type { DocumentDto } from '@wb/proto';
import type { PageProps } from '../../app/pageProps';
import { LocalLink } from '../../app/prefix';
import { EmptyState, Loading } from '../../ui/EmptyState';
import { ICON_PROPS } from '../../ui/icons';
import { useSession } from '../session/useSession';
import { useFormatBytes } from './FileCards';
import { originalUrl, useGetDocQuery } from './filesApi';
import { ZOOM_STEPS, fullUrl, pageCount, zoomStep } from './filesLogic';
import './files.css';

const POLL_WHILE_PROCESSING_MS = 1000;

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

export function FileViewerPage({ match }: PageProps) {
  const { t } = useTranslation();
  const { user } = useSession();
  const id = match.params.id ?? '';
  const [processing, setProcessing] = useState(false);
  const docQuery = useGetDocQuery(id, {
    skip: !user,
    pollingInterval: processing ? POLL_WHILE_PROCESSING_MS : 0,
  });
  const doc = docQuery.data;
  useEffect(() => setProcessing(doc?.status === 'processing'), [doc?.status]);

  if (docQuery.isLoading || (docQuery.isUninitialized && docQuery.data === undefined)) return <Loading />;
  if (docQuery.isError && docQuery.data === undefined)
    return (
      <section className="page">
        <h1>{t('title.files')}</h1>
        <EmptyState title={t('files.loadFailed')}>
          <button type="button" onClick={() => void docQuery.refetch()}>
            {t('files.retry')}
          </button>
        </EmptyState>
      </section>
    );
  if (!doc)
    return (
      <section className="page">
        <h1>{t('title.files')}</h1>
        <EmptyState title={t('files.notFound')}>
          <LocalLink to="/files">{t('files.viewer.back')}</LocalLink>
        </EmptyState>
      </section>
    );
  return <Viewer key={doc.id} doc={doc} />;
}

function Viewer({ doc }: { doc: DocumentDto }) {
  const { t, i18n } = useTranslation();
  const formatSize = useFormatBytes();
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent' });
  const count = pageCount(doc);
  const [page, setPage] = useState(0);
  const [zoom, setZoom] = useState(1);
  const [broken, setBroken] = useState<number>();

  const go = useCallback((to: number) => setPage(Math.max(0, Math.min(count - 1, to))), [count]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || typing(e.target)) return;
      const actions: Record<string, () => void> = {
        ArrowLeft: () => go(page - 1),
        PageUp: () => go(page - 1),
        ArrowRight: () => go(page + 1),
        PageDown: () => go(page + 1),
        Home: () => go(0),
        End: () => go(count - 1),
        '+': () => setZoom((z) => zoomStep(z, 1)),
        '=': () => setZoom((z) => zoomStep(z, 1)),
        '-': () => setZoom((z) => zoomStep(z, -1)),
        '0': () => setZoom(1),
      };
      const action = actions[e.key];
      if (!action) return;
      e.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go, page, count]);

  const ready = doc.status === 'ready' || (doc.status === 'processing' && page < doc.pagesDone);
  let stage;
  if (doc.status === 'failed')
    stage = (
      <p className="viewer-state" role="alert">
        {t('files.upload.failed', { message: doc.error ?? '' })}
      </p>
    );
  else if (!ready)
    stage = (
      <p className="viewer-state" role="status">
        <span className="spinner" aria-hidden="true" /> {t('files.viewer.preparing')}
      </p>
    );
  else if (broken === page)
    stage = (
      <p className="viewer-state" role="alert">
        {t('files.viewer.imageFailed')}
      </p>
    );
  else
    stage = (
      <img
        key={page}
        className="viewer-image"
        src={fullUrl(doc, page)}
        alt={doc.isImage ? doc.name : t('files.viewer.pageOf', { page: page + 1, count })}
        style={{ width: `${zoom * 100}%` }}
        onError={() => setBroken(page)}
        draggable={false}
      />
    );

  return (
    <section className="page wide file-viewer" aria-labelledby="file-viewer-title">
      <div className="viewer-head">
        <LocalLink to={doc.isImage ? '/images' : '/documents'} className="button">
          <ArrowLeft {...ICON_PROPS} size={16} /> {t('files.viewer.back')}
        </LocalLink>
        <h1 id="file-viewer-title" title={doc.name}>
          {doc.name}
        </h1>
        <span className="viewer-size">{formatSize(doc.size)}</span>
        <a className="button" href={originalUrl(doc.id)} download={doc.name}>
          <Download {...ICON_PROPS} size={16} /> {t('files.viewer.download')}
        </a>
      </div>
      <div className="viewer-toolbar" role="toolbar" aria-label={t('files.viewer.toolbar')}>
        {count > 1 ? (
          <span className="viewer-pages">
            <button
              type="button"
              className="files-icon-button"
              onClick={() => go(page - 1)}
              disabled={page === 0}
              aria-label={t('files.viewer.previous')}
            >
              <ChevronLeft {...ICON_PROPS} size={18} />
            </button>
            <span aria-live="polite" data-testid="viewer-page">
              {t('files.viewer.pageOf', { page: page + 1, count })}
            </span>
            <button
              type="button"
              className="files-icon-button"
              onClick={() => go(page + 1)}
              disabled={page >= count - 1}
              aria-label={t('files.viewer.next')}
            >
              <ChevronRight {...ICON_PROPS} size={18} />
            </button>
          </span>
        ) : null}
        <span className="viewer-zoom">
          <button
            type="button"
            className="files-icon-button"
            onClick={() => setZoom((z) => zoomStep(z, -1))}
            disabled={zoom <= ZOOM_STEPS[0]}
            aria-label={t('files.viewer.zoomOut')}
          >
            <ZoomOut {...ICON_PROPS} size={18} />
          </button>
          <output aria-live="polite">{percent.format(zoom)}</output>
          <button
            type="button"
            className="files-icon-button"
            onClick={() => setZoom((z) => zoomStep(z, 1))}
            disabled={zoom >= ZOOM_STEPS[ZOOM_STEPS.length - 1]!}
            aria-label={t('files.viewer.zoomIn')}
          >
            <ZoomIn {...ICON_PROPS} size={18} />
          </button>
          <button
            type="button"
            className="files-icon-button"
            onClick={() => setZoom(1)}
            disabled={zoom === 1}
            aria-label={t('files.viewer.fit')}
          >
            <Maximize2 {...ICON_PROPS} size={18} />
          </button>
        </span>
      </div>
      <div className="viewer-stage" role="region" tabIndex={0} aria-label={t('files.viewer.stage')}>
        {stage}
      </div>
    </section>
  );
}
