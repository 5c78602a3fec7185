import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// What the screen loads for later once the page is quiet (the other languages' strings), counted.
const loadLanguage = vi.fn();

// The agents' script fetched ahead (src/page/ahead.ts), in when a test says so.
let scriptIn = () => {};
/** The page's seam, working ahead (`ahead=on`) unless a test says otherwise; off, no script is fetched ahead. */
const ahead = (loads = true) => ({
  loads,
  agentScriptIn: () => (loads ? new Promise<void>((resolve) => (scriptIn = resolve)) : Promise.resolve()),
});

// The Markdown renderer's first parse, counted.
const warmUpMarkdown = vi.fn();

// The canvases' fonts used ahead, counted.
const warmCanvasText = vi.fn();

/** The screen's loads for later, each counted. */
const screen = {
  soon: warmCanvasText,
  beforeRun: warmUpMarkdown,
  quiet: loadLanguage,
  notLoaded: () => 'not loaded',
};

const { AFTER_RUN_MS, AHEAD_AFTER_MS, CANVAS_TEXT_AFTER_MS, Warmup } = await import('./warmup.svelte');
type WarmupArgs = ConstructorParameters<typeof Warmup>;

/** A warm-up over a sandbox that boots at once, with a run under way while `running.now`. */
function warmup(running: { now: boolean }, conversation = { warm: () => {} }, seam = ahead()) {
  const sandbox = { boot: () => Promise.resolve(), offline: true, pythonUsed: false, pythonSettled: false };
  return new Warmup(
    { sample: 'typescript' } as WarmupArgs[0],
    sandbox as unknown as WarmupArgs[1],
    () => conversation as unknown as ReturnType<WarmupArgs[2]>,
    () => running.now,
    seam,
    screen,
  );
}

