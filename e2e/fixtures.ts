import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect, type Browser, type BrowserContext, type Page } from '@playwright/test';

export const PROMPTS = {
  framework: 'Use a subtask to find what testing framework this project uses',
  summarisePy: 'Delegate: read all .py files and summarize what each one does',
  summariseTs: 'Delegate: read all .ts files and summarize what each one does',
  module: 'Use a task to create a new module, then verify it from here',
};

/**
 * Records, inside the page, every dedicated worker the app creates (by the `name` it gives) and
 * every worker it terminates. Asking a worker its name over CDP races with a fast run, where a
 * subagent worker can be gone before it answers.
 */
function recordWorkers() {
  const log: Array<{ name: string; createdAt: number; terminated: boolean; terminatedAt?: number }> = [];
  (window as unknown as { __workerLog: typeof log }).__workerLog = log;
  const Original = window.Worker;
  window.Worker = class extends Original {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      const entry: (typeof log)[number] = {
        name: options?.name ?? '',
        createdAt: performance.now(),
        terminated: false,
      };
      log.push(entry);
      const terminate = this.terminate.bind(this);
      this.terminate = () => {
        entry.terminated = true;
        entry.terminatedAt ??= performance.now();
        terminate();
      };
    }
  };
}

/** WebContainer's runtime: the client loads it in an iframe from StackBlitz. */
export const WEBCONTAINER_RUNTIME =
  /^https:\/\/([\w-]+\.)*(stackblitz\.com|webcontainer\.io|webcontainer-api\.io)\//;

/** What the page did behind the screen: its workers, console errors and requests. */
export class Watch {
  readonly consoleErrors: string[] = [];
  readonly externalRequests: string[] = [];
  /**
   * Requests for WebContainer's runtime (sandbox=auto tries it). They fail as offline: the browser
   * resolves no name but the loopback ones (LOOPBACK_ONLY, scripts/built-app.mjs), so every test sees the same
   * thing whether or not the machine has internet.
   */
  readonly webContainerRequests: string[] = [];
  /** Console errors a test expects (the browser reports failed HTTP responses as errors). */
  readonly #allowed: RegExp[] = [];
  /** Workers Playwright saw close (any name). */
  closed = 0;

