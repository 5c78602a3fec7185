import type { Page } from '@playwright/test';
import { expect, open, parentList, PROMPTS, runSample, status, subagentRegion, test } from './fixtures';

/**
 * The page's rehearsal of a first run (src/ui/rehearsal.ts): once the sandbox is ready, a
 * small recorded run is drawn into the run's components out of sight, then taken away, so that a
 * first click finds their code compiled. Nothing of it may be seen or heard, and a click stops it.
 */

/** Every element added under the page's body with `inert`, kept from the first script on. */
async function watchInert(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const added: Element[] = ((window as unknown as { inertAdded: Element[] }).inertAdded = []);
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes)
          if (node instanceof HTMLElement && node.inert && node.parentElement === document.body)
            added.push(node);
    }).observe(document, { childList: true, subtree: true });
  });
}

const rehearsed = (page: Page) =>
  page.evaluate(() => (window as unknown as { __s04: { rehearsed: string } }).__s04.rehearsed);

/** The inert elements added so far: still on the page, and how they were shown. */
const inertAdded = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { inertAdded: HTMLElement[] }).inertAdded.map((element) => ({
      connected: element.isConnected,
      ariaHidden: element.getAttribute('aria-hidden'),
      visibility: element.style.visibility,
      right: element.getBoundingClientRect().right,
      // A closed shadow root: no query of the page reaches what is in it.
      shadowRoot: element.shadowRoot,
    })),
  );

/** The User Timing entries of runs (the automation contract's; the chart's `chart:draw` is the page's own). */
const runEntries = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntries()
      .map((entry) => entry.name)
      .filter((name) => /^(run:|model:|tool:|subagent:)/.test(name)),
  );

test('a fresh page rehearses a first run out of sight, then leaves nothing of it behind', async ({
  page,
}) => {
  await watchInert(page);
  await open(page);
  // While it plays (read in the moment it is seen playing: it plays for a few frames): off screen,
  // hidden, inert, aria-hidden, out of the reach of the page's queries.
  const seen = await page.waitForFunction(() => {
    const { __s04, inertAdded } = window as unknown as {
      __s04: { rehearsed: string };
      inertAdded: HTMLElement[];
    };
    if (__s04.rehearsed !== 'playing') return null;
    return inertAdded.map((element) => ({
      connected: element.isConnected,
      ariaHidden: element.getAttribute('aria-hidden'),
      visibility: element.style.visibility,
      right: element.getBoundingClientRect().right,
      shadowRoot: element.shadowRoot,
    }));
  });
  const playing = (await seen.jsonValue())!;
  expect(playing).toEqual([
    {
      connected: true,
      ariaHidden: 'true',
      visibility: 'hidden',
      right: expect.any(Number),
      shadowRoot: null,
    },
  ]);
  expect(playing[0].right).toBeLessThan(0);
  await page.waitForFunction(
    () => (window as unknown as { __s04: { rehearsed: string } }).__s04.rehearsed !== 'playing',
  );
  expect(await rehearsed(page)).toBe('played');
  // Gone, and nothing of it was seen or heard: the status, the arrays, History and the timings.
  expect((await inertAdded(page)).map((element) => element.connected)).toEqual([false]);
  await expect(status(page)).toHaveText(/^Idle/);
  await expect(page.getByText('pytest', { exact: false })).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __s04: { record: unknown } }).__s04.record)).toBe(
    null,
  );
  expect(await runEntries(page)).toEqual([]);
  await page.getByRole('button', { name: 'History' }).click();
  await expect(page.getByRole('dialog', { name: 'History' })).toContainText('No runs yet.');
  await page.keyboard.press('Escape');

  // The first run is drawn as it always is: one parent, one subagent.
  await runSample(page, PROMPTS.framework);
  await expect(parentList(page)).toHaveCount(4);
  await expect(subagentRegion(page, 1)).toBeVisible();
  await expect(subagentRegion(page, 2)).toHaveCount(0);
});

