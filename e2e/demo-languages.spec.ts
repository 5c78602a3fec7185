/**
 * The demo model answers in the language of the prompt: a Chinese prompt typed into the (English)
 * screen gets the same subagent run as the English sample prompt, told in Chinese, from the task
 * prompt the parent writes to the answer it gives.
 */
import { expect, open, parentList, status, subagentRegion, test } from './fixtures';

test('a Chinese prompt gets a subagent run and a Chinese answer naming the framework', async ({
  page,
  watch,
}) => {
  await open(page, 'speed=instant&lang=en');
  await page.getByRole('textbox', { name: 'Prompt' }).fill('用子任务找出这个项目用的测试框架');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(status(page)).toHaveText(/^Finished/, { timeout: 20_000 });

  // The parent: prompt, task call, the subagent's report, the answer.
  const parent = parentList(page);
  await expect(parent).toHaveCount(4);
  await expect(parent.nth(1).locator('[data-block="tool_use"]')).toContainText('找出这个项目使用的测试框架');
  await expect(parent.nth(2).locator('[data-block="tool_result"]')).toContainText('测试框架：**pytest**');
  const answer = parent.nth(3);
  await expect(answer).toHaveAttribute('data-role', 'assistant');
  await expect(answer).toContainText('这个项目用 pytest 做测试。');
  await expect(answer.locator('[data-block="text"] strong').first()).toHaveText('pytest');

  // The subagent started from the Chinese task prompt alone and reported in Chinese.
  const sub = subagentRegion(page, 1).getByRole('listitem');
  await expect(sub.nth(0)).toHaveAttribute('data-role', 'user');
  await expect(sub.nth(0)).toContainText('找出这个项目使用的测试框架。');
  await expect(sub.last()).toContainText('检查过的文件');
  expect(await watch.names()).toContain('subagent-1');
});
