/**
 * Copy, cut and paste through the system clipboard (issue 13). Shapes travel as JSON
 * `{ "wb": "shapes", "v": 1, "shapes": [...] }` (bytes as `{ "$b64": … }`) in text/plain and,
 * inside a data attribute, in text/html (rich editors keep the html, so a board of ours finds its
 * shapes either way; other apps paste the visible text). Both the DOM `copy`/`cut`/`paste` events
 * (event.clipboardData: works everywhere, also without clipboard permissions) and
 * navigator.clipboard (toolbar and menu commands) are handled.
 */
import { SHAPE_LIMITS, validateShapeRecord } from '@wb/proto';
import type { ShapeRecord, TextShape } from '@wb/proto';
import type { BoardDoc } from '../../realtime/boardDoc';
import { putShape } from '../../realtime/boardDoc';
import type { Point, Rect } from '../camera';
import { keyAbove } from '../fractionalIndex';
import type { ToolStyle } from '../tools/types';
import { cloneShapes, rectCentre, unionRect, DUPLICATE_OFFSET } from './arrange';
import { localBox } from '../geometry';

export const CLIPBOARD_TAG = 'shapes';
export const CLIPBOARD_VERSION = 1;
const HTML_ATTR = 'data-wb-shapes';

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
function fromBase64(b64: string): Uint8Array {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** the selection as clipboard JSON (ids kept: pasting remaps them and knows "from this board") */
export function serialiseJson(shapes: readonly ShapeRecord[]): string {
  return JSON.stringify({ wb: CLIPBOARD_TAG, v: CLIPBOARD_VERSION, shapes }, (_k, v: unknown) =>
    v instanceof Uint8Array ? { $b64: toBase64(v) } : v,
  );
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** text/html: the JSON in an attribute, the shapes' texts as what other apps show */
export function serialiseHtml(shapes: readonly ShapeRecord[]): string {
  const texts = shapes
    .map((s) => ('text' in s && typeof s.text === 'string' ? s.text : ''))
    .filter(Boolean)
    .map((t) => `<p>${escapeHtml(t)}</p>`)
    .join('');
  return `<meta charset="utf-8"><div ${HTML_ATTR}="${escapeHtml(serialiseJson(shapes))}">${texts}</div>`;
}

/** what goes on the clipboard for a selection: the JSON as text/plain and the html carrying it */
export function serialise(shapes: readonly ShapeRecord[]): { text: string; html: string } {
  return { text: serialiseJson(shapes), html: serialiseHtml(shapes) };
}

/**
 * Write to the system clipboard through navigator.clipboard (toolbar and menu commands; the
 * shortcut uses the copy event). Both types when ClipboardItem exists, else the text; false when
 * the browser refuses.
 */
export async function copyToClipboard(data: { text: string; html: string }): Promise<boolean> {
  const clip = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
  if (!clip) return false;
  try {
    if (typeof ClipboardItem !== 'undefined' && clip.write)
      await clip.write([
        new ClipboardItem({
          'text/plain': new Blob([data.text], { type: 'text/plain' }),
          'text/html': new Blob([data.html], { type: 'text/html' }),
        }),
      ]);
    else await clip.writeText(data.text);
    return true;
  } catch {
    return false;
  }
}

function decodeEntities(s: string): string {
  return s.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!,
  );
}

/**
 * Our shapes from clipboard text (the JSON or the html carrying it), each checked with
 * validateShapeRecord (invalid ones dropped); null when the text is not ours.
 */
export function parseClipboard(text: string): ShapeRecord[] | null {
  let json = text.trim();
  const m = new RegExp(`${HTML_ATTR}="([^"]*)"`).exec(text);
  if (m) json = decodeEntities(m[1]!);
  if (!json.startsWith('{')) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(json, (_k, v: unknown) =>
      v && typeof v === 'object' && typeof (v as { $b64?: unknown }).$b64 === 'string'
        ? fromBase64((v as { $b64: string }).$b64)
        : v,
    );
  } catch {
    return null;
  }
  const o = raw as { wb?: unknown; v?: unknown; shapes?: unknown };
  if (!o || o.wb !== CLIPBOARD_TAG || o.v !== CLIPBOARD_VERSION || !Array.isArray(o.shapes)) return null;
  const out: ShapeRecord[] = [];
  for (const s of o.shapes as unknown[]) {
    if (!s || typeof s !== 'object' || typeof (s as { id?: unknown }).id !== 'string') continue;
    const { id, ...record } = s as Record<string, unknown>;
    if (validateShapeRecord(record) === null) out.push({ ...record, id } as unknown as ShapeRecord);
  }
  return out;
}