test('a click while the rehearsal plays stops it at once, and the run is not held up', async ({ page }) => {
  await watchInert(page);
  await open(page);
  // The press in the moment the rehearsal is seen playing (it plays for a few frames), as a mouse's
  // click begins; then the click itself.
  await page.waitForFunction((name) => {
    if ((window as unknown as { __s04: { rehearsed: string } }).__s04.rehearsed !== 'playing') return false;
    const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === name)!;
    button.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    return true;
  }, PROMPTS.framework);
  expect(await rehearsed(page)).toBe('stopped');
  await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
  expect((await inertAdded(page)).map((element) => element.connected)).toEqual([false]);
  await expect(status(page)).toHaveText(/^Finished/, { timeout: 20_000 });
  await expect(parentList(page)).toHaveCount(4);
  await expect(subagentRegion(page, 1)).toBeVisible();
});

test("the rehearsal lays its parts out with the page's own styles, as a first run will be", async ({
  page,
}) => {
  // The closed shadow root, kept for this test only: no query of the page reaches it otherwise.
  await page.addInitScript(() => {
    const attach = Element.prototype.attachShadow;
    Element.prototype.attachShadow = function (init) {
      const root = attach.call(this, init);
      (window as unknown as { shadows: ShadowRoot[] }).shadows = [root];
      return root;
    };
  });
  await open(page);
  // Its parts and the page's, class for class: the same look (a part drawn unstyled is laid out,
  // and its text shaped, in the browser's defaults, which rehearses nothing of a real run's layout).
  const compared = await page.waitForFunction(() => {
    const root = (window as unknown as { shadows?: ShadowRoot[] }).shadows?.[0];
    const pairs: Array<[string, string, string]> = [];
    for (const element of root?.querySelectorAll('[class*="svelte-"]') ?? []) {
      // A class of its own besides the component's: the same element of the same component.
      const classes = [...element.classList];
      if (!classes.some((c) => !c.startsWith('svelte-'))) continue;
      const twin = [...document.querySelectorAll(`.${classes.map((c) => CSS.escape(c)).join('.')}`)].find(
        (e) =>
          e.tagName === element.tagName &&
          e.className === element.className &&
          // In the same place: a marker in a flex row is laid out as a block, in a line as inline.
          e.parentElement?.className === element.parentElement?.className,
      );
      if (!twin) continue;
      const look = (e: Element) => {
        const style = getComputedStyle(e);
        return [style.display, style.fontSize, style.fontFamily, style.padding].join(' | ');
      };
      pairs.push([element.className, look(element), look(twin)]);
    }
    return pairs.length >= 3 ? pairs : null;
  });
  const pairs = (await compared.jsonValue()) as Array<[string, string, string]>;
  for (const [className, rehearsed, shown] of pairs) expect(rehearsed, className).toBe(shown);
});

test('on a slow or metered connection there is no rehearsal: its chunk is never fetched', async ({
  page,
}) => {
  await page.addInitScript(() =>
    Object.defineProperty(navigator, 'connection', {
      value: { effectiveType: '3g', saveData: false },
      configurable: true,
    }),
  );
  const chunks: string[] = [];
  page.on('request', (request) => {
    if (/\/rehearsal-[\w-]+\.js$/.test(new URL(request.url()).pathname)) chunks.push(request.url());
  });
  await open(page);
  await page.waitForFunction(
    () => (window as unknown as { __s04: { rehearsed: string } }).__s04.rehearsed !== 'not yet',
  );
  expect(await rehearsed(page)).toBe('skipped');
  // The first run is drawn all the same, its text rendered as Markdown.
  await runSample(page, PROMPTS.framework);
  await expect(subagentRegion(page, 1)).toBeVisible();
  await expect(page.locator('.markdown code').first()).toBeVisible();
  expect(chunks).toEqual([]);
});
