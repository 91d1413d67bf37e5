/**
 * A graph (`graph`): the graphing tool's JSON state (spec) plotted by function-plot (loaded on
 * the first one: graph/) into its w × h box; axes and the source in a frame until then. A double
 * click opens the graph panel (boardView pans and zooms the plot being edited).
 */
import type { GraphShape } from '@wb/proto';
import { paintGraph } from '../../graph/paintGraph';
import { inkColor, uiColors } from '../theme';
import { cachedGeometry, storedBoxGeometry } from './shared/geometry';
import { resizeStoredBox } from './shared/resize';
import { LINE, MOVE, placeholderBox, textValue, type StrokeStyle } from './shared/vector';
import type { ShapeUtil } from './types';

export const graphUtil: ShapeUtil<GraphShape> = {
  kind: 'graph',
  geometry: storedBoxGeometry,
  paint: (g, item, ctx) => paintGraph(g, item.shape as GraphShape, ctx),
  dotColor: (_shape, ctx) => uiColors(ctx).placeholder,

  vector(item, ctx) {
    const shape = item.shape as GraphShape;
    const { box } = cachedGeometry(shape, item.points, storedBoxGeometry);
    const svg = ctx.fragments?.get(shape.id);
    if (svg) return [{ t: 'svg', svg, x: box.x, y: box.y, w: box.w, h: box.h }];
    const { x, y, w, h } = box;
    const axes: StrokeStyle = {
      color: uiColors(ctx.paint).glyph,
      alpha: 1,
      width: 1,
      cap: 'butt',
      join: 'miter',
      dash: null,
    };
    return [
      {
        t: 'path',
        d: [MOVE, x, y + h / 2, LINE, x + w, y + h / 2, MOVE, x + w / 2, y, LINE, x + w / 2, y + h],
        fill: null,
        stroke: axes,
      },
      ...placeholderBox(
        box,
        textValue(shape.spec),
        inkColor(0x555555, ctx.paint),
        Math.max(8, Math.min(14, h / 10)),
        ctx,
        true,
      ),
    ];
  },
  typeset: true,

  resize: resizeStoredBox,
  style: { stroke: false, fill: false },
  editing: { mode: 'panel' },
};
