/**
 * The screen in Chinese and Japanese: chosen from the browser, the `Language` menu or `lang=` in
 * the URL; a switch re-renders in place (no reload) and is kept on the device. The sample-prompt
 * buttons are named by the prompts in the screen's language (sample-prompts-language.spec.ts).
 */
import type { Page } from '@playwright/test';
import { expect, PROMPTS, status, subagentRegion, test } from './fixtures';

/** Sample prompt 1 as the Chinese and Japanese screens show it. */
const ZH_FRAMEWORK = '用子任务找出这个项目用的测试框架';
const JA_FRAMEWORK = 'サブタスクでこのプロジェクトのテストフレームワークを調べて';

/** Opens the playground and waits until the sandbox is ready (the status is in any language). */
async function openIn(page: Page, query: string, idle: string): Promise<void> {
  await page.goto(`/?${query}`);
  await expect(status(page)).toHaveText(new RegExp(`^${idle}`));
  await page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0);
}

/** The entries of the region of that name (the parent's array, in the screen's language). */
const entries = (page: Page, region: string) =>
  page.getByRole('region', { name: region }).getByRole('listitem');

/** Clicks a sample prompt (named by its text) and waits for the run to finish. */
async function runSample(page: Page, prompt: string, finished: string): Promise<void> {
  await page.getByRole('button', { name: prompt, exact: true }).click();
  await expect(status(page)).toHaveText(new RegExp(`^${finished}`), { timeout: 20_000 });
}

