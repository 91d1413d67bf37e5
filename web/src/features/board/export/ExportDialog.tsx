/**
 * The board's export dialog (board menu → Export): PNG, SVG or PDF of the whole board, the
 * selection or the view. The exporters load only when a button is pressed (jsPDF with the PDF),
 * so opening the board page carries this dialog and the pure page geometry, nothing heavier.
 * Every plan exports and viewers may too: nothing here asks for an access level.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BoardBackground } from '@wb/proto';
import { Modal } from '../../../ui/Modal';
import type { Rect } from '../canvas/camera';
import { exportFileName } from './filename';
import {
  documentPages,
  ExportError,
  exportRegion,
  type ExportScene,
  type ExportScope,
  type Orientation,
  type PaperName,
} from './pages';
import type { PdfLayout } from './pdfExport';
import type { VectorFor } from './vector';
import './exportDialog.css';

export type ExportFormat = 'png' | 'svg' | 'pdf';

export interface ExportDialogProps {
  scene: ExportScene;
  selection: ReadonlySet<string>;
  /** the visible world rectangle */
  view: Rect;
  /** the board's title: the file's name */
  title: string;
  background: BoardBackground;
  /** the board's theme: exports always use the light theme's ink (a blackboard keeps its own) */
  theme?: 'light' | 'dark';
  /** formulas and graphs as SVG fragments (else they export as their source in a frame) */
  vectorFor?: VectorFor;
  onClose: () => void;
}

function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // the download has started by then; the URL would otherwise hold the file in memory
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

