import { FILL_STYLES, packPoints, SHAPE_KINDS } from './realtime';
import { SHAPE_LIMITS, validateShapeRecord } from './shapes';

const pts = (n: number): Uint8Array => packPoints(Array.from({ length: n * 2 }, (_, i) => i * 1.25));
const float32Points = (values: number[]): Uint8Array => new Uint8Array(new Float32Array(values).buffer);

const base = { creator: 7, z: 'a0', x: 10.5, y: -3 };
/** one valid record of every kind, as the web and bench/board.ts write them */
const VALID: Record<string, Record<string, unknown>> = {
  pen: { ...base, kind: 'pen', strokeColor: 0, strokeWidth: 3, points: pts(3) },
  line: { ...base, kind: 'line', points: pts(2), arrowEnd: true },
  arc: { ...base, kind: 'arc', r: 20, startAngle: 0, endAngle: 3.14 },
  polyline: { ...base, kind: 'polyline', points: pts(4), closed: false },
  curve: { ...base, kind: 'curve', points: pts(5) },
  connector: { ...base, kind: 'connector', points: pts(2), fromId: 'abc', toId: null, fromAnchor: 'top' },
  shape: { ...base, kind: 'shape', shapeType: 'ellipse', w: 100, h: 50, fillColor: null, opacity: 0.5 },
  sticky: { ...base, kind: 'sticky', w: 200, h: 200, text: 'hello\nworld', color: 0xffee88 },
  text: { ...base, kind: 'text', text: 'Hi', font: 'Open Sans', fontSize: 16, color: 0, w: 300 },
  formula: { ...base, kind: 'formula', latex: 'x^2', fontSize: 20, color: 0, alignment: 'equation' },
  graph: { ...base, kind: 'graph', spec: '{"expressions":[]}', w: 400, h: 300 },
  image: { ...base, kind: 'image', fileId: 'f_123', w: 640, h: 480, rotation: 90, locked: true },
  documentPage: { ...base, kind: 'documentPage', fileId: 'f_9', page: 3, w: 595, h: 842 },
};

