/**
 * `Model call N` in an embed (`embed=1`): a teacher who frames a run in a slide shows what a call
 * received. The buttons open the same dialog `Model call` as in the playground (the system prompt,
 * the tools offered, list `Messages sent`, the request body), read from the shared run at its step;
 * the dialog's code is fetched only on the way to a first click, and Escape gives the focus back.
 */
import type { FrameLocator, Locator, Page } from '@playwright/test';
import { expect, open, PROMPTS, runSample, subagentRegion, test, slideHost } from './fixtures';

/** The slide holding the embed, on another origin of this machine. */
const slide = slideHost();

type Screen = Page | FrameLocator;

const dialog = (screen: Screen) => screen.getByRole('dialog', { name: 'Model call' });
const sentItems = (screen: Screen) =>
  dialog(screen).getByRole('list', { name: 'Messages sent' }).getByRole('listitem');
const tools = (screen: Screen) =>
  dialog(screen).getByRole('list', { name: 'Tools offered' }).getByRole('listitem');
const callButton = (region: Locator) => region.getByRole('button', { name: 'Model call 1', exact: true });

/** The request body the dialog shows, parsed. */
async function shownBody(screen: Screen): Promise<unknown> {
  await dialog(screen)
    .getByText(/^Request body/)
    .click();
  return JSON.parse(await dialog(screen).locator('pre.json').innerText());
}

/** The dialog's script: the only file of its own the dialog needs. */
const DIALOG_SCRIPT = /\/assets\/(embed\.)?ModelCallDialog-[\w-]+\.js$/;

test('in an embed, Model call 1 of the parent and of a subagent shows what it received; Escape gives the focus back', async ({
  page,
  browser,
}) => {
  test.slow(); // a run, then a second browser
  await open(page);
  await runSample(page, PROMPTS.framework);
  // What the playground's dialog shows of both calls: the embed must show the same.
  const inApp: Record<string, unknown> = {};
  const appRegions = {
    parent: page.getByRole('region', { name: 'Parent messages' }),
    subagent: subagentRegion(page, 1),
  };
  for (const [agent, region] of Object.entries(appRegions)) {
    await callButton(region).click();
    inApp[agent] = await shownBody(page);
    await page.keyboard.press('Escape');
    await expect(dialog(page)).toBeHidden();
  }
  const { host, watch, context: fresh } = await slide.embed(browser, page);
  const scripts: string[] = [];
  host.on('request', (request) => scripts.push(new URL(request.url()).pathname));
  await host.goto(`${slide.origin()}/`);
  const frame = host.frameLocator('iframe');
  await expect(
    frame.getByRole('main', { name: 'A run of the s04 subagent playground, read-only' }),
  ).toBeVisible();
  const switcher = frame.getByRole('radiogroup', { name: 'Array shown' });
  await expect(switcher).toBeVisible();
  // Nothing of the dialog before the learner comes near a call's buttons.
  expect(scripts.filter((path) => DIALOG_SCRIPT.test(path))).toEqual([]);

  // The parent's first call: the prompt, the five tools (task among them), the parent's system prompt.
  await switcher.getByText('Parent', { exact: true }).click();
  const parent = frame.getByRole('region', { name: 'Parent messages' });
  await callButton(parent).click();
  await expect(dialog(frame)).toBeVisible();
  expect(scripts.filter((path) => DIALOG_SCRIPT.test(path))).toHaveLength(1);
  await expect(dialog(frame)).toContainText('Parent, call 1');
  await expect(dialog(frame)).toContainText('You are a coding agent at');
  await expect(sentItems(frame)).toHaveCount(1);
  await expect(sentItems(frame).first()).toHaveAttribute('data-role', 'user');
  await expect(sentItems(frame).first()).toContainText(PROMPTS.framework);
  await expect(tools(frame)).toHaveCount(5);
  await expect(tools(frame).filter({ hasText: /^task/ })).toHaveCount(1);
  expect(await shownBody(frame)).toEqual(inApp.parent);
  await host.keyboard.press('Escape');
  await expect(dialog(frame)).toBeHidden();
  await expect(callButton(parent)).toBeFocused();

  // The subagent's first call: one message, its task prompt, and the base tools only (no task).
  await switcher.getByText('Subagent 1', { exact: true }).click();
  const subagent = subagentRegion(frame as unknown as Page, 1);
  await callButton(subagent).click();
  await expect(dialog(frame)).toBeVisible();
  await expect(dialog(frame)).toContainText("this subagent's first call sent one message");
  await expect(dialog(frame)).toContainText('You are a coding subagent at');
  await expect(sentItems(frame)).toHaveCount(1);
  await expect(tools(frame)).toHaveText([/^bash/, /^read_file/, /^write_file/, /^edit_file/]);
  expect(await shownBody(frame)).toEqual(inApp.subagent);
  await host.keyboard.press('Escape');
  await expect(dialog(frame)).toBeHidden();
  await expect(callButton(subagent)).toBeFocused();

  expect(watch.unexpectedErrors()).toEqual([]);
  expect(watch.externalRequests).toEqual([]);
  await fresh.close();
});
