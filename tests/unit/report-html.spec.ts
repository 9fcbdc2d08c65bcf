/**
 * The report's markup builder: the one place a log string meets HTML.
 * Expected strings are written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { Html, escapeHtml, html, multiline } from '../../host/report/index.ts';
import { styleElement } from '../../host/report/html.ts';

describe('html`…`', () => {
  it('escapes every interpolated string, in text and in attributes', () => {
    const hostile = `"><script>alert(1)</script><a title='x'>&amp;`;
    expect(html`<td title="${hostile}">${hostile}</td>`.toString()).toBe(
      '<td title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;a title=&#39;x&#39;&gt;&amp;amp;">&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;a title=&#39;x&#39;&gt;&amp;amp;</td>',
    );
  });

  it('shows controls, escape sequences and bidi characters escaped, on one line', () => {
    expect(html`<p>${'a\x1b]0;t\x07\u202eb\nc'}</p>`.toString()).toBe('<p>a\\x1b]0;t\\x07\\u{202e}b\\nc</p>');
  });

  it('inserts markup it built, lists joined, and nothing for undefined, null and false', () => {
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p>${inner}${[inner, 'x', 3]}${undefined}${null}${false}</p>`.toString()).toBe('<p><b>&lt;i&gt;</b><b>&lt;i&gt;</b>x3</p>');
  });

  it('caps a one-line field at 2,000 code points', () => {
    const text = html`${'é'.repeat(3000)}`.toString();
    expect([...text]).toHaveLength(2000);
    expect(text.endsWith('…')).toBe(true);
  });

  it('no other code can wrap a string as markup', () => {
    expect(() => new Html(Symbol('hookbox report markup'), '<script>')).toThrow('Html is built by html`…` only');
  });
});

describe('multiline and the style sheet', () => {
  it('multiline keeps line breaks, escapes each line and caps the line count', () => {
    expect(multiline('<a>\n\x1b[2Kb\r\nc\nd', { maxLines: 3 }).toString()).toBe('&lt;a&gt;\n\\x1b[2Kb\n… (2 more lines)');
  });

  it('escapeHtml covers the five characters that matter in text and quoted attributes', () => {
    expect(escapeHtml(`&<>"'/=\``)).toBe('&amp;&lt;&gt;&quot;&#39;/=`');
  });

  it('a style sheet that could end its element is refused', () => {
    expect(styleElement('p { color: red }').toString()).toBe('<style>p { color: red }</style>');
    expect(() => styleElement('p {} </STYLE><script>')).toThrow('must not contain </style');
  });
});
