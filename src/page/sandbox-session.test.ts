/**
 * WebContainer and a run looked at read-only: while one is on screen (a link, a record, an opened
 * session), WebContainer is neither tried (sandbox=auto) nor booted (sandbox=webcontainer), since
 * its runtime is StackBlitz's frame on the network; once it is closed, it goes on as before. The
 * sandbox hosts are fakes: what is checked is when WebContainer's host is made.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readUrlSettings } from '../settings/url-settings';

const made = vi.hoisted(() => ({ webContainers: 0 }));

function fakeHost(kind: 'local' | 'webcontainer') {
  return {
    kind,
    ready: Promise.resolve({ workdir: '/sample' }),
    connect: vi.fn(),
    watch: () => Promise.resolve(),
    list: () => Promise.resolve([]),
    readFile: () => Promise.resolve(''),
    readBytes: vi.fn(),
    reset: () => Promise.resolve(),
    dispose: () => {},
  };
}

vi.mock('./local-sandbox', () => ({
  LocalSandboxHost: class {
    constructor() {
      return fakeHost('local');
    }
  },
}));
vi.mock('./webcontainer-host', () => ({
  cannotBootReason: () => null,
  WebContainerSandboxHost: class {
    constructor() {
      made.webContainers++;
      return fakeHost('webcontainer');
    }
  },
}));

const { SandboxSession } = await import('./sandbox-session.svelte');

describe('WebContainer beside a run looked at read-only', () => {
  beforeEach(() => {
    made.webContainers = 0;
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  const session = (sandbox: string, viewing: { on: boolean }) =>
    new SandboxSession(readUrlSettings(`?sandbox=${sandbox}`), {
      onChanges: () => {},
      onAdopted: () => {},
      viewing: () => viewing.on,
    });

  it('sandbox=auto: not tried while the run is on screen, tried once it is closed', async () => {
    const viewing = { on: true };
    const sandbox = session('auto', viewing);
    await sandbox.boot();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(made.webContainers).toBe(0);
    expect(sandbox.webContainer.kind).toBe('off');
    viewing.on = false;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(made.webContainers).toBe(1);
  });

  it('sandbox=auto without a run on screen: tried as before', async () => {
    const sandbox = session('auto', { on: false });
    await sandbox.boot();
    expect(sandbox.webContainer.kind).toBe('starting');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(made.webContainers).toBe(1);
  });

  it('sandbox=webcontainer: booted only once the run looked at is closed', async () => {
    const viewing = { on: true };
    const booted = session('webcontainer', viewing).boot();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(made.webContainers).toBe(0);
    viewing.on = false;
    await vi.advanceTimersByTimeAsync(1_000);
    await booted;
    expect(made.webContainers).toBe(1);
  });
});
