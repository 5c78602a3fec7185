import {
  AHEAD_OFF,
  expect,
  open,
  parentList,
  PROMPTS,
  runSample,
  status,
  subagentRegion,
  test,
} from './fixtures';

test.describe('sample prompts on the demo model', () => {
  test('prompt 1: a subagent finds pytest; only its summary reaches the parent', async ({ page, watch }) => {
    await open(page);
    await runSample(page, PROMPTS.framework);

    // The parent's array: prompt, task call, the summary as a tool_result, the answer.
    const parent = parentList(page);
    await expect(parent).toHaveCount(4);
    await expect(parent.nth(0)).toHaveAttribute('data-role', 'user');
    await expect(parent.nth(1).locator('[data-block="tool_use"]')).toContainText('task');
    await expect(parent.nth(2).locator('[data-block="tool_result"]')).toContainText('pytest');
    await expect(parent.nth(3)).toHaveAttribute('data-role', 'assistant');
    await expect(parent.nth(3)).toContainText('pytest');
    // The answer's Markdown is rendered (marked and DOMPurify load after the sandbox is ready).
    await expect(parent.nth(3).locator('[data-block="text"] strong')).toHaveText('pytest');

    // The subagent's array is larger, fresh (starts with the task prompt), and discarded.
    const sub = subagentRegion(page, 1);
    await expect(sub).toBeVisible();
    const subItems = sub.getByRole('listitem');
    expect(await subItems.count()).toBeGreaterThan(4);
    await expect(subItems.nth(0)).toHaveAttribute('data-role', 'user');
    await expect(sub).toContainText(/discarded/i);
    await expect(subagentRegion(page, 2)).toHaveCount(0);

    // What the subagent read stays out of the parent's array.
    await expect(
      sub.locator('[data-block="tool_result"]').filter({ hasText: 'pytest-cov' }).first(),
    ).toBeVisible();
    const parentText = await page.getByRole('region', { name: 'Parent messages' }).textContent();
    expect(parentText).not.toContain('"""');

    await expect(page.getByRole('region', { name: 'Log' })).toContainText('> task (');

    // One parent worker and one throwaway worker for the task, already gone.
    expect(await watch.names()).toEqual(['parent', 'sandbox', 'subagent-1']);
    expect(await watch.open('subagent-')).toEqual([]);
    expect(await watch.terminatedBeforeRunFinished('subagent-')).toEqual({ 'subagent-1': true });
    expect(await watch.open('parent')).toEqual(['parent']);
    expect(watch.closed).toBeGreaterThanOrEqual(1);
  });

  test('the next task’s worker waits as a spare no task has taken: no column, and none in the timeline once the run is over', async ({
    page,
    watch,
  }) => {
    test.skip(AHEAD_OFF, 'with ahead=off no worker is started ahead');
    await open(page);
    await runSample(page, PROMPTS.framework);
    await expect.poll(() => watch.spare()).toBe('subagent-2');
    await expect(subagentRegion(page, 2)).toHaveCount(0);
    await expect(
      page
        .getByRole('region', { name: 'Workers timeline' })
        .getByRole('listitem')
        .filter({ hasText: 'Subagent 2' }),
    ).toHaveCount(0);
  });

  test('prompt 1 follows the project in the sandbox: the TypeScript sample uses vitest', async ({
    page,
    watch,
  }) => {
    await open(page, 'speed=instant&sample=typescript');
    await runSample(page, PROMPTS.framework);
    const answer = parentList(page).nth(3);
    await expect(answer).toContainText(/vitest/i);
    await expect(answer).not.toContainText('pytest');
    expect(await watch.names()).toContain('subagent-1');
  });

  test('prompt 2: a subagent reads every .py file and the parent gets the summaries', async ({ page }) => {
    await open(page);
    await runSample(page, PROMPTS.summarisePy);
    const files = page.getByRole('region', { name: 'Files' });
    const pyFiles = (await files.innerText()).match(/\b[\w-]+\.py\b/g) ?? [];
    expect(pyFiles.length).toBeGreaterThan(3);
    const answer = page.getByRole('region', { name: 'Parent messages' });
    for (const name of new Set(pyFiles)) await expect(answer).toContainText(name);
    const reads = subagentRegion(page, 1).locator('[data-block="tool_use"]').filter({ hasText: 'read_file' });
    expect(await reads.count()).toBeGreaterThanOrEqual(new Set(pyFiles).size);
  });

  test('prompt 3: the subagent writes a module that appears in Files; the parent verifies it itself', async ({
    page,
    watch,
  }) => {
    await open(page);
    const files = page.getByRole('region', { name: 'Files' });
    await expect(files).toContainText('conftest.py'); // the tree is listed before it is compared
    const before = await files.innerText();
    await runSample(page, PROMPTS.module);
    const after = await files.innerText();
    const created = (after.match(/\b[\w-]+\.py\b/g) ?? []).filter((f) => !before.includes(f));
    expect(created.length).toBeGreaterThan(0);
    await expect(files).toContainText(/subagent-1/);
    // The parent's own tool calls after the task: it read the new module, no second task.
    const parentCalls = page
      .getByRole('region', { name: 'Parent messages' })
      .locator('[data-block="tool_use"]');
    await expect(parentCalls.filter({ hasText: 'read_file' }).first()).toBeVisible();
    await expect(parentCalls.filter({ hasText: created[0] }).first()).toBeVisible();
    expect((await watch.names()).filter((n) => n.startsWith('subagent-'))).toEqual(['subagent-1']);
    // The parent ran the new test with python3 (Pyodide, loaded on first use, its progress shown).
    await expect(parentCalls.filter({ hasText: 'python3' }).first()).toBeVisible();
    const parentResults = page
      .getByRole('region', { name: 'Parent messages' })
      .locator('[data-block="tool_result"]');
    await expect(parentResults.filter({ hasText: /\b\d+ passed\b/ }).first()).toBeVisible();
    await expect(page.locator('[data-runtime="python"]')).toContainText('python3 (Pyodide) loaded in');
  });

  test('a follow-up prompt continues the parent array and starts a new subagent', async ({ page }) => {
    await open(page);
    await runSample(page, PROMPTS.framework);
    await runSample(page, PROMPTS.summarisePy);
    await expect(parentList(page)).toHaveCount(8);
    await expect(subagentRegion(page, 2)).toBeVisible();
    await expect(subagentRegion(page, 1)).toBeVisible();
  });
});