/** bounds of shapes by their boxes (rotation ignored: placement only) */
export function boxesBounds(shapes: readonly ShapeRecord[]): Rect | null {
  return unionRect(
    shapes.map((s) => {
      const b = localBox(s);
      return { minX: b.x, minY: b.y, maxX: b.x + b.w, maxY: b.y + b.h };
    }),
  );
}

/**
 * Pasted shapes as new records: new ids, on top (keys above topZ), groups and connector bindings
 * among them remapped, bindings to shapes not pasted dropped. `at`: the centre of what is pasted
 * goes there (the pointer, or the view centre for shapes from elsewhere); null = +20, +20 from
 * where they were (shapes copied on this board).
 */
export function placePasted(
  shapes: readonly ShapeRecord[],
  at: Point | null,
  newId: () => string,
  topZ: string | null,
  creator?: number,
): ShapeRecord[] {
  let dx = DUPLICATE_OFFSET;
  let dy = DUPLICATE_OFFSET;
  const b = boxesBounds(shapes);
  if (at && b) {
    const c = rectCentre(b);
    dx = at.x - c.x;
    dy = at.y - c.y;
  }
  return cloneShapes(shapes, newId, dx, dy, topZ, creator);
}

/** a text shape for text pasted from another app (style's font, size and colour) */
export function textShape(
  text: string,
  at: Point,
  style: ToolStyle,
  id: string,
  z: string,
  creator: number,
): TextShape {
  const t = text.replace(/\r\n?/g, '\n').slice(0, SHAPE_LIMITS.maxText);
  const longest = Math.max(...t.split('\n').map((l) => l.length), 1);
  // a width that fits the longest line (about 0.6 em per character), at most a readable column
  const w = Math.min(Math.max(longest * style.textSize * 0.6, style.textSize * 2), style.textSize * 40);
  const lines = t.split('\n').length;
  return {
    id,
    kind: 'text',
    creator,
    z,
    x: at.x - w / 2,
    y: at.y - (lines * style.textSize * 1.3) / 2,
    text: t,
    font: style.textFont,
    fontSize: style.textSize,
    color: style.textColor,
    w,
  };
}

/** what the clipboard layer needs of the board */
export interface ClipboardHost {
  readonly userId: number;
  canEdit(): boolean;
  /** the shapes to copy: the selection with its groups (empty = nothing to copy) */
  copySelection(): ShapeRecord[];
  /** delete the selection after a cut (one commit, the host's delete rules) */
  deleteSelection(): void;
  /** does this shape exist on the board (pasting our own copy offsets it instead of placing it) */
  has(id: string): boolean;
  /** world point under the pointer when it is over the board, else null */
  pointer(): Point | null;
  /** world centre of the view */
  viewCentre(): Point;
  style(): ToolStyle;
  newId(): string;
  topZ(): string | null;
  commit(fn: (d: BoardDoc) => void): boolean;
  setSelection(ids: Iterable<string>): void;
  /** an image was pasted (stored by the files service: the host decides) */
  onImage(blob: Blob, at: Point): void;
}

/** What a paste carried (from an event's clipboardData or navigator.clipboard.read). */
export interface ClipboardPayload {
  html?: string;
  text?: string;
  images: Blob[];
}

const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp|svg\+xml|bmp)$/;

export class BoardClipboard {
  constructor(private readonly host: ClipboardHost) {}

  /** listen to copy/cut/paste on `target` (the document); returns the remover */
  attach(target: Pick<Document, 'addEventListener' | 'removeEventListener'>): () => void {
    const copy = (e: Event) => this.onCopy(e as ClipboardEvent, false);
    const cut = (e: Event) => this.onCopy(e as ClipboardEvent, true);
    const paste = (e: Event) => this.onPaste(e as ClipboardEvent);
    target.addEventListener('copy', copy);
    target.addEventListener('cut', cut);
    target.addEventListener('paste', paste);
    return () => {
      target.removeEventListener('copy', copy);
      target.removeEventListener('cut', cut);
      target.removeEventListener('paste', paste);
    };
  }