  constructor(private readonly page: Page) {
    page.on('worker', (worker) => worker.on('close', () => this.closed++));
    page.on('console', (message) => {
      if (message.type() === 'error') this.consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => this.consoleErrors.push(String(error)));
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (WEBCONTAINER_RUNTIME.test(request.url())) return void this.webContainerRequests.push(request.url());
      if (!['127.0.0.1', 'localhost'].includes(url.hostname) && !['data:', 'blob:'].includes(url.protocol)) {
        this.externalRequests.push(request.url());
      }
    });
  }

  /** Accepts console errors matching this pattern for the rest of the test. */
  allow(pattern: RegExp): void {
    this.#allowed.push(pattern);
  }

  /** Console errors no test asked for. */
  unexpectedErrors(): string[] {
    return this.consoleErrors.filter((e) => !this.#allowed.some((p) => p.test(e)));
  }

  async install(): Promise<void> {
    await this.page.addInitScript(recordWorkers);
  }

  /** Every worker created so far, as the page created and ended them. */
  async #all(): Promise<Array<{ name: string; terminated: boolean; terminatedAt?: number }>> {
    return this.page.evaluate(
      () =>
        (
          window as unknown as {
            __workerLog?: Array<{ name: string; terminated: boolean; terminatedAt?: number }>;
          }
        ).__workerLog ?? [],
    );
  }

  /**
   * Every worker created so far but the spare: the next subagent's worker, started ahead before
   * any task has taken it. It has run nothing, so it is no part of what a run used; `spare()` names it.
   */
  async #log(): Promise<Array<{ name: string; terminated: boolean; terminatedAt?: number }>> {
    const spare = await this.spare();
    return (await this.#all()).filter((w) => !(w.name === spare && !w.terminated));
  }

  /**
   * The spare subagent worker alive now and waiting for a task, if any: a subagent's worker that is
   * running and has no messages region on screen (a task's subagent has one from its spawn).
   */
  async spare(): Promise<string | null> {
    const alive = (await this.#all()).filter((w) => w.name.startsWith('subagent-') && !w.terminated);
    for (const { name } of alive) {
      const n = Number(name.slice('subagent-'.length));
      if ((await subagentRegion(this.page, n).count()) === 0) return name;
    }
    return null;
  }

  /** Names of every worker created so far (but the spare), sorted. */
  async names(): Promise<string[]> {
    return (await this.#log()).map((w) => w.name).sort();
  }

  /**
   * For each worker with this prefix (but the spare): was it terminated before the last
   * `run:finished` mark?
   */
  async terminatedBeforeRunFinished(prefix: string): Promise<Record<string, boolean>> {
    const finished = await this.page.evaluate(() => {
      const marks = performance.getEntriesByName('run:finished');
      return marks[marks.length - 1]?.startTime ?? -1;
    });
    return Object.fromEntries(
      (await this.#log())
        .filter((w) => w.name.startsWith(prefix))
        .map((w) => [w.name, w.terminatedAt !== undefined && w.terminatedAt <= finished]),
    );
  }

  /** Names of the workers with this prefix that are still running. */
  async open(prefix: string): Promise<string[]> {
    return (await this.#log()).filter((w) => w.name.startsWith(prefix) && !w.terminated).map((w) => w.name);
  }
}

/**
 * Every test runs watched (`auto`), whether or not it asks for `watch`: it fails on a console
 * error it did not allow by name (`watch.allow(/pattern/)`) and on any request that left the
 * machine. Specs import `test` from here, never from '@playwright/test' (test/e2e-fixtures.test.ts
 * checks it).
 */
export const test = base.extend<{ watch: Watch }>({
  watch: [
    async ({ page }, use) => {
      const watch = new Watch(page);
      await watch.install();
      await use(watch);
      expect(watch.unexpectedErrors(), 'console errors').toEqual([]);
      expect(watch.externalRequests, 'requests that left the machine').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

export const status = (page: Page) => page.getByRole('status');
export const parentList = (page: Page) =>
  page.getByRole('region', { name: 'Parent messages' }).getByRole('listitem');
export const subagentRegion = (page: Page, n: number) =>
  page.getByRole('region', { name: `Subagent ${n} messages` });

/**
 * `S04_E2E_AHEAD=off`: the specs run with the page doing nothing ahead of time (`ahead=off` in the
 * URL `open` goes to: src/page/ahead.ts); the app must behave the same, only slower.
 */
export const AHEAD_OFF = process.env.S04_E2E_AHEAD === 'off';

/** Opens the playground and waits for the sandbox. */
export async function open(page: Page, query = 'speed=instant'): Promise<void> {
  await page.goto(`/?${query}${AHEAD_OFF ? '&ahead=off' : ''}`);
  // Checked in the page each frame: expect's polling backs off to 500 ms, and it made every test
  // wait about 0.3 s more than the page did.
  await page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0);
  await expect(status(page)).toHaveText(/^Idle/);
}

/**
 * Waits for the page to draw `count` more frames: a list that measures its items late, or a scroll
 * that follows a measurement, has done so by then. (Not a sleep: frames, however long they take.)
 */
export async function frames(page: Page, count = 10): Promise<void> {
  await page.evaluate(
    (count) =>
      new Promise<void>((resolve) => {
        let left = count;
        const tick = () => (--left <= 0 ? resolve() : requestAnimationFrame(tick));
        requestAnimationFrame(tick);
      }),
    count,
  );
}

/** The mock Messages API that playwright.config.ts starts (scripts/mock-api.mjs). */
export const MOCK_API = `http://127.0.0.1:${process.env.MOCK_API_PORT ?? 41801}`;

/** Enters an API key in Settings (never in the URL) and saves. */
export async function saveKey(page: Page, key: string, { remember = false } = {}): Promise<void> {
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('textbox', { name: 'API key' }).fill(key);
  if (remember) await dialog.getByRole('checkbox', { name: /Remember the key/ }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

/**
 * Opens the playground on an Anthropic endpoint (the mock by default, where the model names the
 * scenario), with the key saved in Settings; the mock's list of requests starts empty.
 */
export async function openOnEndpoint(
  page: Page,
  model: string,
  { key = 'sk-ant-e2e-any-key', baseURL = MOCK_API, query = '' } = {},
): Promise<void> {
  await page.request.delete(`${MOCK_API}/_requests`);
  const extra = query ? `&${query}` : '';
  await page.goto(`/?provider=anthropic&baseURL=${encodeURIComponent(baseURL)}&model=${model}${extra}`);
  await expect(status(page)).toHaveText(/^Idle/);
  await saveKey(page, key);
}

/** Picks a file for `Import run` (the button opens the chooser). */
export async function importFile(page: Page, name: string, content: string | Buffer): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import run' }).click();
  // Playwright passes large files by path only.
  const path = join(mkdtempSync(join(tmpdir(), 's04-import-')), name);
  writeFileSync(path, content);
  await (await chooser).setFiles(path);
}

/** Opens the header's runtime details (WebContainer, python3, offline use) from the sandbox badge. */
export async function runtimeDetails(page: Page): Promise<void> {
  const button = page.getByRole('banner').getByRole('button', { name: /^Sandbox / });
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
}

/** Holds back the requests matching `url` (of a page, or of a context: its workers too) until the returned function is called. */
export async function holdRequests(owner: Page | BrowserContext, url: string | RegExp): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await owner.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** The page's own script. */
export const PAGE_SCRIPT = /\/assets\/index-[\w-]+\.js$/;

/** The step-through's slider. */
export const stepSlider = (page: Page) => page.getByRole('slider', { name: 'Step' });

/**
 * The text of every message of every array on screen, region by region. Text content, not inner
 * text: messages out of view skip rendering (content-visibility), and their inner text is empty.
 */
export async function arrays(page: Page): Promise<Record<string, string[]>> {
  const regions = page.getByRole('region', { name: /^(Parent|Subagent \d+) messages$/ });
  const out: Record<string, string[]> = {};
  for (const region of await regions.all()) {
    const name = (await region.getAttribute('aria-label'))!;
    out[name] = await region.getByRole('listitem').allTextContents();
  }
  return out;
}

/** The shown run as the learner's `Export run` downloads it (the file's text). */
export async function exportRun(page: Page): Promise<string> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export run' }).click();
  return readFileSync((await (await download).path())!, 'utf8');
}

/**
 * The records of the newest comparison, as History keeps them: each mode's run opened from its
 * group (`Open`) and exported, by its context mode. The screen then shows the last one opened.
 */
export async function comparedRecords(page: Page): Promise<Record<string, RecordFile>> {
  const records: Record<string, RecordFile> = {};
  const history = page.getByRole('dialog', { name: 'History' });
  const modes = async () => {
    await page.getByRole('button', { name: 'History' }).click();
    const entry = history.getByRole('listitem').first();
    await expect(entry.getByRole('group')).not.toHaveCount(0);
    return entry.getByRole('group');
  };
  const count = await (await modes()).count();
  for (let i = 0; i < count; i++) {
    if (i > 0) await modes();
    await history
      .getByRole('listitem')
      .first()
      .getByRole('group')
      .nth(i)
      .getByRole('button', { name: 'Open' })
      .click();
    await expect(history).toBeHidden();
    const record = JSON.parse(await exportRun(page)) as RecordFile;
    records[record.settings.context] = record;
  }
  return records;
}

/** What the specs read of an exported record. */
export interface RecordFile {
  id: string;
  startedAt: number;
  settings: { context: string; speed?: string };
  events: Array<{
    type: string;
    agent?: string;
    id?: string;
    input?: unknown;
    output?: string;
    status?: { kind: string };
  }>;
}

/** Clicks a sample prompt and waits for the run to finish. */
export async function runSample(page: Page, prompt: string): Promise<void> {
  const ended = await runEnd(page);
  await page.getByRole('button', { name: prompt, exact: true }).click();
  await ended();
  await expect(status(page)).toHaveText(/^Finished/, { timeout: 20_000 });
}

/**
 * Call before starting a run; the function it returns waits until that run has ended, however it
 * ended (the page marks `run:finished` at every end), looked for in the page at every frame.
 * expect's polling backs off to 500 ms, and a run of a second was seen ended up to half a second
 * late. It gives up quietly after `timeout`: the assertion that follows says what went wrong.
 */
export async function runEnd(page: Page, timeout = 20_000): Promise<() => Promise<void>> {
  const before = await page.evaluate(() => performance.getEntriesByName('run:finished').length);
  return () =>
    page
      .waitForFunction((n) => performance.getEntriesByName('run:finished').length > n, before, {
        polling: 'raf',
        timeout,
      })
      .then(
        () => undefined,
        () => undefined,
      );
}

/**
 * Calls a method of a worker's Comlink API the way Comlink does (the worker kept on `window` under
 * `global`): the tests drive the sandbox worker directly to set up files and run commands.
 */
export async function callWorker<T>(
  page: Page,
  global: string,
  method: string,
  ...args: unknown[]
): Promise<T> {
  return page.evaluate(
    ({ global, method, args }) =>
      new Promise<T>((resolve, reject) => {
        const worker = (window as unknown as Record<string, Worker>)[global];
        const id = crypto.randomUUID();
        const onMessage = (event: MessageEvent) => {
          if (event.data?.id !== id) return;
          worker.removeEventListener('message', onMessage);
          if (event.data.type === 'HANDLER') reject(new Error(event.data.value?.value?.message ?? 'thrown'));
          else resolve(event.data.value as T);
        };
        worker.addEventListener('message', onMessage);
        const argumentList = args.map((value) => ({ type: 'RAW', value }));
        worker.postMessage({ id, type: 'APPLY', path: [method], argumentList });
      }),
    { global, method, args },
  );
}

/**
 * Another origin on this machine: a slide (`/`) holding an embed in a 640x360 iframe, served for
 * the spec's tests. `embed` copies the link of the step a page shows (Copy link) as the embed's
 * address (`link` is the copied one) and gives a fresh context's page, watched, ready to open the
 * slide at `origin()`.
 */
export function slideHost(): {
  origin: () => string;
  embed: (
    browser: Browser,
    page: Page,
  ) => Promise<{ host: Page; watch: Watch; context: BrowserContext; link: string }>;
} {
  let server: Server;
  let origin = '';
  let embedded = '';
  test.beforeAll(async () => {
    server = createServer((_request, response) => {
      const src = embedded.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><title>A slide</title><h1>A slide</h1>` +
          `<iframe src="${src}" width="640" height="360" style="border: 0" title="The s04 run"></iframe>`,
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    origin: () => origin,
    async embed(browser, page) {
      await page.getByRole('button', { name: 'Copy link' }).click();
      const link = await page.getByRole('textbox', { name: 'Link to this step' }).inputValue();
      embedded = link.replace('/?', '/?embed=1&');
      const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
      const host = await context.newPage();
      const watch = new Watch(host);
      await watch.install();
      return { host, watch, context, link };
    },
  };
}