export function ExportDialog({ scene, selection, view, title, background, vectorFor, onClose }: ExportDialogProps) {
  const { t } = useTranslation('board');
  const [scope, setScope] = useState<ExportScope>('board');
  const [scale, setScale] = useState<1 | 2 | 4>(2);
  const [withBackground, setWithBackground] = useState(true);
  const [paper, setPaper] = useState<PaperName>('a4');
  const [orientation, setOrientation] = useState<Orientation>('landscape');
  const [layout, setLayout] = useState<PdfLayout>('fit');
  const [busy, setBusy] = useState<{ format: ExportFormat; progress: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notices, setNotices] = useState<string[]>([]);
  const running = useRef<AbortController | null>(null);
  const hasDocuments = useMemo(() => documentPages(scene).length > 0, [scene]);
  const hasSelection = selection.size > 0;

  // closing the dialog stops an export under way
  useEffect(() => () => running.current?.abort(), []);

  const run = async (format: ExportFormat) => {
    setError(null);
    setNotices([]);
    const documents = format === 'pdf' && layout === 'documentPages';
    const region = exportRegion(scene, scope, selection, view) ?? (documents ? view : null);
    if (!region) {
      setError(t('export.errors.empty'));
      return;
    }
    const controller = new AbortController();
    running.current = controller;
    setBusy({ format, progress: 0 });
    const found: string[] = [];
    const common = {
      background: withBackground,
      boardBackground: background,
      only: scope === 'selection' ? selection : undefined,
      signal: controller.signal,
      onProgress: (progress: number) => setBusy({ format, progress }),
    };
    try {
      let blob: Blob;
      if (format === 'png') {
        const { exportPng } = await import('./pngExport');
        blob = await exportPng(scene, region, {
          ...common,
          scale,
          onScaleLowered: (s) => found.push(t('export.notices.scaleLowered', { percent: Math.round(s * 100) })),
        });
      } else if (format === 'svg') {
        const { exportSvg } = await import('./svgExport');
        blob = await exportSvg(scene, region, { ...common, vectorFor });
      } else {
        const { exportPdf } = await import('./pdfExport');
        blob = await exportPdf(scene, region, {
          ...common,
          vectorFor,
          paper,
          orientation,
          layout,
          onNotice: (n) =>
            found.push(
              n.code === 'missingGlyphs'
                ? t('export.notices.missingGlyphs')
                : t('export.notices.splitScale', { percent: n.percent }),
            ),
        });
      }
      if (controller.signal.aborted) return;
      download(blob, exportFileName(title, format));
      if (found.length) setNotices(found);
      else onClose();
    } catch (e) {
      if (e instanceof ExportError && e.code === 'cancelled') return;
      setError(t(e instanceof ExportError ? `export.errors.${e.code}` : 'export.errors.failed'));
    } finally {
      if (running.current === controller) {
        running.current = null;
        setBusy(null);
      }
    }
  };

  const cancel = () => {
    running.current?.abort();
    running.current = null;
    setBusy(null);
  };

  const radio = <T extends string | number>(
    name: string,
    value: T,
    current: T,
    set: (v: T) => void,
    label: string,
    disabled = false,
  ) => (
    <label className="export-choice">
      <input
        type="radio"
        name={name}
        checked={current === value}
        disabled={disabled || !!busy}
        onChange={() => set(value)}
      />
      {label}
    </label>
  );

  const footer = busy ? (
    <>
      <progress
        className="export-progress"
        value={busy.progress}
        max={1}
        aria-label={t('export.exporting', { format: busy.format.toUpperCase() })}
      />
      <button type="button" onClick={cancel} data-action="export-cancel">
        {t('export.cancel')}
      </button>
    </>
  ) : (
    <>
      <button type="button" className="primary" data-action="export-png" onClick={() => void run('png')}>
        {t('export.png')}
      </button>
      <button type="button" className="primary" data-action="export-svg" onClick={() => void run('svg')}>
        {t('export.svg')}
      </button>
      <button type="button" className="primary" data-action="export-pdf" onClick={() => void run('pdf')}>
        {t('export.pdf')}
      </button>
    </>
  );

  return (
    <Modal title={t('export.title')} onClose={onClose} className="export-dialog" footer={footer}>
      <fieldset className="export-group">
        <legend>{t('export.scope')}</legend>
        {radio('export-scope', 'board', scope, setScope, t('export.scopeBoard'))}
        {radio('export-scope', 'selection', scope, setScope, t('export.scopeSelection'), !hasSelection)}
        {radio('export-scope', 'view', scope, setScope, t('export.scopeView'))}
      </fieldset>
      <label className="export-choice">
        <input
          type="checkbox"
          checked={withBackground}
          disabled={!!busy}
          onChange={(e) => setWithBackground(e.target.checked)}
        />
        {t('export.background')}
      </label>
      <fieldset className="export-group">
        <legend>{t('export.scale')}</legend>
        {([1, 2, 4] as const).map((s) => (
          <span key={s}>{radio('export-scale', s, scale, setScale, `${s}×`)}</span>
        ))}
      </fieldset>
      <fieldset className="export-group">
        <legend>{t('export.pdfOptions')}</legend>
        <div>
          {radio('export-paper', 'a4', paper, setPaper, 'A4')}
          {radio('export-paper', 'letter', paper, setPaper, t('export.letter'))}
        </div>
        <div>
          {radio(
            'export-orientation',
            'portrait',
            orientation,
            setOrientation,
            t('export.portrait'),
            layout === 'documentPages',
          )}
          {radio(
            'export-orientation',
            'landscape',
            orientation,
            setOrientation,
            t('export.landscape'),
            layout === 'documentPages',
          )}
        </div>
        <div>
          {radio('export-layout', 'fit', layout, setLayout, t('export.fit'))}
          {radio('export-layout', 'split', layout, setLayout, t('export.split'))}
          {hasDocuments && radio('export-layout', 'documentPages', layout, setLayout, t('export.documentPages'))}
        </div>
      </fieldset>
      {error && (
        <p className="export-error" role="alert">
          {error}
        </p>
      )}
      {notices.map((n) => (
        <p key={n} className="export-notice" role="status">
          {n}
        </p>
      ))}
    </Modal>
  );
}
