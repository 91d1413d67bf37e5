import { sanitizeNotesHtml as clean } from './notesHtml';

describe('notes HTML allow-list', () => {
  it('keeps the editor’s formatting', () => {
    const html = '<h2>Week 1</h2><p><strong>Bold</strong> and <em>italic</em>, \\(x^2\\)</p><ul><li>one</li></ul>';
    expect(clean(html)).toBe(html);
  });

  it('drops script, handlers and foreign markup, whatever their spelling', () => {
    expect(clean('<p onclick="alert(1)">hi</p><script>alert(1)</script><ScRiPt >x</sCrIpT>')).toBe('<p>hi</p>');
    expect(clean('<img src=x onerror=alert(1)><svg><script>alert(1)</script></svg>ok')).toBe('ok');
    expect(clean('<iframe src="javascript:alert(1)"></iframe><style>*{}</style>t')).toBe('t');
    expect(clean('<!-- <script>alert(1)</script> -->x')).toBe('x');
  });

  it('keeps only http(s) and mailto links, opened in a new tab without opener', () => {
    expect(clean('<a href="https://example.com/a?b=1&amp;c=2">x</a>')).toBe(
      '<a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer nofollow">x</a>',
    );
    for (const href of [
      'javascript:alert(1)',
      'java&#x09;script:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,x',
      'jav&#97;script:x',
    ]) {
      const out = clean(`<a href="${href}">x</a>`);
      expect(out).not.toMatch(/href|script|data:/i);
      expect(out).toMatch(/^<a[^>]*>x<\/a>$/);
    }
  });

  it('escapes stray markup characters and closes what is left open', () => {
    expect(clean('1 < 2 > 0 & "q" &amp; <b>open')).toBe('1 &lt; 2 &gt; 0 &amp; "q" &amp; <b>open</b>');
    expect(clean('<p><b>x</p>')).toBe('<p><b>x</b></p>');
    expect(clean('<p title="a>b">t</p>')).toBe('<p>t</p>');
    expect(clean('<<script>script>alert(1)<</script>/script>')).toBe('&lt;/script&gt;');
  });
});
