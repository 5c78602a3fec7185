/**
 * The presenter's mode: `Present` stops a run at the lesson's moments, region `Caption` tells each
 * in one sentence (in tokens, per agent's call), `Continue` (Space, →) goes on and `Back` (←) goes
 * back; a live demo run waits. Each stop brings its subject (the message marked `aria-current`, in
 * its agent's region) into view.
 */
import type { Page } from '@playwright/test';
import {
  expect,
  exportRun,
  frames,
  open,
  openOnEndpoint,
  PROMPTS,
  type RecordFile,
  runSample,
  status,
  stepSlider,
  test,
} from './fixtures';

const caption = (page: Page) => page.getByRole('region', { name: 'Caption' });
const present = (page: Page) => page.getByRole('button', { name: 'Present' });

/** What the live record holds of one kind of event of one agent (the run's progress), as exported. */
async function recorded(page: Page, agent: string, type: string): Promise<number> {
  const record = JSON.parse(await exportRun(page)) as RecordFile;
  return record.events.filter((e) => e.type === type && e.agent === agent).length;
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
  await expect(caption(page)).toContainText(/^Parent call 1 sends [\d,]+ tokens/, { timeout: 15_000 });
  // Paused: the status keeps the run's own word first, then the moment.
  await expect(status(page)).toHaveText('Running · Presenting: paused at moment 1 of 1');
  await page.keyboard.press('Space');
  await expect(caption(page)).toContainText('Parent calls the task tool', { timeout: 15_000 });
  await page.keyboard.press('Space');
  await expect(caption(page)).toContainText(
    'Subagent 1 starts in a fresh worker with a fresh array of one message',
  );
  await page.keyboard.press('ArrowRight');
  await expect(caption(page)).toContainText(
    /^Subagent 1 call 1 sends [\d,]+ tokens: its system prompt, its tools and its own 1 message/,
  );

  // Held: the subagent's first call waits at the gate, so it has run no tool however long we look.
  await frames(page, 30);
  expect(await recorded(page, 'subagent-1', 'tool_start')).toBe(0);
  await expect(status(page)).toHaveText(/^Running/);

  const rest = await continueToEnd(page, 'ArrowRight');
  expect(rest[0]).toMatch(/^Subagent 1 call 1 sends/);
  expect(rest.some((c) => /^Subagent 1 call 2 sends [\d,]+ tokens: .* its own 3 messages/.test(c))).toBe(
    true,
  );
  expect(rest.some((c) => /^Subagent 1 answers with its final text \([\d,]+ tokens\)/.test(c))).toBe(true);
  expect(
    rest.some((c) =>
      /^Subagent 1's context of [\d,]+ tokens \(\d+ messages\) is discarded with its worker/.test(c),
    ),
  ).toBe(true);
  expect(
    rest.some((c) => /^The result arrives in Parent's array as one tool_result of [\d,]+ tokens/.test(c)),
  ).toBe(true);
  expect(
    rest.some((c) => /^Parent call 2 sends [\d,]+ tokens, not the [\d,]+ tokens Subagent 1 held/.test(c)),
  ).toBe(true);
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
  await expect(caption(page)).toContainText(/^Parent call 1 sends/);
  // The screen is at the parent's first call, in the past of the finished run.
  const at = Number(await stepSlider(page).inputValue());
  expect(at).toBeGreaterThan(0);
  expect(at).toBeLessThan(steps);
  await expect(status(page)).toHaveText(/^Finished · Presenting: paused at moment 1 of \d+$/);
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
  // Past the last moment the run is at its end; Back returns to the last moment.
  await zh.getByRole('button', { name: '返回' }).click();
  await expect(zh).toContainText('父代理的第 2 次调用发送');
  const presentZh = page.getByRole('button', { name: '演示', exact: true });
  await presentZh.click();
  await expect(presentZh).toHaveAttribute('aria-pressed', 'false');
  await expect(zh).toHaveCount(0);
  // On again at that past step: it goes on from the step on screen.
  await presentZh.click();
  await expect(zh).toContainText('父代理的第 2 次调用发送');
  // From the end of the run, it starts over.
  await presentZh.click();
  await page.getByRole('button', { name: '最新', exact: true }).click();
  await presentZh.click();
  await expect(zh).toContainText('父代理的第 1 次调用发送');
  await expect(zh.getByRole('button', { name: /继续/ })).toBeEnabled();
});

