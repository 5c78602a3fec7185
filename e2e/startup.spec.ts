import type { Page } from '@playwright/test';
import { callWorker, expect, open, PROMPTS, runSample, test } from './fixtures';

/**
 * Start-up of the offline sandbox, and its shell as the browser gets it: just-bash's code-split
 * build (vite-plugins/just-bash-split.ts), whose commands load the first time they run.
 *
 * These tests talk to a sandbox worker of their own (named `probe`), created from the same script
 * as the app's, over Comlink's wire format, so nothing of the app stands in between.
 */

/**
 * Starts a probe worker from the built sandbox script; with `search`, it is then posted the early
 * boot message that the page's first script posts (vite-plugins/early-sandbox.ts).
 */
async function startProbe(page: Page, search?: string): Promise<void> {
  await page.evaluate((search) => {
    const script = document.querySelector('head script')?.textContent ?? '';
    const url = /"(\/assets\/sandbox-[\w-]+\.js)"/.exec(script)?.[1];
    if (!url) throw new Error('the early sandbox script is not the first script of the page');
    const probe = new Worker(url, { type: 'module', name: 'probe' });
    (window as unknown as { probe: Worker }).probe = probe;
    if (search !== undefined) probe.postMessage({ type: 's04:early-boot', search });
  }, search);
}

/** Calls a method of the probe's sandbox API, as Comlink would. */
const call = <T>(page: Page, method: string, ...args: unknown[]) =>
  callWorker<T>(page, 'probe', method, ...args);

/** The probe's files, once it has mounted a sample (it answers "not booted" until then). */
async function mountedFiles(page: Page): Promise<string[]> {
  let files: Array<{ path: string }> = [];
  await expect
    .poll(
      async () => {
        files = await call<Array<{ path: string }>>(page, 'list').catch(() => []);
        return files.length;
      },
      { timeout: 15_000 },
    )
    .toBeGreaterThan(0);
  return files.map((f) => f.path);
}

interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

let execs = 0;
const exec = (page: Page, command: string) =>
  call<ExecResult>(page, 'exec', { id: ++execs, command, timeoutMs: 10_000, agent: 'user' });

test('the shell in the browser: commands load on first use, and the Node-only ones are absent', async ({
  page,
}) => {
  await open(page);
  await startProbe(page, '');
  await mountedFiles(page);

  const cases: Array<[string, string]> = [
    ['ls src', 'main.py\nstats.py\nutils.py\n'],
    ['find . -name "*.py" -path "./src/*" | sort', './src/main.py\n./src/stats.py\n./src/utils.py\n'],
    ['grep -c pytest requirements.txt', '2\n'],
    ["printf 'b\\na\\nb\\n' | sort | uniq -c", '   1 a\n   2 b\n'],
    ["echo 'one two' | awk '{print $2}'", 'two\n'],
    ["echo hello | sed 's/l/L/g'", 'heLLo\n'],
    ['echo \'{"a":[1,2]}\' | jq -c .a', '[1,2]\n'],
    ['seq 3 | xargs -I{} echo n{} | tr "\\n" " "', 'n1 n2 n3 '],
    ['echo hi | base64', 'aGkK\n'],
    ['echo hi | sha256sum', '98ea6e4f216f2fb4b69fff9b3a44842c38686ca685f3f55dc48c5d3fb1107be4  -\n'],
  ];
  for (const [command, stdout] of cases) {
    expect(await exec(page, command), command).toMatchObject({ stdout, exitCode: 0 });
  }

  // Left out, as in just-bash's own browser build (they need Node), and said so.
  for (const name of ['sqlite3', 'tar', 'yq', 'xan']) {
    const result = await exec(page, `${name} --help`);
    expect(result.exitCode, name).toBe(127);
    expect(result.stderr, name).toContain(`${name}: command not available in browser environments`);
  }
});

