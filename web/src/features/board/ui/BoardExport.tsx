/**
 * The export dialog as the board page opens it (its own chunk, loaded from the board menu):
 * formulas and graphs export as vectors through the same renderers the canvas uses (MathJax and
 * function-plot, each loaded only if the board has one).
 */
import type { BoardBackground, ShapeRecord } from '@wb/proto';
import type { EditorApi } from '../canvas/editorApi';
import { cssColor } from '../canvas/geometry';
import { ExportDialog } from '../export/ExportDialog';
import type { VectorFor } from '../export/vector';

const vectorFor: VectorFor = async (shape: ShapeRecord) => {
  if (shape.kind === 'formula') {
    const { renderFormula } = await import('../formula/mathjax');
    const out = await renderFormula(String(shape.latex ?? ''), {
      fontSize: shape.fontSize || 20,
      color: cssColor(shape.color ?? 0),
      alignment: shape.alignment,
    });
    return out.error ? null : out.svg;
  }
  if (shape.kind === 'graph') {
    const { graphSvg } = await import('../graph/plot');
    return graphSvg(String(shape.spec ?? ''), shape.w, shape.h);
  }
  return null;
};

export interface BoardExportProps {
  editor: EditorApi;
  title: string;
  background: BoardBackground;
  theme: 'light' | 'dark';
  onClose: () => void;
}

export default function BoardExport({ editor, title, background, theme, onClose }: BoardExportProps) {
  return (
    <ExportDialog
      scene={editor.scene}
      selection={editor.selection()}
      view={editor.getState().view}
      title={title}
      background={background}
      theme={theme}
      vectorFor={vectorFor}
      onClose={onClose}
    />
  );
}