test('a live API run keeps going while presented; the presentation follows its record behind it', async ({
  page,
}) => {
  await openOnEndpoint(page, 'mock-s04');
  await present(page).click();
  await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
  await expect(caption(page)).toContainText('Parent call 1 sends', { timeout: 20_000 });
  // A real model's run never waits for the presenter: it finishes while the caption stays put.
  await expect
    .poll(() => recorded(page, 'parent', 'task_end'), { timeout: 20_000, intervals: [100] })
    .toBe(1);
  await expect(caption(page)).toContainText('Parent call 1 sends');
  const captions = await continueToEnd(page);
  expect(captions.some((c) => /^Subagent 1 call 1 sends [\d,]+ tokens/.test(c))).toBe(true);
  expect(captions.some((c) => /^The result arrives in Parent's array as one tool_result/.test(c))).toBe(true);
  // The run is over, and so is its presentation: the screen is at its last event.
  await expect(status(page)).toHaveText('Finished');
});

/** The presentation's subject: the message the caption is about, marked `aria-current`. */
const subject = (page: Page) => page.locator('[role="listitem"][aria-current="true"]');

/** Whether the top of `box` (its first lines at least) is inside a viewport of `size`. */
function inView(
  box: { x: number; y: number; width: number; height: number } | null,
  size: { width: number; height: number },
): boolean {
  if (!box) return false;
  const top = Math.min(box.height, 40);
  return box.y >= 0 && box.y + top <= size.height && box.x >= 0 && box.x + box.width <= size.width + 0.5;
}

test("at 1366x768 every caption's subject is in view; the result stop shows it in the parent's array; Back and ← return one moment; the end is the run's last event", async ({
  page,
}) => {
  test.slow(); // a run, then every moment of it
  const size = { width: 1366, height: 768 };
  await page.setViewportSize(size);
  await open(page);
  await runSample(page, PROMPTS.framework);
  const steps = Number(await stepSlider(page).getAttribute('max'));
  await present(page).click();
  const text = caption(page).getByRole('paragraph');
  const parent = page.getByRole('region', { name: 'Parent messages' });
  const seen: string[] = [];
  let count = 0;
  for (let k = 1; k <= 40; k++) {
    const said = (await text.textContent())!;
    if (/^That was the last moment/.test(said)) break;
    seen.push(said);
    count = Number(/moment \d+ of (\d+)$/.exec((await status(page).textContent())!)![1]);
    await expect(status(page)).toHaveText(`Finished · Presenting: paused at moment ${k} of ${count}`);
    await expect(page.getByRole('group', { name: 'Step through the run' })).toContainText(
      `Presenting: paused at moment ${k} of ${count}`,
    );
    // The subject is in the region of the agent the caption names, and in view with that region's head.
    await expect(subject(page)).toHaveCount(1);
    const agent = /^(Parent|Subagent \d+)/.exec(said.replace(/^The result arrives in /, ''))![1];
    await expect(page.getByRole('region', { name: `${agent} messages` }).locator(subject(page))).toHaveCount(
      1,
    );
    await expect.poll(async () => inView(await subject(page).boundingBox(), size)).toBe(true);
    await expect
      .poll(async () =>
        inView(await page.getByRole('region', { name: `${agent} messages` }).boundingBox(), size),
      )
      .toBe(true);
    await expect.poll(async () => inView(await caption(page).boundingBox(), size)).toBe(true);

    if (/^The result arrives in Parent's array/.test(said)) {
      // The parent's array has the tool_result: it is the subject, its last message.
      const items = parent.getByRole('listitem');
      await expect(items).toHaveCount(3);
      await expect(items.last().locator('[data-block="tool_result"]')).toHaveCount(1);
      await expect(items.last()).toHaveAttribute('aria-current', 'true');
      // Back one moment (the button), then another (←), then on again to the result.
      await caption(page).getByRole('button', { name: 'Back' }).click();
      await expect(text).toHaveText(seen[k - 2]);
      await expect(status(page)).toHaveText(`Finished · Presenting: paused at moment ${k - 1} of ${count}`);
      await page.keyboard.press('ArrowLeft');
      await expect(text).toHaveText(seen[k - 3]);
      await expect(items).toHaveCount(2);
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await expect(text).toHaveText(said);
      await expect(items).toHaveCount(3);
    }
    await caption(page).getByRole('button', { name: 'Continue' }).click();
    await expect(text).not.toHaveText(said);
  }
  expect(seen.length).toBe(count);
  expect(seen.some((c) => /^The result arrives in Parent's array/.test(c))).toBe(true);
  expect(seen.at(-1)).toMatch(/^Parent call 2 sends [\d,]+ tokens, not the [\d,]+ tokens Subagent 1 held/);
  // Past the last moment: the run as it ended, at its last event.
  await expect(text).toHaveText(/^That was the last moment/);
  await expect(status(page)).toHaveText('Finished');
  await expect(stepSlider(page)).toHaveValue(String(steps));
  await expect(caption(page).getByRole('button', { name: 'Back' })).toBeEnabled();
});