test('the sandbox’s script throws nothing at its top level as it starts, which DevTools would pay a reparse of the script for', async ({
  page,
  context,
}) => {
  // Each worker waits at its first line until it is told to run: the sandbox's first, with its
  // debugger pausing on every exception, caught or not, and noting each one thrown by a module's
  // top-level code (where V8, with DevTools attached, reparses the whole script to place it).
  const cdp = await context.newCDPSession(page);
  const thrown: string[] = [];
  const failed: unknown[] = [];
  let done = false;
  let id = 0;
  // A worker may still attach as the test ends (the next spare); the page is then gone, and so
  // is any need to talk to it.
  const send = (sessionId: string, method: string, params = {}) =>
    cdp
      .send('Target.sendMessageToTarget', {
        sessionId,
        message: JSON.stringify({ id: ++id, method, params }),
      })
      .catch((error: unknown) => {
        if (!done) failed.push(error);
      });
  const sandboxes: string[] = [];
  cdp.on('Target.attachedToTarget', ({ sessionId, targetInfo }) => {
    void (async () => {
      if (targetInfo.type === 'worker' && /\/assets\/sandbox-[\w-]+\.js/.test(targetInfo.url)) {
        sandboxes.push(targetInfo.url);
        await send(sessionId, 'Debugger.enable');
        await send(sessionId, 'Debugger.setPauseOnExceptions', { state: 'all' });
      }
      await send(sessionId, 'Runtime.runIfWaitingForDebugger');
    })();
  });
  cdp.on('Target.receivedMessageFromTarget', ({ sessionId, message }) => {
    const { method, params } = JSON.parse(message) as {
      method?: string;
      params?: {
        data?: { description?: string };
        callFrames: Array<{ scopeChain: Array<{ type: string }> }>;
      };
    };
    if (method !== 'Debugger.paused' || !params) return;
    // A module's own code, not a function's: its scopes are blocks, then the module's.
    const scopes = params.callFrames[0]?.scopeChain.map((scope) => scope.type) ?? [];
    if (scopes.includes('module') && !scopes.includes('local'))
      thrown.push(params.data?.description ?? 'an exception');
    void send(sessionId, 'Debugger.resume');
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
  await open(page);
  done = true;
  expect(failed).toEqual([]);
  expect(sandboxes).toHaveLength(1);
  expect(thrown).toEqual([]);
});

test('the sandbox module is evaluated once in its worker, also after its lazily loaded commands ran', async ({
  page,
}) => {
  await open(page);
  // The warm-up and the run load command chunks, which import the worker's module by its URL.
  await runSample(page, PROMPTS.framework);
  const sandboxes = page.workers().filter((worker) => /\/assets\/sandbox-[\w-]+\.js/.test(worker.url()));
  expect(sandboxes).toHaveLength(1);
  const evaluations = () =>
    sandboxes[0].evaluate(() => performance.getEntriesByName('sandbox:module-evaluated').length);
  // Not vacuous: command chunks were loaded into that worker.
  const chunks = await sandboxes[0].evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name).pathname)
      .filter((path) => /^\/assets\/(cat|grep|find)-\w+-[\w-]+\.js$/.test(path)),
  );
  expect(chunks.length).toBeGreaterThan(0);
  expect(await evaluations()).toBe(1);
});

test('every script the page and its workers load is ASCII, so each is kept one byte per character', async ({
  page,
}) => {
  await open(page);
  await runSample(page, PROMPTS.framework);
  const scripts = new Set<string>();
  const loaded = () =>
    performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((url) => new URL(url).pathname.endsWith('.js'));
  for (const url of await page.evaluate(loaded)) scripts.add(url);
  for (const worker of page.workers()) {
    scripts.add(worker.url());
    for (const url of await worker.evaluate(loaded)) scripts.add(url);
  }
  const names = [...scripts].map((url) =>
    new URL(url).pathname
      .split('/')
      .pop()!
      .replace(/-[\w-]+\.js$/, ''),
  );
  // Not vacuous: the app's script, the sandbox's and the agents' (one for the parent and subagents) are among them.
  expect(names).toEqual(expect.arrayContaining(['index', 'sandbox', 'agent']));
  const wide: string[] = [];
  for (const url of scripts) {
    const body = await (await page.request.get(url)).body();
    if (body.some((byte) => byte > 0x7f)) wide.push(new URL(url).pathname);
  }
  expect(wide).toEqual([]);
});
