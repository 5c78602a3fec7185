/**
 * The teaching variants end to end (docs/protocol.md, "Teaching variants"): what the model receives in
 * each context mode, through the SDK and the mock Messages API, and a subagent that delegates
 * to a worker of its own when the URL allows it.
 */
import type { Page } from '@playwright/test';
import { CHILD_TOOLS } from '../src/core/tools';
import {
  expect,
  exportRun,
  MOCK_API,
  open,
  openOnEndpoint,
  PROMPTS,
  runSample,
  subagentRegion,
  test,
  type Watch,
} from './fixtures';

const KEY = 'sk-ant-e2e-context-modes-0123456789';
const WORKDIR = '/home/user/project';
const SUBAGENT_SYSTEM = `You are a coding subagent at ${WORKDIR}. Complete the given task, then summarize your findings.`;

interface Sent {
  system: string;
  tools: Array<{ name: string }>;
  max_tokens: number;
  messages: Array<{ role: string; content: unknown }>;
}

async function sent(page: Page): Promise<Sent[]> {
  const all = (await (await page.request.get(`${MOCK_API}/_requests`)).json()) as Array<{
    method: string;
    path: string;
    body: Sent;
  }>;
  return all.filter((r) => r.method === 'POST' && r.path === '/v1/messages').map((r) => r.body);
}

/** The mock endpoint in a context mode, the key saved in Settings. */
const openMock = (page: Page, query: string) => openOnEndpoint(page, 'mock-s04', { key: KEY, query });

async function spawns(page: Page): Promise<Array<{ agent: string; from: string; messages: unknown[] }>> {
  const record = await exportRun(page);
  return (JSON.parse(record) as { events: Array<{ type: string }> }).events.filter(
    (e) => e.type === 'spawn',
  ) as never;
}

async function subagentWorkers(watch: Watch): Promise<string[]> {
  return (await watch.names()).filter((n) => n.startsWith('subagent-'));
}

test.describe('context modes on the mock API', () => {
  test('none: the parent is s02, with the child tools and no subagent', async ({ page, watch }) => {
    await openMock(page, 'context=none');
    await runSample(page, PROMPTS.framework);
    const requests = await sent(page);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    for (const request of requests) {
      expect(request.system).toBe(
        `You are a coding agent at ${WORKDIR}. Use tools to solve tasks. Act, don't explain.`,
      );
      expect(JSON.stringify(request.tools)).toBe(JSON.stringify(CHILD_TOOLS));
      expect(request.max_tokens).toBe(8000);
    }
    expect(requests[0].messages).toEqual([{ role: 'user', content: PROMPTS.framework }]);
    // What the tools returned stays in the parent's own array.
    const last = requests.at(-1)!;
    expect(last.messages.filter((m) => m.role === 'assistant').length).toBe(requests.length - 1);
    expect(await subagentWorkers(watch)).toEqual([]);
    await expect(subagentRegion(page, 1)).toHaveCount(0);
  });

  test('fork: the child starts from the parent’s history, the task prompt merged into its user message', async ({
    page,
  }) => {
    await openMock(page, 'context=fork');
    await runSample(page, PROMPTS.framework);
    const requests = await sent(page);
    const child = requests.filter((r) => r.system === SUBAGENT_SYSTEM);
    const parent = requests.filter((r) => r.system !== SUBAGENT_SYSTEM);
    expect(parent).toHaveLength(2);
    expect(child.length).toBeGreaterThanOrEqual(2);
    const task = (parent[1].messages[1].content as Array<{ type: string; input?: { prompt: string } }>).find(
      (b) => b.type === 'tool_use',
    )!;
    expect(child[0].messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: PROMPTS.framework },
          { type: 'text', text: task.input!.prompt },
        ],
      },
    ]);
    expect(JSON.stringify(child[0].tools)).toBe(JSON.stringify(CHILD_TOOLS));
    // The page shows (and records) the array the child started with.
    const [spawn] = await spawns(page);
    expect(spawn.messages).toEqual(child[0].messages);
    await expect(subagentRegion(page, 1).getByRole('listitem').first()).toContainText(PROMPTS.framework);
  });
});

test.describe('subagents that may delegate', () => {
  test('depth=2: subagent-1 hands part of prompt 2 to a grandchild in its own worker', async ({
    page,
    watch,
  }) => {
    await open(page, 'speed=instant&depth=2');
    await runSample(page, PROMPTS.summarisePy);
    await expect(subagentRegion(page, 2)).toBeVisible();
    expect((await spawns(page)).map(({ agent, from }) => ({ agent, from }))).toEqual([
      { agent: 'subagent-1', from: 'parent' },
      { agent: 'subagent-2', from: 'subagent-1' },
    ]);
    expect(await subagentWorkers(watch)).toEqual(['subagent-1', 'subagent-2']);
    expect(await watch.open('subagent-')).toEqual([]);
    const log = page.getByRole('region', { name: 'Log' });
    await expect(log).toContainText('> task (summarize 3 files): Read these 3 .py files');
    // Its files are summarized in the parent's answer along with subagent-1's.
    for (const file of ['src/stats.py', 'tests/test_utils.py']) {
      await expect(page.getByRole('region', { name: 'Parent messages' })).toContainText(file);
    }
  });

  test('an out-of-range limit in the URL is ignored, naming its range', async ({ page }) => {
    await open(page, 'speed=instant&depth=7&cap=5');
    await expect(page.getByText('Ignored URL settings: depth=7 (0 to 3)')).toBeVisible();
    await runSample(page, PROMPTS.summarisePy);
    expect((await spawns(page)).map((s) => s.agent)).toEqual(['subagent-1']);
  });
});
