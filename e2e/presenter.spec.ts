/**
 * The presenter's mode (issue 25, point 5): `Present` stops a run at the lesson's moments, region
 * `Caption` tells each in one sentence, `Continue` (Space, →) goes on; a live demo run waits.
 */
import type { Page } from '@playwright/test';
import {
  expect,
  frames,
  open,
  openOnEndpoint,
  PROMPTS,
  runSample,
  status,
  stepSlider,
  test,
} from './fixtures';

const caption = (page: Page) => page.getByRole('region', { name: 'Caption' });
const present = (page: Page) => page.getByRole('button', { name: 'Present' });

/** What the live record holds of one kind of event of one agent (the run's progress). */
function recorded(page: Page, agent: string, type: string): Promise<number> {
  return page.evaluate(
    ([agent, type]) => {
      const hook = (
        window as unknown as { __s04: { record: { events: Array<{ type: string; agent?: string }> } | null } }
      ).__s04;
      return (hook.record?.events ?? []).filter((e) => e.type === type && e.agent === agent).length;
    },
    [agent, type],
  );
}

/** Presses Continue until the caption says the run's moments are over; returns every caption. */
async function continueToEnd(page: Page, how: 'click' | 'Space' | 'ArrowRight' = 'click'): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < 40; i++) {
    const text = (await caption(page).getByRole('paragraph').textContent())!;
    if (seen.at(-1) !== text) seen.push(text);
    if (/^That was the last moment/.test(text)) return seen;
    if (how === 'click') await caption(page).getByRole('button', { name: 'Continue' }).click();
    else await page.keyboard.press(how);
    await expect(caption(page).getByRole('paragraph')).not.toHaveText(text, { timeout: 15_000 });
  }
  throw new Error(`no end after 40 moments: ${seen.join(' | ')}`);
}

test('a live demo run waits at each moment, and goes on with Continue, Space and the right arrow', async ({
  page,
}) => {
  await open(page);
  await expect(caption(page)).toHaveCount(0);
  await present(page).click();
  await expect(present(page)).toHaveAttribute('aria-pressed', 'true');
  await expect(caption(page)).toContainText('Presenting');

  await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
  await expect(caption(page)).toContainText('Parent calls the task tool', { timeout: 15_000 });
  await page.keyboard.press('Space');
  await expect(caption(page)).toContainText(
    'Subagent 1 starts in a fresh worker with a fresh array of one message',
  );
  await page.keyboard.press('ArrowRight');
  await expect(caption(page)).toContainText('Subagent 1 makes model call 1, sending its own 1 message');

  // Held: the subagent's first call waits at the gate, so it has run no tool however long we look.
  await frames(page, 30);
  expect(await recorded(page, 'subagent-1', 'tool_start')).toBe(0);
  await expect(status(page)).toHaveText(/^Running/);

  const rest = await continueToEnd(page, 'ArrowRight');
  expect(rest[0]).toMatch(/^Subagent 1 makes model call 1/);
  expect(rest.some((c) => /^Subagent 1 makes model call 2, sending its own 3 messages/.test(c))).toBe(true);
  expect(rest.some((c) => /^Subagent 1 answers with its final text \(\d+ characters\)/.test(c))).toBe(true);
  expect(
    rest.some((c) => /^Subagent 1's array of \d+ messages .* is discarded with its worker/.test(c)),
  ).toBe(true);
  expect(rest.some((c) => /^The result arrives in Parent as one tool_result of \d+ characters/.test(c))).toBe(
    true,
  );
  await expect(status(page)).toHaveText('Finished', { timeout: 20_000 });
  await expect(caption(page).getByRole('button', { name: 'Continue' })).toBeDisabled();

  // Off: the caption goes, and nothing of the mode stays on screen.
  await present(page).click();
  await expect(present(page)).toHaveAttribute('aria-pressed', 'false');
  await expect(caption(page)).toHaveCount(0);
});

test('a finished run is presented from its start: each moment shows its step; zh captions at a projector size', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await open(page);
  await runSample(page, PROMPTS.framework);
  const steps = Number(await stepSlider(page).getAttribute('max'));
  await present(page).click();
  await expect(caption(page)).toContainText('Parent calls the task tool');
  // The screen is at the task call's step, in the past of the finished run.
  const at = Number(await stepSlider(page).inputValue());
  expect(at).toBeGreaterThan(0);
  expect(at).toBeLessThan(steps);
  await expect(status(page)).toHaveText(`Finished · step ${at} of ${steps}`);
  const captions = await continueToEnd(page);
  expect(captions.length).toBeGreaterThanOrEqual(7);
  // Large enough to read from the back of a room.
  const size = await caption(page)
    .getByRole('paragraph')
    .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  expect(size).toBeGreaterThanOrEqual(28);

  // In Chinese: the caption, its region and its button in the screen's language.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh');
  const zh = page.getByRole('region', { name: '说明' });
  await expect(zh).toContainText('这是本次运行的最后一个关键时刻');
  const presentZh = page.getByRole('button', { name: '演示', exact: true });
  await presentZh.click();
  await expect(presentZh).toHaveAttribute('aria-pressed', 'false');
  await expect(zh).toHaveCount(0);
  // On again at a past step: it goes on from the step on screen (the result, here).
  await presentZh.click();
  await expect(zh).toContainText('结果作为一个');
  // From the end of the run, it starts over.
  await presentZh.click();
  await page.getByRole('button', { name: '最新', exact: true }).click();
  await presentZh.click();
  await expect(zh).toContainText('父代理调用了 task 工具');
  await expect(zh.getByRole('button', { name: /继续/ })).toBeEnabled();
});

test('a live API run keeps going while presented; the presentation follows its record behind it', async ({
  page,
}) => {
  await openOnEndpoint(page, 'mock-s04');
  await present(page).click();
  await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
  await expect(caption(page)).toContainText('Parent calls the task tool', { timeout: 20_000 });
  // A real model's run never waits for the presenter: it finishes while the caption stays put.
  await expect
    .poll(() => recorded(page, 'parent', 'task_end'), { timeout: 20_000, intervals: [100] })
    .toBe(1);
  await expect(caption(page)).toContainText('Parent calls the task tool');
  const captions = await continueToEnd(page);
  expect(captions.some((c) => /^Subagent 1 makes model call 1, sending its own 1 message/.test(c))).toBe(
    true,
  );
  expect(captions.some((c) => /^The result arrives in Parent as one tool_result/.test(c))).toBe(true);
  // The run is over; the screen is still at the last moment's step.
  await expect(status(page)).toHaveText(/^Finished · step \d+ of \d+$/);
});
