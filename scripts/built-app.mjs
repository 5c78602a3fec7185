/**
 * What the scripts that drive the built app share: Debian's Chromium (Playwright cannot download
 * its own browser here; CHROMIUM_PATH overrides), and building the app and serving it with
 * `vite preview` for the length of a script.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright';

/** Chromium's path, or undefined when none is installed. */
export function chromiumPath() {
  return [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
    (path) => path && existsSync(path),
  );
}

/**
 * No name resolves but the loopback ones: nothing a page asks for leaves the machine (the tests and
 * benches talk to loopback only), and WebContainer's runtime, which sandbox=auto tries, fails as
 * offline, whether or not the machine has internet, with no route in the way (a routed page's
 * every request passes through Playwright).
 */
export const LOOPBACK_ONLY = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost';

/** The omnibox popup's WebUI features: the popup, its AI-mode page and its full page. */
const OMNIBOX_POPUP_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/**
 * Chromium's launch options for the tests and the bench: `args` added to Playwright's and to
 * LOOPBACK_ONLY, with the omnibox popup's WebUI turned off. Headless Chromium 156 starts that popup's renderer for every
 * new window (every fresh context), where it burns 1.5-2.2 s of CPU while the page loads, on a
 * machine with two cores; a learner's browser has it running already. The popup comes in three
 * features (the popup, its AI-mode page and its full page): with only the first off, the renderer
 * still starts for the other two. Chromium keeps only the last `--disable-features`, so
 * Playwright's own list (read from a first launch) is replaced by the same list plus those.
 * PLAYWRIGHT_OMNIBOX=1 leaves the browser as it is.
 */
export async function chromiumLaunchOptions(extraArgs = []) {
  const args = [LOOPBACK_ONLY, ...extraArgs];
  const options = { executablePath: chromiumPath(), args };
  if (process.env.PLAYWRIGHT_OMNIBOX === '1') return options;
  let probe;
  try {
    probe = await chromium.launch({ ...options, args: [...args, '--enable-automation'] });
    const session = await probe.newBrowserCDPSession();
    const { arguments: argv } = await session.send('Browser.getBrowserCommandLine');
    const disabled = argv.findLast((arg) => arg.startsWith('--disable-features='));
    if (!disabled) return options;
    return {
      ...options,
      ignoreDefaultArgs: [disabled],
      args: [...args, `${disabled},${OMNIBOX_POPUP_FEATURES.join(',')}`],
    };
  } catch {
    return options; // no browser yet, or another one: as it is
  } finally {
    await probe?.close();
  }
}

/** The browser every bench launches: headless Chromium, no GPU, nothing of its own on the network. */
export async function launchBenchBrowser() {
  return chromium.launch(
    await chromiumLaunchOptions([
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
    ]),
  );
}

/**
 * Clicks the sample prompt `prompt` as soon as it can be: once its button is there and enabled,
 * looked for at every frame. A locator's click alone retries at growing intervals while the button
 * is not there yet, so on the slow profile it would click well after the button was drawn.
 */
export async function clickPromptAtOnce(page, prompt) {
  await page.waitForFunction(
    (text) =>
      [...document.querySelectorAll('button')].some((b) => b.textContent?.trim() === text && !b.disabled),
    prompt,
    { polling: 'raf', timeout: 60_000 },
  );
  await page.getByRole('button', { name: prompt, exact: true }).click({ timeout: 60_000 });
}

/**
 * Builds the app (a test build: it has `window.__s04`, which the scripts read) and serves it on
 * 127.0.0.1:`port` until this process exits; resolves with the base URL once the server answers.
 */
export async function serveBuiltApp(port) {
  console.log('Building...');
  if (
    spawnSync('npx', ['vite', 'build', '--mode', 'test', '--logLevel', 'warn'], { stdio: 'inherit' })
      .status !== 0
  )
    process.exit(1);
  const server = spawn(
    'npx',
    ['vite', 'preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'],
    {
      stdio: 'ignore',
      detached: true,
      // The bench relays to a mock API on loopback, which the relay reaches only when allowed.
      env: { ...process.env, S04_RELAY_ALLOW_LOCAL: '1' },
    },
  );
  server.unref(); // this process ends when its work does; the server goes with it
  process.on('exit', () => {
    try {
      process.kill(-server.pid);
    } catch {
      // already gone
    }
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return url;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the preview server did not start on ${url}`);
}

/**
 * A fresh page of `browser`, in a context of its own with no service worker, on the app at instant
 * speed with the typescript sample on the offline sandbox, once the sandbox is ready: what the
 * benches that open something big start from. Close it with `page.context().close()`.
 */
export async function readyPage(browser, appURL) {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  await page.goto(`${appURL}/?speed=instant&sandbox=local&sample=typescript`);
  await page.waitForFunction(() => performance.getEntriesByName('sandbox:ready').length > 0);
  return page;
}