test('lang=zh shows the screen in Chinese, with the sample prompts in Chinese', async ({ page }) => {
  await openIn(page, 'lang=zh&speed=instant', '空闲');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('button', { name: '运行', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: '提示词' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: '语言' })).toHaveValue('zh');
  await expect(page.getByRole('region', { name: '父代理消息' })).toBeVisible();

  // The sample prompt is the text the model gets, in the screen's language.
  await expect(page.getByRole('button', { name: ZH_FRAMEWORK, exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: PROMPTS.framework, exact: true })).toHaveCount(0);

  // An empty prompt is refused in Chinese.
  await page.getByRole('button', { name: '运行', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('请先输入提示词，或选择一个示例提示词。');

  // The dialogs too.
  await page.getByRole('button', { name: '设置' }).click();
  const settings = page.getByRole('dialog', { name: '设置' });
  await expect(settings.getByRole('radiogroup', { name: '模型提供方' })).toBeVisible();
  await expect(settings.getByRole('textbox', { name: 'API 密钥' })).toBeVisible();
  await settings.getByRole('button', { name: '取消' }).click();
  await page.getByRole('button', { name: '历史记录' }).click();
  await expect(page.getByRole('dialog', { name: '历史记录' })).toBeVisible();
});

test('the Language menu switches the screen in place, and the choice is kept after a reload', async ({
  page,
}) => {
  await openIn(page, 'speed=instant', 'Idle');
  await runSample(page, PROMPTS.framework, 'Finished');
  await page.evaluate(() => ((window as unknown as { kept: number }).kept = 42));

  const language = page.getByRole('combobox', { name: 'Language' });
  await expect(language.getByRole('option')).toHaveText(['English', '中文', '日本語']);
  await language.selectOption('ja');

  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(status(page)).toHaveText('完了');
  await expect(page.getByRole('button', { name: '実行', exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'サブエージェント 1 のメッセージ' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: '言語' })).toHaveValue('ja');
  // The menu names each language in its own words, whatever the screen's language.
  await expect(page.getByRole('combobox', { name: '言語' }).getByRole('option')).toHaveText([
    'English',
    '中文',
    '日本語',
  ]);
  // No reload: what the page held is still there, the run too.
  expect(await page.evaluate(() => (window as unknown as { kept?: number }).kept)).toBe(42);
  await expect(entries(page, '親のメッセージ')).toHaveCount(4);
  // The sample prompts follow the screen's language.
  await expect(page.getByRole('button', { name: JA_FRAMEWORK, exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: PROMPTS.framework, exact: true })).toHaveCount(0);
  // What the model and the tools wrote is in its own language, not the screen's (lang=""): a
  // screen reader does not read English tool output as Japanese, and a switch leaves it alone.
  const parent = page.getByRole('region', { name: '親のメッセージ' });
  await expect(parent.locator('[data-block="text"]').first()).toHaveAttribute('lang', '');
  await expect(parent.locator('[data-block="tool_result"] pre').first()).toHaveAttribute('lang', '');
  const tag = parent.getByText('ツール結果', { exact: true }).first();
  expect(await tag.evaluate((e) => e.closest('[lang]')?.getAttribute('lang'))).toBe('ja');

  // The switch is measured from the choice to the next painted frame.
  await page.waitForFunction(() => performance.getEntriesByName('language:switch').length > 0);
  const switchMs = await page.evaluate(() => performance.getEntriesByName('language:switch')[0].duration);
  console.log(`language switch (en -> ja, after a run): ${switchMs.toFixed(1)} ms`);
  test.info().annotations.push({ type: 'language:switch', description: `${switchMs.toFixed(1)} ms` });

  // Back and forth: the size bar's titles (cached per message) follow the language too.
  const segment = page.locator('.segment').first();
  await expect(segment).toHaveAttribute('title', /^#0 user · \d+ 文字$/);
  await page.getByRole('combobox', { name: '言語' }).selectOption('en');
  await expect(segment).toHaveAttribute('title', /^#0 user · \d+ chars$/);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('ja');

  await page.reload();
  await expect(status(page)).toHaveText(/^待機中/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(page.getByRole('button', { name: '実行', exact: true })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('s04.language'))).toBe('ja');
});

test('a choice made on a page opened with lang= survives its reload', async ({ page }) => {
  await openIn(page, 'lang=zh&speed=instant', '空闲');
  await page.getByRole('combobox', { name: '语言' }).selectOption('en');
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('lang')).toBe('en');
  await page.reload();
  await expect(status(page)).toHaveText(/^Idle/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test('an unknown lang= is named in a notice, and the screen stays in the browser language', async ({
  page,
}) => {
  await openIn(page, 'lang=xx&speed=instant', 'Idle');
  await expect(page.getByRole('alert')).toHaveText('Ignored URL settings: lang=xx');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeVisible();
});

test.describe('a browser set to Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('gets Chinese without asking; an unknown lang= falls back to it with a notice', async ({ page }) => {
    await openIn(page, 'lang=xx&speed=instant', '空闲');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page.getByRole('alert')).toHaveText('已忽略的 URL 设置：lang=xx');
    await expect(page.getByRole('button', { name: '运行', exact: true })).toBeVisible();
  });

  test('runs sample prompt 1 to the end, with its status, arrays and refusals in Chinese', async ({
    page,
  }) => {
    await openIn(page, 'speed=instant', '空闲');
    await runSample(page, ZH_FRAMEWORK, '已完成');
    await expect(status(page)).toHaveText('已完成');
    await expect(entries(page, '父代理消息')).toHaveCount(4);
    await expect(page.getByRole('region', { name: '子代理 1 消息' })).toContainText('已丢弃');

    // A file that is not a run is refused in Chinese; the parser's own detail stays as it came.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: '导入运行记录' }).click();
    await (await chooser).setFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') });
    await expect(page.getByRole('alert')).toHaveText(/^无法打开 notes\.txt：它不是 JSON（.+）。$/);
  });
});

test.describe('a browser set to Japanese', () => {
  test.use({ locale: 'ja-JP' });

  test('runs sample prompt 1 to the end, with its status in Japanese', async ({ page }) => {
    await openIn(page, 'speed=instant', '待機中');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await runSample(page, JA_FRAMEWORK, '完了');
    await expect(entries(page, '親のメッセージ')).toHaveCount(4);
    await expect(subagentRegion(page, 1)).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'サブエージェント 1 のメッセージ' })).toContainText(
      '破棄済み',
    );
  });
});