  /** the copy/cut event: ignored while typing in a field (the field's own copy wins) */
  onCopy(e: ClipboardEvent, cut: boolean): boolean {
    if (isTyping(e.target) || !e.clipboardData) return false;
    const shapes = this.host.copySelection();
    if (!shapes.length) return false;
    const data = serialise(shapes);
    e.clipboardData.setData('text/plain', data.text);
    e.clipboardData.setData('text/html', data.html);
    e.preventDefault();
    if (cut && this.host.canEdit()) this.host.deleteSelection();
    return true;
  }

  onPaste(e: ClipboardEvent): boolean {
    if (isTyping(e.target) || !e.clipboardData) return false;
    const dt = e.clipboardData;
    const images: Blob[] = [];
    for (const f of Array.from(dt.files ?? [])) if (IMAGE_TYPES.test(f.type)) images.push(f);
    const done = this.pasteData({
      html: dt.getData('text/html') || undefined,
      text: dt.getData('text/plain') || undefined,
      images,
    });
    if (done) e.preventDefault();
    return done;
  }

  /** toolbar/menu copy through navigator.clipboard (false when not allowed: the shortcut still works) */
  async copy(cut = false): Promise<boolean> {
    const shapes = this.host.copySelection();
    if (!shapes.length || !(await copyToClipboard(serialise(shapes)))) return false;
    if (cut && this.host.canEdit()) this.host.deleteSelection();
    return true;
  }

  /** toolbar/menu paste through navigator.clipboard (false when not allowed or empty) */
  async paste(): Promise<boolean> {
    const clip = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
    if (!clip) return false;
    try {
      if (clip.read) {
        const payload: ClipboardPayload = { images: [] };
        for (const item of await clip.read()) {
          for (const type of item.types) {
            if (type === 'text/html') payload.html = await (await item.getType(type)).text();
            else if (type === 'text/plain') payload.text = await (await item.getType(type)).text();
            else if (IMAGE_TYPES.test(type)) payload.images.push(await item.getType(type));
          }
        }
        return this.pasteData(payload);
      }
      return this.pasteData({ text: await clip.readText(), images: [] });
    } catch {
      return false;
    }
  }

  /** paste what the clipboard held: our shapes, else images, else text as a text shape */
  pasteData(p: ClipboardPayload): boolean {
    const h = this.host;
    if (!h.canEdit()) return false;
    const shapes = (p.html && parseClipboard(p.html)) || (p.text && parseClipboard(p.text)) || null;
    if (shapes) {
      if (!shapes.length) return false;
      // copied on this board and still here: next to the originals; else where the pointer is
      const fromHere = shapes.some((s) => h.has(s.id));
      const placed = placePasted(
        shapes,
        fromHere ? null : (h.pointer() ?? h.viewCentre()),
        () => h.newId(),
        h.topZ(),
        h.userId,
      );
      const ok = h.commit((d) => {
        for (const s of placed) putShape(d, s);
      });
      if (ok) h.setSelection(placed.map((s) => s.id));
      return ok;
    }
    if (p.images.length) {
      const at = h.pointer() ?? h.viewCentre();
      for (const img of p.images) h.onImage(img, at);
      return true;
    }
    const text = (p.text ?? '').trim() ? p.text! : p.html ? htmlText(p.html) : '';
    if (!text.trim()) return false;
    const id = h.newId();
    const shape = textShape(text, h.viewCentre(), h.style(), id, keyAbove(h.topZ()), h.userId);
    const ok = h.commit((d) => putShape(d, shape));
    if (ok) h.setSelection([id]);
    return ok;
  }
}

/** the visible text of pasted html (rich text from another app) */
function htmlText(html: string): string {
  return decodeEntities(
    html
      .replace(/<(br|\/p|\/div|\/li|\/h\d)[^>]*>/gi, '\n')
      .replace(/<[^>]+>/g, '')
      .replace(/&nbsp;/g, ' '),
  ).trim();
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return (
    !!el && typeof el.tagName === 'string' && (/^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) || !!el.isContentEditable)
  );
}
