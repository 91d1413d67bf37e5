/**
 * Notes items are HTML from the web's rich-text editor, stored only after this allow-list pass
 * (issue 29: "HTML sanitised on the server with an allow-list; never runs script").
 *
 * Interim implementation until a maintained sanitiser (sanitize-html) is a dependency: the output
 * is REBUILT, never filtered — every text run is escaped, every tag written is one of ALLOWED with
 * attributes made here (a link's href only when it is http(s) or mailto), so whatever the input,
 * no markup other than the allow-list can reach the output. Elements whose content is code or
 * foreign markup (script, style, svg, …) are dropped with their content; unknown tags are dropped
 * and their text kept; comments go; unclosed tags are closed.
 */
const ALLOWED = new Set([
  'p',
  'br',
  'h1',
  'h2',
  'h3',
  'h4',
  'ul',
  'ol',
  'li',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'a',
  'blockquote',
  'code',
  'pre',
  'span',
  'sub',
  'sup',
  'hr',
]);
const VOID = new Set(['br', 'hr']);
/** dropped together with everything inside them */
const DROP_CONTENT = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'template',
  'noscript',
  'textarea',
  'title',
  'svg',
  'math',
  'select',
  'noembed',
  'noframes',
  'xmp',
  'plaintext',
  'head',
]);

const TOKEN =
  /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<[!?][^>]*>?|<(\/?)([A-Za-z][A-Za-z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const ENTITY = /&(?:[A-Za-z][A-Za-z0-9]{1,31}|#\d{1,7}|#x[0-9A-Fa-f]{1,6});/y;

function escapeText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '&') {
      ENTITY.lastIndex = i;
      out += ENTITY.test(text) ? '&' : '&amp;';
    } else if (c === '<') out += '&lt;';
    else if (c === '>') out += '&gt;';
    else if (c === '"') out += '&quot;';
    else out += c;
  }
  return out;
}

function decodeAttr(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCodePoint(Math.min(parseInt(h, 16), 0x10ffff)))
    .replace(/&#(\d+);?/g, (_, d: string) => String.fromCodePoint(Math.min(parseInt(d, 10), 0x10ffff)))
    .replace(/&colon;/gi, ':')
    .replace(/&tab;|&newline;/gi, '')
    .replace(/&amp;/gi, '&');
}

/** an href worth keeping: absolute http(s) or mailto, after entity decoding and without control characters */
function safeHref(raw: string): string | null {
  // eslint-disable-next-line no-control-regex
  const value = decodeAttr(raw).replace(/[\u0000-\u0020\u007f]+/g, '');
  if (!/^(https?:\/\/|mailto:)/i.test(value)) return null;
  try {
    return new URL(value).href;
  } catch {
    return null;
  }
}

function hrefOf(attrs: string): string | null {
  const m = /(?:^|\s)href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(attrs);
  const raw = m ? (m[1] ?? m[2] ?? m[3] ?? '') : null;
  return raw === null ? null : safeHref(raw);
}

export function sanitizeNotesHtml(input: string): string {
  let out = '';
  const open: string[] = [];
  let dropping: string | null = null;
  let last = 0;
  const text = (s: string) => {
    if (!dropping && s) out += escapeText(s);
  };
  for (const m of input.matchAll(TOKEN)) {
    text(input.slice(last, m.index));
    last = m.index + m[0].length;
    const name = m[2]?.toLowerCase();
    if (!name) continue; // comment, CDATA, doctype, processing instruction
    const closing = m[1] === '/';
    if (dropping) {
      if (closing && name === dropping) dropping = null;
      continue;
    }
    if (DROP_CONTENT.has(name)) {
      if (!closing && !/\/\s*$/.test(m[3] ?? '')) dropping = name;
      continue;
    }
    if (!ALLOWED.has(name)) continue;
    if (closing) {
      const at = open.lastIndexOf(name);
      if (at === -1) continue;
      while (open.length > at) out += `</${open.pop()!}>`;
      continue;
    }
    if (VOID.has(name)) {
      out += `<${name}>`;
      continue;
    }
    if (name === 'a') {
      const href = hrefOf(m[3] ?? '');
      out += href ? `<a href="${escapeText(href)}" target="_blank" rel="noopener noreferrer nofollow">` : '<a>';
    } else out += `<${name}>`;
    open.push(name);
  }
  text(input.slice(last));
  while (open.length) out += `</${open.pop()!}>`;
  return out;
}
