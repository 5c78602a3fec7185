/**
 * An embedded run (`embed=1`) loads a script of its own, without the sandbox, the agents or the
 * settings (src/embed.ts, vite-plugins/embed-entry.ts), and the whole playground does not load it;
 * built apart, the embed is styled as the playground is (its components inject their styles).
 */
import type { Page } from '@playwright/test';
import { expect, open, PROMPTS, runSample, subagentRegion, test, Watch } from './fixtures';

/** The scripts a page asked its server for, by path. */
function scriptsAsked(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.endsWith('.js')) asked.push(path);
  });
  return asked;
}

/**
 * How the step bar, its first button, its slider and the page are styled: what both pages share (the
 * embed's bar is the same bar, made compact for a slide: its sizes and spacing are its own).
 */
const looks = (page: Page) =>
  page.evaluate(() => {
    const bar = document.querySelector('[role="group"][aria-label="Step through the run"]')!;
    const slider = bar.querySelector('input[type="range"]')!;
    const button = bar.querySelector('button')!;
    const pick = (element: Element, names: string[]) => {
      const style = getComputedStyle(element);
      return Object.fromEntries(names.map((name) => [name, style.getPropertyValue(name)]));
    };
    return {
      bar: pick(bar, ['display', 'align-items', 'background-color', 'border-bottom-color']),
      slider: pick(slider, ['flex-grow', 'accent-color']),
      button: pick(button, ['border-radius', 'border-color', 'background-color']),
      body: pick(document.body, ['font-family', 'background-color', 'color']),
    };
  });

test("an embed loads its own script, not the playground's, and looks as the playground does", async ({
  page,
  browser,
}) => {
  test.slow(); // a run, then a second browser
  const appAsked = scriptsAsked(page);
  await open(page);
  await runSample(page, PROMPTS.framework);
  const slider = page.getByRole('slider', { name: 'Step' });
  const step = Math.floor(Number(await slider.getAttribute('max')) / 2);
  await slider.fill(String(step));
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = await page.getByRole('textbox', { name: 'Link to this step' }).inputValue();
  await page.keyboard.press('Escape');
  const appLooks = await looks(page);
  // The playground's own script, and none of the embed's.
  expect(appAsked.filter((path) => /^\/assets\/index-[\w-]+\.js$/.test(path))).toHaveLength(1);
  expect(appAsked.filter((path) => /^\/assets\/embed[-.]/.test(path))).toEqual([]);

  const fresh = await browser.newContext({ viewport: { width: 640, height: 360 } });
  const embed = await fresh.newPage();
  const watch = new Watch(embed);
  await watch.install();
  const asked = scriptsAsked(embed);
  await embed.goto(link.replace('/?', '/?embed=1&'));
  await expect(embed.getByRole('slider', { name: 'Step' })).toHaveValue(String(step));
  await expect(subagentRegion(embed, 1).getByRole('listitem').first()).toBeVisible();

  // The embed's script alone: not the playground's, nor any worker's of the sandbox or the agents.
  expect(asked.filter((path) => /^\/assets\/embed-[\w-]+\.js$/.test(path))).toHaveLength(1);
  expect(asked.filter((path) => /^\/assets\/(index|sandbox|parent|subagent)-/.test(path))).toEqual([]);
  // Styled as the playground: the step bar, the slider and the page, and its own layout
  // (the whole iframe, the link to the playground at its foot).
  expect(await looks(embed)).toEqual(appLooks);
  // Compact for a slide: the step bar is one line.
  const bar = embed.getByRole('group', { name: 'Step through the run' });
  expect(await bar.evaluate((element) => getComputedStyle(element).flexWrap)).toBe('nowrap');
  expect((await bar.boundingBox())!.height).toBeLessThanOrEqual(48);
  const run = embed.getByRole('main', { name: 'A run of the s04 subagent playground, read-only' });
  expect(await run.evaluate((main) => getComputedStyle(main).display)).toBe('flex');
  expect((await run.boundingBox())!.height).toBe(360);
  const full = (await embed.getByRole('link', { name: 'Open in the playground' }).boundingBox())!;
  expect(full.y + full.height).toBeGreaterThan(360 - 40);
  expect(full.y + full.height).toBeLessThanOrEqual(360);
  expect(watch.unexpectedErrors()).toEqual([]);
  expect(watch.externalRequests).toEqual([]);
  await fresh.close();
});
