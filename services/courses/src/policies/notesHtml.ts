/**
 * Notes items are HTML from the web's rich-text editor, stored only after this allow-list pass
 * (issue 29: "HTML sanitised on the server with an allow-list; never runs script"), by
 * sanitize-html: a maintained parser-based sanitiser, so spelling tricks and malformed markup are
 * its parser's problem, not a hand-written tokenizer's.
 */
import sanitizeHtml from 'sanitize-html';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
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
  ],
  // target and rel are only ever the transform's own (it replaces whatever the input had)
  allowedAttributes: { a: ['href', 'target', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  // dropped together with their content (the library's default drops only script/style/textarea/option)
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'title',
    'template',
    'iframe',
    'svg',
    'math',
    'xmp',
  ],
  // a link opens in a new tab that cannot reach back to the course page
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: attribs.href
        ? { href: attribs.href, target: '_blank', rel: 'noopener noreferrer nofollow' }
        : ({} as sanitizeHtml.Attributes),
    }),
  },
};

export function sanitizeNotesHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
