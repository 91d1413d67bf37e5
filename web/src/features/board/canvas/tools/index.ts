/**
 * The creation tools, one instance each per board view. Select and connector are added by the
 * view (their own modules); this covers every other ToolId.
 */
import type { LaserTrails } from '../laserTrail';
import { FormulaTool } from '../../formula/formulaTool';
import { GraphTool } from '../../graph/graphTool';
import { EraserTool } from './eraser';
import { createGeometricTools } from './geometric';
import { HandTool } from './hand';
import { LaserTool } from './laser';
import { LineTool } from './line';
import { PenTool } from './pen';
import { PolylineTool } from './polyline';
import { StickyTool } from './sticky';
import { TextTool, type TextEditorLike } from './text';
import type { Tool, ToolId } from './types';

export interface CreateToolsOptions {
  /** the board's text editor: the text tool types into a draft before the shape exists */
  textEditor?: () => TextEditorLike | null;
  /** the trails the view draws every overlay frame (the laser tool adds the local points) */
  laserTrails?: LaserTrails;
}

/** the geometry instruments share the view's instruments layer: the view adds them (instruments/) */
type ViewTools = 'select' | 'connector' | 'compass' | 'ruler' | 'protractor';

export function createTools(opts: CreateToolsOptions = {}): Record<Exclude<ToolId, ViewTools>, Tool> {
  return {
    hand: new HandTool(),
    pen: new PenTool(),
    eraser: new EraserTool(),
    line: new LineTool(),
    polyline: new PolylineTool({ kind: 'polyline' }),
    curve: new PolylineTool({ kind: 'curve' }),
    ...createGeometricTools(),
    sticky: new StickyTool(),
    text: new TextTool(opts.textEditor ?? (() => null)),
    formula: new FormulaTool(),
    graph: new GraphTool(),
    laser: new LaserTool(opts.laserTrails),
  };
}

export { EraserTool, HandTool, LaserTool, LineTool, PenTool, PolylineTool, StickyTool, TextTool };
export { GeometricTool } from './geometric';
