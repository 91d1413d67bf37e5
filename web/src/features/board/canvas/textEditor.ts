/**
 * In-place text editing: a real <textarea> laid over a shape's box on screen, so multi-line
 * input, IME composition, spell checking, paste and the platform's text shortcuts all just work.
 * Its font, size, colour and line height match the painter's, so the text does not jump when the
 * editor closes. Escape, Ctrl/⌘+Enter and clicking away (blur) end the edit: onCommit(text) when
 * the text changed, onCancel() when it did not.
 */
import { SHAPE_LIMITS } from '@wb/proto';
import { LINE_HEIGHT } from './textLayout';

/** line height as a multiple of the font size: the text painter's */
export const TEXT_LINE_HEIGHT = LINE_HEIGHT;

/** the CSS family of a board font name, quoted as the painter's canvas font is */
function cssFamily(font: string): string {
  return `${/^[\w-]+$/.test(font) ? font : `"${font.replace(/"/g, '')}"`}, sans-serif`;
}

export interface TextEditorOptions {
  text: string;
  /** the shape's box in CSS px of the container */
  screenRect: { x: number; y: number; width: number; height: number };
  zoom: number;
  font: string;
  /** world units (the editor multiplies by the zoom) */
  fontSize: number;
  /** CSS colour of the text */
  color: string;
  /** CSS colour behind the text (stickies); transparent when absent */
  background?: string;
  align?: 'left' | 'center';
  /** inner padding in world units (stickies keep their text off the edge) */
  padding?: number;
  onCommit(text: string): void;
  onCancel(): void;
}

interface Session {
  ta: HTMLTextAreaElement;
  opts: TextEditorOptions;
  minHeight: number;
}

export class TextEditor {
  private session: Session | null = null;

  constructor(private readonly container: HTMLElement) {}

  get isOpen(): boolean {
    return this.session !== null;
  }

  /** the text as typed so far ('' when closed) */
  get value(): string {
    return this.session?.ta.value ?? '';
  }

  open(opts: TextEditorOptions): void {
    // one edit at a time: the previous one ends as a click-away would end it
    this.close();
    const ta = document.createElement('textarea');
    const { screenRect: r, zoom } = opts;
    const pad = (opts.padding ?? 0) * zoom;
    const s = ta.style;
    s.position = 'absolute';
    s.left = `${r.x}px`;
    s.top = `${r.y}px`;
    s.width = `${r.width}px`;
    s.height = `${r.height}px`;
    s.margin = '0';
    s.padding = `${pad}px`;
    s.boxSizing = 'border-box';
    s.border = '0';
    s.outline = '1px solid rgba(37, 99, 235, 0.6)';
    s.resize = 'none';
    s.overflow = 'hidden';
    s.whiteSpace = 'pre-wrap';
    s.overflowWrap = 'break-word';
    s.fontFamily = cssFamily(opts.font);
    s.fontSize = `${opts.fontSize * zoom}px`;
    s.lineHeight = String(TEXT_LINE_HEIGHT);
    s.color = opts.color;
    s.background = opts.background ?? 'transparent';
    s.textAlign = opts.align ?? 'left';
    s.zIndex = '20';
    ta.value = opts.text;
    ta.maxLength = SHAPE_LIMITS.maxText;
    ta.spellcheck = true;
    ta.setAttribute('aria-label', 'Text');
    ta.dataset.testid = 'board-text-editor';

    const session: Session = { ta, opts, minHeight: r.height };
    this.session = session;

    ta.addEventListener('keydown', (e) => {
      // typing must never reach the board's shortcuts (Backspace would delete the shape)
      e.stopPropagation();
      // keys that confirm an IME composition belong to the IME
      if (e.isComposing || e.keyCode === 229) return;
      if (e.key === 'Escape' || (e.key === 'Enter' && (e.ctrlKey || e.metaKey))) {
        e.preventDefault();
        this.finish(session);
      }
    });
    for (const type of ['keyup', 'keypress', 'paste', 'copy', 'cut', 'pointerdown', 'dblclick'])
      // the board's clipboard and pointer handlers would act on shapes, not on this text
      ta.addEventListener(type, (e) => e.stopPropagation());
    ta.addEventListener('input', () => this.grow(session));
    ta.addEventListener('blur', () => {
      // the window lost focus (another app): the textarea keeps it, the edit goes on
      if (document.activeElement === ta) return;
      this.finish(session);
    });

    this.container.appendChild(ta);
    this.grow(session);
    ta.focus();
    ta.setSelectionRange(ta.value.length, ta.value.length);
  }

  /** ends the edit as a click-away does (commit when changed) */
  close(): void {
    if (this.session) this.finish(this.session);
  }

  private grow(s: Session): void {
    // auto-grow: measure the content height with the box collapsed, never below the shape's box
    s.ta.style.height = '0px';
    s.ta.style.height = `${Math.max(s.minHeight, s.ta.scrollHeight)}px`;
  }

  private finish(s: Session): void {
    if (this.session !== s) return;
    this.session = null;
    const text = s.ta.value;
    // removing a focused element fires blur: the session is already gone, so it does nothing
    s.ta.remove();
    if (text !== s.opts.text) s.opts.onCommit(text);
    else s.opts.onCancel();
  }
}
