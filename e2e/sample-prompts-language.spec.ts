/**
 * The sample prompts in the screen's language (UI-CONTRACT.md): in Chinese the three buttons are
 * the Chinese prompts, named by exactly that text, and the demo model answers them in Chinese.
 */
import { expect, PROMPTS, status, test } from './fixtures';

const ZH = [
  '用子任务找出这个项目用的测试框架',
  '委派：读取所有 .py 文件，总结每个文件的作用',
  '用一个任务创建新模块，然后在这里验证它',
];

test('under lang=zh the sample prompts are Chinese, and prompt 1 runs and is answered in Chinese', async ({
  page,
}) => {
  await page.goto('/?lang=zh&speed=instant');
  await expect(status(page)).toHaveText(/^空闲/);
  await page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0);

  const samples = page.getByRole('group', { name: '示例提示词' }).getByRole('button');
  await expect(samples).toHaveCount(3);
  for (const [i, prompt] of ZH.entries()) await expect(samples.nth(i)).toHaveAccessibleName(prompt);
  await expect(page.getByRole('button', { name: PROMPTS.framework, exact: true })).toHaveCount(0);

  await page.getByRole('button', { name: ZH[0], exact: true }).click();
  await expect(status(page)).toHaveText(/^已完成/, { timeout: 20_000 });
  const parent = page.getByRole('region', { name: '父代理消息' });
  // The prompt the model got is the Chinese one, and its final answer is in Chinese.
  await expect(parent.getByText(ZH[0], { exact: true })).toBeVisible();
  await expect(parent.locator('[data-block="text"]').last()).toContainText('测试框架');
});
