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
import { Button, ButtonLink, IconButton, buttonClass } from '../../ui/kit/Button';

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
          <Button onClick={() => void docQuery.refetch()}>{t('files.retry')}</Button>
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
        <LocalLink to={doc.isImage ? '/images' : '/documents'} className={buttonClass()}>
          <ArrowLeft {...ICON_PROPS} size={16} /> {t('files.viewer.back')}
        </LocalLink>
        <h1 id="file-viewer-title" title={doc.name}>
          {doc.name}
        </h1>
        <span className="viewer-size">{formatSize(doc.size)}</span>
        <ButtonLink href={originalUrl(doc.id)} download={doc.name} icon={<Download {...ICON_PROPS} size={16} />}>
          {t('files.viewer.download')}
        </ButtonLink>
      </div>
      <div className="viewer-toolbar" role="toolbar" aria-label={t('files.viewer.toolbar')}>
        {count > 1 ? (
          <span className="viewer-pages">
            <IconButton
              onClick={() => go(page - 1)}
              disabled={page === 0}
              label={t('files.viewer.previous')}
              icon={<ChevronLeft {...ICON_PROPS} size={18} />}
            />
            <span aria-live="polite" data-testid="viewer-page">
              {t('files.viewer.pageOf', { page: page + 1, count })}
            </span>
            <IconButton
              onClick={() => go(page + 1)}
              disabled={page >= count - 1}
              label={t('files.viewer.next')}
              icon={<ChevronRight {...ICON_PROPS} size={18} />}
            />
          </span>
        ) : null}
        <span className="viewer-zoom">
          <IconButton
            onClick={() => setZoom((z) => zoomStep(z, -1))}
            disabled={zoom <= ZOOM_STEPS[0]}
            label={t('files.viewer.zoomOut')}
            icon={<ZoomOut {...ICON_PROPS} size={18} />}
          />
          <output aria-live="polite">{percent.format(zoom)}</output>
          <IconButton
            onClick={() => setZoom((z) => zoomStep(z, 1))}
            disabled={zoom >= ZOOM_STEPS[ZOOM_STEPS.length - 1]!}
            label={t('files.viewer.zoomIn')}
            icon={<ZoomIn {...ICON_PROPS} size={18} />}
          />
          <IconButton
            onClick={() => setZoom(1)}
            disabled={zoom === 1}
            label={t('files.viewer.fit')}
            icon={<Maximize2 {...ICON_PROPS} size={18} />}
          />
        </span>
      </div>
      <div className="viewer-stage" role="region" tabIndex={0} aria-label={t('files.viewer.stage')}>
        {stage}
      </div>
    </section>
  );
}
