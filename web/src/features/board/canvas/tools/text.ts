/**
 * Text: a click on empty space opens the text editor on a draft box that is not in the board yet;
 * when the editor commits, ONE change creates the text shape with what was typed (nothing typed,
 * nothing created, no empty shapes left behind for others to see). A click on an existing text
 * shape edits it in place (the host's editor service).
 *
 * The draft box is sized for the screen: 320 px wide and the style's text size in px at the
 * current zoom (world sizes divided by the zoom), so text typed far out is as readable as text
 * typed at 100 %.
 */
import { SHAPE_LIMITS } from '@wb/proto';
import type { TextShape } from '@wb/proto';
import { putShape } from '../../realtime/boardDoc';
import { cssColor } from '../geometry';
import { TEXT_LINE_HEIGHT, type TextEditor } from '../textEditor';
import type { Tool, ToolHost, ToolPointer } from './types';

/** width of a new text box in screen px (world units at zoom 1) */
export const TEXT_BOX_WIDTH = 320;

/** what the text tool needs of the editor (a TextEditor; tests pass a fake) */
export type TextEditorLike = Pick<TextEditor, 'open' | 'close' | 'isOpen'>;

interface Draft {
  id: string;
  x: number;
  y: number;
  w: number;
  font: string;
  fontSize: number;
  color: number;
}

export class TextTool implements Tool {
  readonly id = 'text';
  readonly cursor = 'text';
  readonly edits = true;
  private pressed = false;
  private draft: Draft | null = null;
  /** the tool is being cancelled: a draft committed now must not switch tools again */
  private cancelling = false;

  /** `editor` gives the board's TextEditor (null before the board is mounted) */
  constructor(private readonly editor: () => TextEditorLike | null) {}

  down(_p: ToolPointer, host: ToolHost): void {
    if (!host.canEdit()) return;
    const editor = this.editor();
    if (editor?.isOpen) {
      // the click that ends an edit does not start the next one
      editor.close();
      return;
    }
    this.pressed = true;
  }

  move(): void {
    // a text box is placed by a click; dragging adds nothing
  }

  up(p: ToolPointer, host: ToolHost): void {
    if (!this.pressed) return;
    this.pressed = false;
    const hit = host.scene.hitTest(p, 4 / host.zoom());
    if (hit && hit.shape.kind === 'text' && !hit.shape.locked) {
      host.setSelection([hit.shape.id]);
      host.editText(hit.shape.id);
      return;
    }
    const editor = this.editor();
    if (!editor) return;
    const zoom = host.zoom();
    const style = host.style();
    const fontSize = Math.min(SHAPE_LIMITS.maxFontSize, style.textSize / zoom);
    const lineHeight = fontSize * TEXT_LINE_HEIGHT;
    // the first line is centred on the pointer, where the caret appears
    const draft: Draft = {
      id: host.newId(),
      x: p.x,
      y: p.y - lineHeight / 2,
      w: Math.min(SHAPE_LIMITS.maxSize, TEXT_BOX_WIDTH / zoom),
      font: style.textFont,
      fontSize,
      color: style.textColor,
    };
    this.draft = draft;
    editor.open({
      text: '',
      screenRect: { x: p.sx, y: p.sy - (lineHeight * zoom) / 2, width: draft.w * zoom, height: lineHeight * zoom },
      zoom,
      font: draft.font,
      fontSize: draft.fontSize,
      color: cssColor(draft.color),
      align: 'left',
      onCommit: (text) => this.commitDraft(draft, text, host),
      onCancel: () => {
        if (this.draft === draft) this.draft = null;
      },
    });
  }

  /** a tool switch while typing keeps what was typed (closing the editor commits it) */
  cancel(_host?: ToolHost): void {
    this.pressed = false;
    if (!this.draft) return;
    this.cancelling = true;
    try {
      this.editor()?.close();
    } finally {
      this.cancelling = false;
      this.draft = null;
    }
  }

  private commitDraft(draft: Draft, text: string, host: ToolHost): void {
    if (this.draft === draft) this.draft = null;
    // only whitespace is nothing typed
    if (text.trim() === '') return;
    const shape: TextShape = {
      id: draft.id,
      kind: 'text',
      creator: host.userId,
      z: host.topZ(),
      x: draft.x,
      y: draft.y,
      w: draft.w,
      text: text.slice(0, SHAPE_LIMITS.maxText),
      font: draft.font,
      fontSize: draft.fontSize,
      color: draft.color,
    };
    if (!host.commit((d) => putShape(d, shape))) return;
    host.setSelection([shape.id]);
    if (!this.cancelling) host.setTool('select');
  }
}
