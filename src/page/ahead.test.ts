/**
 * The page's one seam for work ahead of time, in Node with fake starters: what it starts, when,
 * that each thing started is handed over once, and that `ahead=off` starts nothing at all.
 */
import { describe, expect, it, vi } from 'vitest';
import type { AgentId } from '../core/messages';
import type { SampleName } from '../sandbox/samples';
import { readUrlSettings } from '../settings/url-settings';
import { Ahead, type EarlyGlobals } from './ahead';

interface FakeSandbox {
  sample: SampleName;
  started?: Worker;
  disposed: boolean;
  dispose(): void;
}

function seam(search: string, globals: EarlyGlobals = {}) {
  let scriptIn = () => {};
  const start = {
    sandbox: vi.fn((sample: SampleName, started?: Worker): FakeSandbox => ({
      sample,
      started,
      disposed: false,
      dispose() {
        this.disposed = true;
      },
    })),
    agent: vi.fn((id: AgentId) => ({ id })),
    fetchAgentScript: vi.fn(() => new Promise<void>((resolve) => (scriptIn = resolve))),
  };
  const ahead = new Ahead(readUrlSettings(search), start, globals);
  return { ahead, start, scriptIn: () => scriptIn() };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('Ahead: the page working ahead (the default)', () => {
  it("starts the sample's sandbox and the agents' script's fetch at once, and hands the sandbox over once", () => {
    const { ahead, start } = seam('?sample=typescript');
    ahead.start();
    expect(start.sandbox).toHaveBeenCalledWith('typescript', undefined);
    expect(start.fetchAgentScript).toHaveBeenCalledOnce();
    const sandbox = ahead.takeSandbox('typescript');
    expect(sandbox?.sample).toBe('typescript');
    expect(ahead.takeSandbox('typescript')).toBeUndefined();
  });

  it("takes over what the built page's first script started instead of starting it again", async () => {
    const worker = {} as Worker;
    const fetched = Promise.resolve();
    const { ahead, start } = seam('', { __s04EarlySandbox: worker, __s04EarlyAgentScript: fetched });
    ahead.start();
    expect(start.sandbox).toHaveBeenCalledWith('python', worker);
    expect(start.fetchAgentScript).not.toHaveBeenCalled();
    await expect(ahead.agentScriptIn()).resolves.toBeUndefined();
  });

  it('ends a sandbox started for another sample than the one asked for', () => {
    const { ahead, start } = seam('');
    ahead.start();
    expect(ahead.takeSandbox('typescript')).toBeUndefined();
    expect(start.sandbox.mock.results[0].value.disposed).toBe(true);
    expect(ahead.takeSandbox('python')).toBeUndefined();
  });

  it("starts the parent's worker and the first task's spare once the first screen is drawn and the script is in", async () => {
    const { ahead, start, scriptIn } = seam('');
    ahead.start();
    ahead.afterFirstScreen();
    await settle();
    expect(start.agent).not.toHaveBeenCalled(); // not beside the script's download
    scriptIn();
    await settle();
    expect(start.agent.mock.calls.map(([id]) => id)).toEqual(['parent', 'subagent-1']);
    expect(ahead.takeAgent('subagent-1')).toEqual({ id: 'subagent-1' });
    expect(ahead.takeAgent('subagent-1')).toBeUndefined();
  });

  it('starts no spare in context mode none (no task is called), and none once a run asked for workers', async () => {
    const none = seam('?context=none');
    none.ahead.start();
    none.ahead.afterFirstScreen();
    none.scriptIn();
    await settle();
    expect(none.start.agent.mock.calls.map(([id]) => id)).toEqual(['parent']);

    const late = seam('');
    late.ahead.start();
    late.ahead.afterFirstScreen();
    expect(late.ahead.takeAgent('parent')).toBeUndefined(); // a run clicked before the script was in
    late.scriptIn();
    await settle();
    expect(late.start.agent).not.toHaveBeenCalled();
  });

  it('starts nothing for WebContainer chosen or an embedded run', async () => {
    for (const search of ['?sandbox=webcontainer', '?embed=1']) {
      const { ahead, start } = seam(search);
      ahead.start();
      ahead.afterFirstScreen();
      await settle();
      expect(start.sandbox).not.toHaveBeenCalled();
      expect(start.fetchAgentScript).not.toHaveBeenCalled();
      expect(start.agent).not.toHaveBeenCalled();
    }
  });
});

describe('Ahead: ahead=off', () => {
  it('starts nothing, takes nothing over, and says the spare and the loads for later are off', async () => {
    const worker = {} as Worker;
    const { ahead, start } = seam('?ahead=off', {
      __s04EarlySandbox: worker,
      __s04EarlyAgentScript: new Promise(() => {}),
    });
    expect(ahead.on).toBe(false);
    ahead.start();
    ahead.afterFirstScreen();
    await settle();
    expect(start.sandbox).not.toHaveBeenCalled();
    expect(start.fetchAgentScript).not.toHaveBeenCalled();
    expect(start.agent).not.toHaveBeenCalled();
    expect(ahead.takeSandbox('python')).toBeUndefined();
    expect(ahead.takeAgent('parent')).toBeUndefined();
    await expect(ahead.agentScriptIn()).resolves.toBeUndefined(); // nothing waits for a fetch ahead
    expect(ahead.spare).toBe(false);
    expect(ahead.loads).toBe(false);
  });

  it('is the only value besides on: anything else is named in the ignored URL settings', () => {
    expect(readUrlSettings('?ahead=on')).toMatchObject({ ahead: true, ignored: [] });
    expect(readUrlSettings('')).toMatchObject({ ahead: true, ignored: [] });
    expect(readUrlSettings('?ahead=no')).toMatchObject({ ahead: true, ignored: ['ahead=no'] });
  });
});
