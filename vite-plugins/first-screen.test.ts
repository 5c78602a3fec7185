// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import en from '../src/ui/locales/en.json';
import ja from '../src/ui/locales/ja.json';
import zh from '../src/ui/locales/zh.json';
import { firstScreen } from './first-screen';

const { handler } = firstScreen().transformIndexHtml as { handler: (html: string) => string };
const built = handler('<!doctype html><html><head></head><body><div id="app"></div></body></html>');

/** The built page's first screen, its inline script run as the browser runs it, at `search` with `languages`. */
function shown(search: string, languages: string[], stored?: string): string {
  history.replaceState(null, '', `/${search}`);
  Object.defineProperty(navigator, 'languages', { value: languages, configurable: true });
  localStorage.clear();
  if (stored) localStorage.setItem('s04.language', stored);
  const app = new DOMParser().parseFromString(built, 'text/html').getElementById('app')!;
  document.body.replaceChildren(document.importNode(app, true));
  new Function(app.querySelector('script')!.textContent!)();
  const text = document.getElementById('s04-first-screen')!.textContent;
  document.body.replaceChildren(); // its timer stops once the line is gone
  return text ?? '';
}

describe('the first screen before the page script', () => {
  it("says the playground is loading in the learner's language, chosen as the app chooses it", () => {
    expect(shown('', ['en-US'])).toBe(en.firstVisit.loading);
    expect(shown('', ['fr', 'zh-TW'])).toBe(zh.firstVisit.loading);
    expect(shown('', ['zh-CN'], 'ja')).toBe(ja.firstVisit.loading);
    expect(shown('?lang=en', ['ja'], 'zh')).toBe(en.firstVisit.loading);
    expect(shown('?lang=xx', ['de'])).toBe(en.firstVisit.loading);
  });

  it('refuses a page without the app’s element, rather than building one that shows nothing', () => {
    expect(() => handler('<body></body>')).toThrow(/no <div id="app"><\/div>/);
  });
});
