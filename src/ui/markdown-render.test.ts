// @vitest-environment jsdom
/**
 * Model text is untrusted: it must come out as text formatting only, never as something that
 * restyles, covers or impersonates the app, or that makes the browser fetch anything.
 */
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown-render';

/** The rendered HTML, parsed back into a container to inspect. */
function rendered(text: string): HTMLElement {
  const box = document.createElement('div');
  box.innerHTML = renderMarkdown(text);
  return box;
}

describe('renderMarkdown', () => {
  it('keeps the text formatting Markdown makes', () => {
    const box = rendered(
      [
        '# Title',
        '',
        'Some **bold**, _em_, ~~gone~~ and `code`.',
        '',
        '> quoted',
        '',
        '1. one',
        '2. two',
        '',
        '- a',
        '',
        '| a | b |',
        '| - | - |',
        '| 1 | 2 |',
        '',
        '---',
        '',
        '```',
        'x = 1',
        '```',
      ].join('\n'),
    );
    for (const tag of [
      'h1',
      'strong',
      'em',
      'del',
      'code',
      'blockquote',
      'ol',
      'ul',
      'li',
      'table',
      'th',
      'td',
      'hr',
      'pre',
    ])
      expect(box.querySelector(tag), tag).not.toBeNull();
    expect(box.querySelector('pre code')?.textContent).toBe('x = 1\n');
  });

  it('drops <style> and style attributes', () => {
    const box = rendered(
      '<style>button{display:none}</style>\n\n<p style="color:red">hi</p> <span style="position:fixed">x</span>',
    );
    expect(box.querySelector('style')).toBeNull();
    expect(box.querySelector('[style]')).toBeNull();
    expect(box.innerHTML).not.toContain('display:none');
    expect(box.textContent).toContain('hi');
  });

  it('drops a full-page overlay div with its styles, ids and classes', () => {
    const box = rendered(
      '<div id="app" class="run-status" style="position:fixed;inset:0;z-index:9999;background:#fff">covered</div>',
    );
    expect(box.querySelector('div')).toBeNull();
    expect(box.querySelector('[id], [class], [style]')).toBeNull();
    expect(box.textContent).toContain('covered');
  });

  it('gives model text no roles and no ARIA', () => {
    const box = rendered(
      '<p role="status" aria-live="polite">Finished</p>\n\n<span role="button" aria-label="Run" aria-hidden="false">x</span>',
    );
    expect(box.querySelector('[role]')).toBeNull();
    expect(box.innerHTML).not.toMatch(/aria-/);
    expect(box.textContent).toContain('Finished');
  });

  it('keeps lists out of the messages list (role=none is ours)', () => {
    const box = rendered('- a\n- b\n\n<ul role="list"><li role="listitem">c</li></ul>');
    const roles = [...box.querySelectorAll('ul, ol, li')].map((el) => el.getAttribute('role'));
    expect(roles.length).toBeGreaterThan(0);
    expect(new Set(roles)).toEqual(new Set(['none']));
  });

  it('drops form controls, buttons and embedded documents', () => {
    const box = rendered(
      [
        '<button>Run</button>',
        '<form action="https://example.com"><input name="k"><textarea>t</textarea><select><option>o</option></select></form>',
        '<iframe src="https://example.com"></iframe>',
        '<object data="x.swf"></object><embed src="x.swf">',
        '<svg><circle r="5"/></svg>',
        '<math><mi>x</mi></math>',
        '<video src="https://example.com/v.mp4"></video><audio src="https://example.com/a.mp3"></audio>',
        '<link rel="stylesheet" href="https://example.com/s.css"><meta http-equiv="refresh" content="0">',
        '<details open><summary>s</summary>d</details><dialog open>d</dialog>',
        '- [x] done',
        '- [ ] todo',
      ].join('\n\n'),
    );
    const banned =
      'button, form, input, textarea, select, option, iframe, object, embed, svg, math, video, audio, link, meta, details, summary, dialog, script';
    expect([...box.querySelectorAll(banned)].map((el) => el.tagName)).toEqual([]);
    expect(box.textContent).toContain('Run');
    expect(box.textContent).toMatch(/☑ done/);
    expect(box.textContent).toMatch(/☐ todo/);
  });

  it('drops scripts and event handlers', () => {
    const box = rendered(
      '<img src=x onerror="alert(1)"><a href="javascript:alert(1)" onclick="x()">j</a><script>1</script>',
    );
    expect(box.querySelector('script')).toBeNull();
    expect(box.innerHTML).not.toMatch(/onerror|onclick|javascript:/i);
  });

  it('shows a remote image as a link, never as an image', () => {
    const box = rendered(
      '![the alt](http://127.0.0.1:9/pixel.png)\n\n<img src="https://tracker.example/p.gif" alt="">\n\n<img src="data:image/png;base64,AAAA" alt="inline">',
    );
    expect(box.querySelector('img, picture, source, [src], [srcset]')).toBeNull();
    const links = [...box.querySelectorAll('a')].map((a) => [a.getAttribute('href'), a.textContent]);
    expect(links).toEqual([
      ['http://127.0.0.1:9/pixel.png', 'the alt'],
      ['https://tracker.example/p.gif', 'https://tracker.example/p.gif'],
    ]);
    expect(box.textContent).toContain('inline');
  });

  it('makes links http, https or mailto only, opening apart from the app', () => {
    const box = rendered(
      '[web](https://example.com/x) [mail](mailto:a@example.com) [rel](/settings) [data](data:text/html,hi) <a href="https://example.com" target="_self" rel="opener" id="x" class="y">raw</a>',
    );
    const links = [...box.querySelectorAll('a')];
    expect(links.map((a) => a.textContent)).toEqual(['web', 'mail', 'rel', 'data', 'raw']);
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      'https://example.com/x',
      'mailto:a@example.com',
      null,
      null,
      'https://example.com',
    ]);
    for (const a of links.filter((a) => a.hasAttribute('href'))) {
      expect(a.getAttribute('target')).toBe('_blank');
      expect(a.getAttribute('rel')).toBe('noopener noreferrer');
      expect(a.hasAttribute('id') || a.hasAttribute('class')).toBe(false);
    }
  });

  it('removes attributes that could load or restyle anything, on every kept tag', () => {
    const box = rendered(
      '<p background="https://x.example/b.png" class="c" id="i" title="t" lang="en" dir="rtl" tabindex="0" hidden>x</p><table background="https://x.example/t.png"><tr><td style="x" bgcolor="red">1</td></tr></table>',
    );
    const attributes = [...box.querySelectorAll('*')].flatMap((el) => [...el.attributes].map((a) => a.name));
    expect(attributes.filter((name) => !['title', 'role'].includes(name))).toEqual([]);
  });
});