describe('validateShapeRecord (SPEC D4, D10)', () => {
  it('accepts a valid record of every kind (12 interfaces, 13 kinds)', () => {
    expect(Object.keys(VALID).sort()).toEqual([...SHAPE_KINDS].sort());
    for (const record of Object.values(VALID)) expect(validateShapeRecord(record)).toBeNull();
  });

  it('accepts what the web and the node pass: a legacy id field, Float32 points, collaborative text lengths', () => {
    expect(validateShapeRecord({ ...VALID.pen, id: 'old-record-id' })).toBeNull();
    expect(validateShapeRecord({ ...VALID.pen, points: float32Points([0, 0, 1, 1]) })).toBeNull();
    expect(validateShapeRecord({ ...VALID.sticky, text: { textLength: 12 } })).toBeNull();
    expect(validateShapeRecord({ ...VALID.formula, latex: { textLength: 0 } })).toBeNull();
    // formulas carry their rendered size (w, h) since the editor typesets them; older ones do not
    expect(validateShapeRecord({ ...VALID.formula, w: 120.5, h: 40 })).toBeNull();
    expect(validateShapeRecord({ ...VALID.formula, w: -1, h: 40 })).toMatch(/formula\.w/);
    expect(validateShapeRecord({ ...VALID.formula, w: 10, h: 'tall' })).toMatch(/formula\.h/);
    expect(validateShapeRecord({ ...VALID.pen, rotation: undefined })).toBeNull();
  });

  it('refuses unknown kinds, missing or unknown fields and wrong types', () => {
    expect(validateShapeRecord(null)).toMatch(/map/);
    expect(validateShapeRecord([VALID.pen])).toMatch(/map/);
    expect(validateShapeRecord({ ...VALID.pen, kind: 'bogus' })).toMatch(/unknown shape kind/);
    expect(validateShapeRecord({ ...VALID.pen, kind: undefined })).toMatch(/kind is missing/);
    const { points: _points, ...noPoints } = VALID.pen!;
    expect(validateShapeRecord(noPoints)).toMatch(/pen\.points is missing/);
    expect(validateShapeRecord({ ...VALID.pen, extra: 1 })).toMatch(/unknown field "extra"/);
    expect(validateShapeRecord({ ...VALID.pen, x: '1' })).toMatch(/pen\.x: must be a number/);
    expect(validateShapeRecord({ ...VALID.pen, creator: -1 })).toMatch(/creator/);
    expect(validateShapeRecord({ ...VALID.pen, creator: 1.5 })).toMatch(/creator/);
    expect(validateShapeRecord({ ...VALID.pen, locked: 1 })).toMatch(/boolean/);
    // a text object where an immutable string belongs (the node passes Text objects as lengths)
    expect(validateShapeRecord({ ...VALID.pen, z: { textLength: 2 } })).toMatch(/collaborative text/);
    expect(validateShapeRecord({ ...VALID.graph, spec: { textLength: 2 } })).toMatch(/collaborative text/);
  });

  it('refuses nested objects and lists inside a record', () => {
    expect(validateShapeRecord({ ...VALID.pen, strokeColor: { r: 1 } })).toMatch(/nested object/);
    expect(validateShapeRecord({ ...VALID.pen, points: [1, 2] })).toMatch(/list/);
    expect(validateShapeRecord({ ...VALID.sticky, text: ['a'] })).toMatch(/list/);
  });

  it('refuses numbers that are not finite or out of range, and bad colours', () => {
    for (const x of [NaN, Infinity, -Infinity, 2e9]) expect(validateShapeRecord({ ...VALID.pen, x })).toMatch(/x/);
    expect(validateShapeRecord({ ...VALID.pen, strokeColor: 0x1000000 })).toMatch(/strokeColor/);
    expect(validateShapeRecord({ ...VALID.pen, strokeColor: 1.5 })).toMatch(/strokeColor/);
    expect(validateShapeRecord({ ...VALID.shape, fillColor: -1 })).toMatch(/fillColor/);
    expect(validateShapeRecord({ ...VALID.shape, w: -1 })).toMatch(/shape\.w/);
    expect(validateShapeRecord({ ...VALID.shape, opacity: 2 })).toMatch(/opacity/);
    expect(validateShapeRecord({ ...VALID.documentPage, page: 1.5 })).toMatch(/page/);
    expect(validateShapeRecord({ ...VALID.arc, r: NaN })).toMatch(/arc\.r/);
  });

  it('checks enums, string lengths and control characters', () => {
    expect(validateShapeRecord({ ...VALID.shape, shapeType: 'blob' })).toMatch(/shapeType/);
    expect(validateShapeRecord({ ...VALID.pen, linePattern: 'wavy' })).toMatch(/linePattern/);
    expect(validateShapeRecord({ ...VALID.pen, linePattern: 'dashed' })).toBeNull();
    expect(validateShapeRecord({ ...VALID.formula, alignment: 'middle' })).toMatch(/alignment/);
    expect(validateShapeRecord({ ...VALID.pen, z: '' })).toMatch(/\.z/);
    expect(validateShapeRecord({ ...VALID.pen, z: 'a'.repeat(SHAPE_LIMITS.maxZLength + 1) })).toMatch(/\.z/);
    expect(validateShapeRecord({ ...VALID.pen, z: 'a\u0000' })).toMatch(/control/);
    expect(validateShapeRecord({ ...VALID.image, fileId: 'x'.repeat(200) })).toMatch(/fileId/);
    const long = 'x'.repeat(SHAPE_LIMITS.maxText + 1);
    expect(validateShapeRecord({ ...VALID.sticky, text: long })).toMatch(/sticky\.text/);
    expect(validateShapeRecord({ ...VALID.sticky, text: { textLength: long.length } })).toMatch(/sticky\.text/);
  });

  it('D3: points must be bytes unpackPoints accepts, with a bounded number of finite points', () => {
    expect(validateShapeRecord({ ...VALID.pen, points: new Uint8Array([99, 1, 2, 3]) })).toMatch(/packed points/);
    expect(validateShapeRecord({ ...VALID.pen, points: new Uint8Array([2, 200, 1]) })).toMatch(/packed points/);
    expect(validateShapeRecord({ ...VALID.pen, points: packPoints([]) })).toMatch(/points/);
    expect(validateShapeRecord({ ...VALID.line, points: pts(1) })).toMatch(/line\.points/);
    expect(validateShapeRecord({ ...VALID.pen, points: float32Points([NaN, 0]) })).toMatch(/finite/);
    expect(validateShapeRecord({ ...VALID.pen, points: float32Points([3e9, 0]) })).toMatch(/finite/);
    const many = new Uint8Array(SHAPE_LIMITS.maxPoints * 16 + 24);
    expect(validateShapeRecord({ ...VALID.pen, points: many })).toMatch(/at most/);
    expect(validateShapeRecord({ ...VALID.pen, points: pts(SHAPE_LIMITS.maxPoints + 1) })).toMatch(/points/);
    expect(validateShapeRecord({ ...VALID.pen, points: pts(SHAPE_LIMITS.maxPoints) })).toBeNull();
  });

  it('fill styles, groups, connector arrows and elbows, shape labels (editor fields)', () => {
    // valid: every kind may carry a fill style and a group
    for (const kind of SHAPE_KINDS) {
      for (const fill of FILL_STYLES) expect(validateShapeRecord({ ...VALID[kind], fill, groupId: 'g-1' })).toBeNull();
    }
    expect(validateShapeRecord({ ...VALID.shape, fill: 'semi', fillColor: 0x3366ff })).toBeNull();
    const connector = { ...VALID.connector, arrowStart: true, arrowEnd: false, elbow: true, toAnchor: 'left' };
    expect(validateShapeRecord(connector)).toBeNull();
    expect(validateShapeRecord({ ...VALID.line, arrowStart: true, arrowEnd: true })).toBeNull();
    expect(validateShapeRecord({ ...VALID.shape, text: 'label\nsecond line' })).toBeNull();
    expect(validateShapeRecord({ ...VALID.shape, text: { textLength: SHAPE_LIMITS.maxText } })).toBeNull();
    expect(validateShapeRecord({ ...VALID.shape, text: '' })).toBeNull();

    // invalid, each naming the field
    expect(validateShapeRecord({ ...VALID.shape, fill: 'hatched' })).toMatch(
      /shape\.fill: must be one of none, solid, semi/,
    );
    expect(validateShapeRecord({ ...VALID.pen, fill: true })).toMatch(/pen\.fill/);
    expect(validateShapeRecord({ ...VALID.pen, groupId: '' })).toMatch(/pen\.groupId/);
    expect(validateShapeRecord({ ...VALID.pen, groupId: 'g'.repeat(SHAPE_LIMITS.maxIdLength + 1) })).toMatch(/groupId/);
    expect(validateShapeRecord({ ...VALID.pen, groupId: 'g\n1' })).toMatch(/groupId: must not contain control/);
    expect(validateShapeRecord({ ...VALID.pen, groupId: 7 })).toMatch(/groupId: must be a string/);
    expect(validateShapeRecord({ ...VALID.pen, groupId: { textLength: 1 } })).toMatch(/groupId: .*collaborative text/);
    expect(validateShapeRecord({ ...VALID.connector, elbow: 'yes' })).toMatch(/connector\.elbow: must be a boolean/);
    expect(validateShapeRecord({ ...VALID.connector, arrowStart: 1 })).toMatch(/connector\.arrowStart/);
    expect(validateShapeRecord({ ...VALID.line, arrowEnd: null })).toMatch(/line\.arrowEnd/);
    // arrows belong to lines and connectors, elbows to connectors, labels to shapes
    expect(validateShapeRecord({ ...VALID.pen, arrowEnd: true })).toMatch(/pen: unknown field "arrowEnd"/);
    expect(validateShapeRecord({ ...VALID.line, elbow: true })).toMatch(/line: unknown field "elbow"/);
    expect(validateShapeRecord({ ...VALID.image, text: 'x' })).toMatch(/image: unknown field "text"/);
    const long = 'x'.repeat(SHAPE_LIMITS.maxText + 1);
    expect(validateShapeRecord({ ...VALID.shape, text: long })).toMatch(/shape\.text: must be at most/);
    expect(validateShapeRecord({ ...VALID.shape, text: { textLength: long.length } })).toMatch(/shape\.text/);
    expect(validateShapeRecord({ ...VALID.shape, text: 5 })).toMatch(/shape\.text: must be a string/);
  });
});