test.describe('bad input and stopping', () => {
  test('an empty prompt is refused with a message', async ({ page, watch }) => {
    await open(page);
    await page.getByRole('textbox', { name: 'Prompt' }).fill('   ');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText(/prompt/i);
    await expect(status(page)).toHaveText(/^Idle/);
    // Nothing ran: no model call, nothing in the parent's array, no subagent. (The parent's
    // worker itself is started ahead of the first run, once the sandbox is ready.)
    await expect(parentList(page)).toHaveCount(0);
    expect(await page.evaluate(() => performance.getEntriesByName('model:call').length)).toBe(0);
    expect((await watch.names()).filter((name) => name.startsWith('subagent-'))).toEqual([]);
  });

  test('Stop ends a run and terminates every agent worker, keeping the arrays', async ({ page, watch }) => {
    await open(page, 'speed=normal');
    await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
    await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeDisabled();
    await expect(subagentRegion(page, 1)).toBeVisible();
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(status(page)).toHaveText(/^Stopped/);
    await expect.poll(() => watch.open('subagent-')).toEqual([]);
    await expect.poll(() => watch.open('parent')).toEqual([]);
    // What was on screen stays on screen.
    await expect(subagentRegion(page, 1)).toBeVisible();
    await expect(parentList(page).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  });

  test('after Stop the next run in the same page works on the same sandbox', async ({ page, watch }) => {
    await open(page, 'speed=normal');
    await page.getByRole('button', { name: PROMPTS.module, exact: true }).click();
    await expect(subagentRegion(page, 1)).toBeVisible();
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(status(page)).toHaveText(/^Stopped/);
    await page.getByRole('button', { name: PROMPTS.framework, exact: true }).click();
    await expect(status(page)).toHaveText(/^Finished/, { timeout: 20_000 });
    await expect(parentList(page).last()).toContainText('pytest');
    expect(await watch.names()).toContain('subagent-2');
  });
});

test('the page records the User Timing marks of the contract', async ({ page }) => {
  await open(page);
  await runSample(page, PROMPTS.framework);
  const names = await page.evaluate(() =>
    [
      'sandbox:ready',
      'subagent:spawn',
      'subagent:run',
      'tool:bash',
      'tool:read_file',
      'model:call',
      'run:finished',
    ].map((name) => [name, performance.getEntriesByName(name).length]),
  );
  for (const [name, count] of names) expect(count, String(name)).toBeGreaterThan(0);
});

test('the active model and sandbox are always visible', async ({ page }) => {
  await open(page);
  await expect(page.getByText(/scripted/i).first()).toBeVisible();
  await expect(page.getByText(/offline shell/i).first()).toBeVisible();
});
