/// <reference types="jest" />
/// <reference types="node" />
/**
 * Colours and stacking come from the design tokens (issue 27; conventions): no raw colour (hex,
 * rgb()/hsl(), a named colour) and no z-index number in any stylesheet under web/src, except where
 * the tokens are defined: web/src/ui/tokens.css and the :root / [data-theme] blocks of
 * web/src/ui/styles.css. A new colour gets a token there, for the light and the dark theme.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(__dirname, '..');
const TOKEN_FILE = 'ui/tokens.css';
const THEME_FILE = 'ui/styles.css';

// CSS named colours (transparent, currentColor and inherit are fine: they are no colour of their own)
const NAMED = new Set(
  (
    'aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown ' +
    'burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan ' +
    'darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid ' +
    'darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet ' +
    'deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ' +
    'ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki ' +
    'lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow ' +
    'lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray ' +
    'lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine ' +
    'mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen ' +
    'mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace ' +
    'olive olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred ' +
    'papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red rosybrown royalblue ' +
    'saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue slategray slategrey ' +
    'snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow ' +
    'yellowgreen'
  ).split(' '),
);
const TOKEN_BLOCK = /^(:root|\[data-theme=['"]?[\w-]+['"]?\]|:root\[data-theme=['"]?[\w-]+['"]?\])$/;

export interface Finding {
  line: number;
  problem: string;
}

/** comments blanked out (newlines kept, so lines still count) */
function stripComments(css: string): string {
  return css.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
}

/** the raw colours and z-index numbers in one declaration's value */
function problemsOf(property: string, value: string): string[] {
  const found: string[] = [];
  // urls and strings hold no colours (an svg data url's fill is the icon's own)
  const v = value.replace(/url\([^)]*\)|"[^"]*"|'[^']*'/g, '');
  for (const m of v.matchAll(/#[0-9a-f]{3,8}\b/gi)) found.push(`raw colour ${m[0]}`);
  for (const m of v.matchAll(/\b(rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(/gi)) found.push(`raw colour ${m[1]}()`);
  for (const m of v.matchAll(/(?<![\w-])([a-z]+)(?![\w-])/gi))
    if (NAMED.has(m[1]!.toLowerCase())) found.push(`named colour ${m[1]}`);
  if (property === 'z-index' && /^-?\d+$/.test(value.trim())) found.push(`z-index ${value.trim()}`);
  return found;
}

/**
 * The raw colours and z-index numbers of a stylesheet. With `tokenBlocks`, the declarations of
 * `:root` and `[data-theme=…]` rules are where tokens are defined and are not checked.
 */
export function findRawValues(source: string, tokenBlocks = false): Finding[] {
  const css = stripComments(source);
  const findings: Finding[] = [];
  const blocks: boolean[] = []; // per open block: is it a token block
  let start = 0; // where the current prelude or declaration starts
  for (let i = 0; i < css.length; i++) {
    const c = css[i];
    if (c !== '{' && c !== '}' && c !== ';') continue;
    const text = css.slice(start, i);
    if (c === '{') {
      const selectors = text.trim().split(/\s*,\s*/);
      blocks.push(tokenBlocks && selectors.every((s) => TOKEN_BLOCK.test(s)));
    } else {
      const colon = text.indexOf(':');
      const inTokens = blocks.length > 0 && blocks[blocks.length - 1];
      if (colon > 0 && blocks.length > 0 && !inTokens) {
        const property = text.slice(0, colon).trim().toLowerCase();
        const line = css.slice(0, start + text.search(/\S/)).split('\n').length;
        for (const problem of problemsOf(property, text.slice(colon + 1))) findings.push({ line, problem });
      }
      if (c === '}') blocks.pop();
    }
    start = i + 1;
  }
  return findings;
}

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? cssFiles(join(dir, e.name)) : e.name.endsWith('.css') ? [join(dir, e.name)] : [],
  );
}

describe('CSS uses the design tokens', () => {
  it('finds raw colours and z-index numbers, but not in token blocks', () => {
    const sample = [
      ':root { --fg: #123456; }',
      "[data-theme='dark'] { --fg: white; }",
      '.a { color: #fff; border: 1px solid rgb(0 0 0 / 10%); }',
      '.b { background: var(--x, red); white-space: nowrap; z-index: 3; }',
      '@media (width < 600px) { .c { z-index: var(--z-menu); color: currentColor; fill: transparent; } }',
      '.d { background: url("data:image/svg+xml,%3Csvg fill=\'%23fff\'"); } /* #000 in a comment */',
    ].join('\n');
    expect(findRawValues(sample, true)).toEqual([
      { line: 3, problem: 'raw colour #fff' },
      { line: 3, problem: 'raw colour rgb()' },
      { line: 4, problem: 'named colour red' },
      { line: 4, problem: 'z-index 3' },
    ]);
    expect(findRawValues(':root { --fg: #123456; }', false)).toEqual([{ line: 1, problem: 'raw colour #123456' }]);
  });

  it('has none in the stylesheets under web/src (tokens are defined in ui/tokens.css and the theme blocks of ui/styles.css)', () => {
    const files = cssFiles(SRC).map((f) => relative(SRC, f).split('\\').join('/'));
    expect(files).toEqual(expect.arrayContaining([THEME_FILE, 'features/board/board.css']));
    const offending = files
      .filter((f) => f !== TOKEN_FILE)
      .flatMap((f) =>
        findRawValues(readFileSync(join(SRC, f), 'utf8'), f === THEME_FILE).map(
          ({ line, problem }) => `web/src/${f}:${line}: ${problem}`,
        ),
      );
    // each line: use a var(--…) colour token or a --z-… layer from ui/styles.css (add one there for light and dark)
    expect(offending).toEqual([]);
  });
});
