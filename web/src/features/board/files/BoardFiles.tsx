/**
 * Files on a board: places library files (drawer clicks and drags, "add all pages"), uploads
 * images pasted or dropped onto the board and PDFs dropped onto it (an upload *for this board*:
 * allowed without the fileUpload feature, spec §5) and places them once converted, with a
 * progress card meanwhile. Mounts the file drawer when it is open. Every placement is one
 * EditorApi.addShapes call: one change (or several within SPEC L4), one undo step.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { DocumentDto, Settings } from '@wb/proto';
import { useAppDispatch } from '../../../app/store';
import { notify } from '../../../ui/toastsSlice';
import type { Dock } from '../../../ui/kit/Drawer';
import { uploadFile, type UploadProgress } from '../../files';
import { invalidateDocs } from '../../files/filesApi';
import { useUpdateSettingsMutation } from '../../session/sessionApi';
import { toWorld, type Point } from '../canvas/camera';
import type { EditorApi, NewShape } from '../canvas/editorApi';
import { FileDrawer } from './FileDrawer';
import {
  FILE_DRAG_MIME,
  columnLayout,
  decodeDrag,
  imageAspect,
  imageShape,
  pageAspect,
  pageAspects,
  pageShape,
  viewCentre,
  type ColumnItem,
  type FileDragPayload,
} from './placement';
import './fileDrawer.css';

/** What the drawer asks of the board. */
export interface FilePlacer {
  /** may this person add shapes now (viewers browse only) */
  canPlace: boolean;
  /** a file (image, page or whole document) at `at`, else the view's centre */
  place(p: FileDragPayload, at?: Point): Promise<boolean>;
  /** several files in one column at the view's centre, one undo step */
  placeDocs(docs: readonly DocumentDto[]): Promise<boolean>;
}

/** A paste or drop being uploaded for the board (its progress card). */
export interface BoardUpload {
  key: string;
  name: string;
  progress: UploadProgress;
}

let seq = 0;

export function useBoardFiles(opts: {
  editor: EditorApi | null;
  boardId: string;
  host: RefObject<HTMLElement | null>;
  canPlace: boolean;
}) {
  const { editor, boardId, host, canPlace } = opts;
  const { t } = useTranslation('board');
  const dispatch = useAppDispatch();
  const [uploads, setUploads] = useState<BoardUpload[]>([]);
  const running = useRef(new Set<AbortController>());
  const latest = useRef({ editor, canPlace, t });
  useLayoutEffect(() => {
    latest.current = { editor, canPlace, t };
  });

  const toast = useCallback(
    (type: 'error' | 'warning', message: string) => dispatch(notify({ type, message })),
    [dispatch],
  );

  /** add the shapes or tell why not; true when placed */
  const add = useCallback(
    (shapes: NewShape[], reveal: boolean): boolean => {
      const { editor: ed, canPlace: may, t: tr } = latest.current;
      if (!ed || !may) {
        toast('warning', tr('drawer.viewOnly'));
        return false;
      }
      const ids = ed.addShapes(shapes, { reveal });
      if (!ids) toast('error', tr('drawer.placeFailed'));
      return !!ids;
    },
    [toast],
  );

  const centre = () => viewCentre(latest.current.editor!.getState().view);

  const place = useCallback(
    async (p: FileDragPayload, at?: Point): Promise<boolean> => {
      const ed = latest.current.editor;
      if (!ed || !latest.current.canPlace) return add([], false);
      const point = at ?? centre();
      if (p.kind === 'image') {
        const aspect = await imageAspect(p.fileId);
        return add([imageShape(p.fileId, aspect, point, ed.getState().view)], false);
      }
      if (p.kind === 'documentPage') {
        const aspect = await pageAspect(p.fileId, p.page);
        return add([pageShape(p.fileId, p.page, aspect, point)], false);
      }
      const aspects = await pageAspects(p.fileId, p.pages);
      const items: ColumnItem[] = aspects.map((aspect, page) => ({
        kind: 'documentPage',
        fileId: p.fileId,
        page,
        aspect,
      }));
      return add(columnLayout(items, point), true);
    },
    [add],
  );

  const placeDocs = useCallback(
    async (docs: readonly DocumentDto[]): Promise<boolean> => {
      if (!latest.current.editor || !latest.current.canPlace) return add([], false);
      const parts = await Promise.all(
        docs.map(async (d): Promise<ColumnItem[]> => {
          if (d.isImage) return [{ kind: 'image', fileId: d.id, aspect: await imageAspect(d.id) }];
          const aspects = await pageAspects(d.id, Math.max(1, d.pages));
          return aspects.map((aspect, page) => ({ kind: 'documentPage', fileId: d.id, page, aspect }));
        }),
      );
      return add(columnLayout(parts.flat(), centre()), true);
    },
    [add],
  );

  /** upload for this board (no fileUpload needed), then place the image or all the pages */
  const uploadAndPlace = useCallback(
    (file: File, at: Point) => {
      const key = `b${++seq}`;
      const ctl = new AbortController();
      running.current.add(ctl);
      const set = (progress: UploadProgress) =>
        setUploads((list) => list.map((u) => (u.key === key ? { ...u, progress } : u)));
      setUploads((list) => [...list, { key, name: file.name, progress: { phase: 'hashing', progress: 0 } }]);
      uploadFile(file, { boardId, signal: ctl.signal, onProgress: set })
        .then(async (doc) => {
          dispatch(invalidateDocs());
          if (doc.isImage) await place({ kind: 'image', fileId: doc.imageId }, at);
          else await place({ kind: 'document', fileId: doc.imageId, pages: Math.max(1, doc.pages) }, at);
        })
        .catch((err: unknown) => {
          if (err instanceof Error && err.name === 'AbortError') return;
          const message = err instanceof Error ? err.message : String(err);
          toast('error', latest.current.t('drawer.uploadFailed', { message }));
        })
        .finally(() => {
          running.current.delete(ctl);
          setUploads((list) => list.filter((u) => u.key !== key));
        });
    },
    [boardId, dispatch, place, toast],
  );

  const onPastedImage = useCallback(
    (blob: Blob, at: Point) => {
      // a screenshot has no name: one from its type (the server sniffs the content anyway)
      const file =
        blob instanceof File && blob.name
          ? blob
          : new File(
              [blob],
              `${latest.current.t('drawer.pastedName')}.${blob.type.split('/')[1]?.split('+')[0] || 'png'}`,
              {
                type: blob.type,
              },
            );
      uploadAndPlace(file, at);
    },
    [uploadAndPlace],
  );

  // drops onto the board: a drawer card (our MIME type) or files from the desktop
  useEffect(() => {
    const el = host.current;
    if (!el || !editor) return;
    const ours = (dt: DataTransfer | null) => !!dt && Array.from(dt.types).includes(FILE_DRAG_MIME);
    const files = (dt: DataTransfer | null) => !!dt && Array.from(dt.types).includes('Files');
    const onOver = (e: DragEvent) => {
      if (!ours(e.dataTransfer) && !files(e.dataTransfer)) return;
      // accepted even for viewers: an unhandled file drop would make the browser open the file
      e.preventDefault();
      e.dataTransfer!.dropEffect = latest.current.canPlace ? 'copy' : 'none';
    };
    const onDrop = (e: DragEvent) => {
      const dt = e.dataTransfer;
      if (!dt || (!ours(dt) && !files(dt))) return;
      e.preventDefault();
      if (!latest.current.canPlace) {
        toast('warning', latest.current.t('drawer.viewOnly'));
        return;
      }
      const r = el.getBoundingClientRect();
      const at = toWorld(editor.getState().camera, e.clientX - r.left, e.clientY - r.top);
      const payload = ours(dt) ? decodeDrag(dt.getData(FILE_DRAG_MIME)) : null;
      if (payload) {
        void place(payload, at);
        return;
      }
      // several files: each lands a little lower than the one before, not on top of it
      Array.from(dt.files).forEach((f, i) => uploadAndPlace(f, { x: at.x + i * 40, y: at.y + i * 40 }));
    };
    el.addEventListener('dragover', onOver);
    el.addEventListener('drop', onDrop);
    return () => {
      el.removeEventListener('dragover', onOver);
      el.removeEventListener('drop', onDrop);
    };
  }, [editor, host, place, toast, uploadAndPlace]);

  // leaving the board stops the uploads still going (nothing to place them on)
  useEffect(() => {
    const run = running.current;
    return () => run.forEach((c) => c.abort());
  }, []);

  const placer = useMemo<FilePlacer>(() => ({ canPlace, place, placeDocs }), [canPlace, place, placeDocs]);
  return { uploads, onPastedImage, placer };
}

