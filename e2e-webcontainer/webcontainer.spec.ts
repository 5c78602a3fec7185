/**
 * The real WebContainer, where the network allows (`npm run test:webcontainer`). Its runtime
 * loads from stackblitz.com, so the suite first asks whether that host answers; offline it skips,
 * saying so. Online it boots WebContainer in the built app (`sandbox=webcontainer`: nothing else
 * is started) and runs the three sample prompts of both samples on it, end to end, through the
 * real client: the files are WebContainer's, and node and python3 are its own.
 */
import { expect, test, type Page } from '@playwright/test';
import { PROMPTS } from '../e2e/fixtures';

const PROBE = 'https://stackblitz.com/';

/** Why WebContainer cannot boot from here, or null when StackBlitz answers. */
async function unreachable(): Promise<string | null> {
  try {
    const response = await fetch(PROBE, { method: 'HEAD', signal: AbortSignal.timeout(5000) });
    return response.status < 500 ? null : `${PROBE} answered ${response.status}`;
  } catch (error) {
    return `${PROBE} is not reachable from this machine (${(error as Error).cause ?? (error as Error).message}); a real WebContainer loads its runtime from there`;
  }
}

let offline: string | null = null;

test.beforeAll(async () => {
  offline = await unreachable();
  if (offline) console.log(`Skipped: ${offline}`);
});

test.beforeEach(() => {
  test.skip(offline !== null, offline ?? '');
});

const status = (page: Page) => page.getByRole('status');

async function bootWebContainer(page: Page, sample: 'python' | 'typescript'): Promise<void> {
  await page.goto(`/?sandbox=webcontainer&speed=instant&sample=${sample}&wcTimeout=60000`);
  await expect(page.getByRole('banner')).toContainText('WebContainer in /home/project', { timeout: 60_000 });
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
}

async function run(page: Page, prompt: string): Promise<void> {
  await page.getByRole('button', { name: prompt, exact: true }).click();
  await expect(status(page)).toHaveText(/^Finished/, { timeout: 90_000 });
}

for (const sample of ['python', 'typescript'] as const) {
  test.describe(`${sample} sample on a real WebContainer`, () => {
    test.setTimeout(180_000);

    test('prompt 1: the subagent finds the test framework', async ({ page }) => {
      await bootWebContainer(page, sample);
      await run(page, PROMPTS.framework);
      const answer = page.getByRole('region', { name: 'Parent messages' }).getByRole('listitem').last();
      await expect(answer).toContainText(sample === 'python' ? 'pytest' : 'vitest');
    });

    test('prompt 2: a subagent reads every source file and the parent gets the summaries', async ({
      page,
    }) => {
      await bootWebContainer(page, sample);
      await run(page, sample === 'python' ? PROMPTS.summarisePy : PROMPTS.summariseTs);
      await expect(page.getByRole('region', { name: 'Subagent 1 messages' })).toContainText(/discarded/i);
    });

    test('prompt 3: the subagent writes a module and the parent verifies it with the real runtime', async ({
      page,
    }) => {
      await bootWebContainer(page, sample);
      await run(page, PROMPTS.module);
      const log = page.getByRole('region', { name: 'Log' });
      await expect(log).toContainText(sample === 'python' ? 'python3' : 'node');
      await expect(log).toContainText(/passed|exit code: 0/);
    });
  });
}