describe('Warmup: what is fetched ahead for later (the other languages)', () => {
  beforeEach(() => {
    vi.stubGlobal('navigator', {}); // a connection the Network Information API says nothing of
    vi.useFakeTimers();
    loadLanguage.mockClear();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('waits AHEAD_AFTER_MS after the sandbox is ready, then for a run under way to end', async () => {
    const running = { now: false };
    await warmup(running).start();
    // A first run clicked at once: the network is its own.
    running.now = true;
    await vi.advanceTimersByTimeAsync(AHEAD_AFTER_MS + 10_000);
    expect(loadLanguage).not.toHaveBeenCalled();
    running.now = false;
    // Then AFTER_RUN_MS more, and an idle moment.
    await vi.advanceTimersByTimeAsync(AFTER_RUN_MS + 3000);
    expect(loadLanguage).toHaveBeenCalledOnce();
  });

  it('fetches nothing in the AFTER_RUN_MS after a run has ended, then fetches', async () => {
    const running = { now: true };
    const ready = warmup(running);
    await ready.start();
    await vi.advanceTimersByTimeAsync(AHEAD_AFTER_MS + 2000);
    running.now = false;
    ready.runEnded();
    await vi.advanceTimersByTimeAsync(AFTER_RUN_MS - 500);
    expect(loadLanguage).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(5000);
    expect(loadLanguage).toHaveBeenCalled();
  });

  it('fetches nothing in the first AHEAD_AFTER_MS of a quiet page', async () => {
    await warmup({ now: false }).start();
    await vi.advanceTimersByTimeAsync(AHEAD_AFTER_MS - 100);
    expect(loadLanguage).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(3000);
    expect(loadLanguage).toHaveBeenCalled();
  });
});

describe("Warmup: the canvases' fonts", () => {
  beforeEach(() => {
    vi.stubGlobal('navigator', {});
    vi.useFakeTimers();
    warmCanvasText.mockClear();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('are used once, CANVAS_TEXT_AFTER_MS after the sandbox is ready at the latest', async () => {
    const ready = warmup({ now: false });
    expect(warmCanvasText).not.toHaveBeenCalled();
    await ready.start();
    await vi.advanceTimersByTimeAsync(CANVAS_TEXT_AFTER_MS);
    expect(warmCanvasText).toHaveBeenCalledTimes(1);
    await ready.start(); // a second boot (a reset) uses them no more
    await vi.advanceTimersByTimeAsync(AHEAD_AFTER_MS);
    expect(warmCanvasText).toHaveBeenCalledTimes(1);
  });
});

describe("Warmup: the agents' workers started ahead", () => {
  it("start once the agents' script fetched ahead is in, not beside its download", async () => {
    const conversation = { warm: vi.fn() };
    await warmup({ now: false }, conversation).start();
    await Promise.resolve();
    expect(conversation.warm).not.toHaveBeenCalled();
    scriptIn();
    await vi.waitFor(() => expect(conversation.warm).toHaveBeenCalledOnce());
  });

  it('leave the workers to a run clicked before the script was in', async () => {
    const running = { now: false };
    const conversation = { warm: vi.fn() };
    await warmup(running, conversation).start();
    running.now = true;
    scriptIn();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(conversation.warm).not.toHaveBeenCalled();
  });
});

describe("Warmup: python3's load ahead", () => {
  beforeEach(() => {
    vi.stubGlobal('navigator', {});
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  /** A warm-up on the python sample, over a sandbox that counts python3's loads and stops. */
  function onPython(running: { now: boolean }, seam = ahead()) {
    let loading = false;
    const sandbox = {
      boot: () => Promise.resolve(),
      offline: true,
      pythonUsed: false,
      pythonSettled: false,
      preloadPython: vi.fn(() => void (loading = true)),
      cancelPreload: vi.fn(() => {
        const was = loading;
        loading = false;
        return was;
      }),
    };
    const ready = new Warmup(
      { sample: 'python' } as WarmupArgs[0],
      sandbox as unknown as WarmupArgs[1],
      () => ({ warm: () => {} }) as unknown as ReturnType<WarmupArgs[2]>,
      () => running.now,
      seam,
      screen,
    );
    return { ready, sandbox };
  }

  it('starts in idle time once the sandbox is ready', async () => {
    const { ready, sandbox } = onPython({ now: false });
    await ready.start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(sandbox.preloadPython).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(5000);
    expect(sandbox.preloadPython).toHaveBeenCalledOnce();
  });

  it('waits while a record is looked through, and starts once the screen is back at the live end', async () => {
    const { ready, sandbox } = onPython({ now: false });
    await ready.start();
    ready.viewing(true); // a record opened before python3's moment
    await vi.advanceTimersByTimeAsync(20_000);
    expect(sandbox.preloadPython).not.toHaveBeenCalled();
    ready.viewing(false);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sandbox.preloadPython).toHaveBeenCalledOnce();
  });

  it('under way, is stopped by a record looked through and started again after it', async () => {
    const { ready, sandbox } = onPython({ now: false });
    await ready.start();
    await vi.advanceTimersByTimeAsync(6000);
    expect(sandbox.preloadPython).toHaveBeenCalledOnce();
    ready.viewing(true);
    expect(sandbox.cancelPreload).toHaveBeenCalledOnce();
    ready.viewing(true); // the same state again changes nothing
    expect(sandbox.cancelPreload).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(sandbox.preloadPython).toHaveBeenCalledOnce();
    ready.viewing(false);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sandbox.preloadPython).toHaveBeenCalledTimes(2);
  });

  it('is not waited for by the offline copy while it is held back', async () => {
    const { ready } = onPython({ now: false });
    await ready.start();
    expect(ready.pythonAhead).toBe(true);
    ready.viewing(true);
    expect(ready.pythonAhead).toBe(false);
    ready.viewing(false);
    expect(ready.pythonAhead).toBe(true);
  });

  it('back at the live end with a run under way, waits for the run to end', async () => {
    const running = { now: false };
    const { ready, sandbox } = onPython(running);
    await ready.start();
    ready.viewing(true);
    running.now = true;
    ready.viewing(false);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(sandbox.preloadPython).not.toHaveBeenCalled();
    running.now = false;
    ready.runEnded();
    // Not at once: a learner who clicks again soon gets the machine to that run.
    await vi.advanceTimersByTimeAsync(AFTER_RUN_MS - 100);
    expect(sandbox.preloadPython).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(5000);
    expect(sandbox.preloadPython).toHaveBeenCalledOnce();
  });
});

describe('Warmup with the page working ahead switched off (ahead=off)', () => {
  beforeEach(() => {
    vi.stubGlobal('navigator', {});
    vi.useFakeTimers();
    loadLanguage.mockClear();
    warmCanvasText.mockClear();
    warmUpMarkdown.mockClear();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('boots the sandbox, and does nothing else ahead: no worker, no python3, no strings, no fonts', async () => {
    const conversation = { warm: vi.fn() };
    const ready = warmup({ now: false }, conversation, ahead(false));
    await ready.start();
    expect(ready.boot).toEqual({ kind: 'idle' });
    const later = vi.fn();
    ready.whenQuiet(later);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(conversation.warm).not.toHaveBeenCalled();
    expect(loadLanguage).not.toHaveBeenCalled();
    expect(warmCanvasText).not.toHaveBeenCalled();
    expect(warmUpMarkdown).not.toHaveBeenCalled();
    expect(later).not.toHaveBeenCalled();
  });

  it('leaves python3 to its first use, and the offline copy waits for no load of it', async () => {
    const sandbox = {
      boot: () => Promise.resolve(),
      offline: true,
      pythonUsed: false,
      pythonSettled: false,
      preloadPython: vi.fn(),
    };
    const ready = new Warmup(
      { sample: 'python' } as WarmupArgs[0],
      sandbox as unknown as WarmupArgs[1],
      () => ({ warm: () => {} }) as unknown as ReturnType<WarmupArgs[2]>,
      () => false,
      ahead(false),
      screen,
    );
    await ready.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sandbox.preloadPython).not.toHaveBeenCalled();
    expect(ready.pythonAhead).toBe(false);
  });
});