/** Progress cards of uploads for the board (pastes and drops), above the canvas. */
export function BoardUploads({ uploads }: { uploads: readonly BoardUpload[] }) {
  const { t } = useTranslation('board');
  if (!uploads.length) return null;
  return (
    <ul className="board-uploads" aria-label={t('drawer.boardUploads')}>
      {uploads.map((u) => (
        <li key={u.key} className="board-upload" data-phase={u.progress.phase} role="status">
          <span className="board-upload-name">{u.name}</span>
          <span className="board-upload-state">{progressText(t, u.progress)}</span>
          <progress max={1} value={u.progress.progress} />
        </li>
      ))}
    </ul>
  );
}

/** spec §4 upload states as words: preparing/uploading with %, processing with pages done of total */
export function progressText(t: (k: string, v?: Record<string, unknown>) => string, p: UploadProgress): string {
  const percent = Math.round(p.progress * 100);
  if (p.phase === 'hashing') return t('drawer.statusHashing', { percent });
  if (p.phase === 'uploading') return t('drawer.statusUploading', { percent });
  if (p.pages) return t('drawer.statusPages', { done: p.pagesDone ?? 0, total: p.pages });
  return t('drawer.statusProcessing');
}

/**
 * The board page's files: the drawer (when open), the upload cards of pastes and drops, and the
 * drop target. `pasteRef` receives the handler the editor calls for a pasted image.
 */
export function BoardFiles(props: {
  editor: EditorApi | null;
  boardId: string;
  host: RefObject<HTMLElement | null>;
  canPlace: boolean;
  open: boolean;
  onClose: () => void;
  settings: Settings;
  guest: boolean;
  pasteRef: { current: ((blob: Blob, at: Point) => void) | null };
  onUpgrade: () => void;
}) {
  const { uploads, onPastedImage, placer } = useBoardFiles(props);
  const { pasteRef } = props;
  useEffect(() => {
    pasteRef.current = onPastedImage;
    return () => {
      if (pasteRef.current === onPastedImage) pasteRef.current = null;
    };
  }, [pasteRef, onPastedImage]);

  const [dock, setDock] = useState<Dock>(props.settings.fileDrawerDock);
  useEffect(() => setDock(props.settings.fileDrawerDock), [props.settings.fileDrawerDock]);
  const [updateSettings] = useUpdateSettingsMutation();
  const changeDock = (d: Dock) => {
    setDock(d);
    if (!props.guest) void updateSettings({ fileDrawerDock: d });
  };

  return (
    <>
      <BoardUploads uploads={uploads} />
      {props.open ? (
        <FileDrawer
          dock={dock}
          onDockChange={changeDock}
          onClose={props.onClose}
          placer={placer}
          onUpgrade={props.onUpgrade}
        />
      ) : null}
    </>
  );
}
