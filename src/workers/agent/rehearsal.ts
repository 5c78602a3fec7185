/**
 * A throwaway run of the agents' code while an agent worker waits for its first task: the parent's
 * loop, a `task`, a subagent's loop, the demo model and the tools, on a made-up project of three
 * files held here (no sandbox, no page, no message sent). On a fresh page a first run compiled all
 * of that as it went (the agents' workers spent 90-120 ms more of their threads on a first click
 * than on a second, most of it compiling); rehearsed, the learner's first run finds it compiled.
 *
 * It yields at every tool call (a task of the worker's event loop, as a real sandbox's answer is),
 * so that a real run's message is taken at once; the run then stops it (`signal`), and nothing of
 * it is kept: its arrays, its model and its tools were its own.
 */
import { parentLoop, runSubagent, type EventSink } from '../../core/loop';
import { baseToolHandlers, type ToolSandbox } from '../../core/tools';
import { DemoModel } from '../../models/demo';

const WORKDIR = '/home/user/project';
/** The sample prompt a first run most often is (the first of the screen's samples). */
const PROMPT = 'Use a subtask to find what testing framework this project uses';

const FILES: Record<string, string> = {
  'requirements.txt': 'pytest>=8\n',
  'app.py': '"""The app."""\n\n\ndef add(a, b):\n    return a + b\n',
  'tests/test_app.py':
    '"""Tests of the app."""\nimport pytest\n\nfrom app import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n',
};

/** One task of the event loop: what a real sandbox's answer costs at least. */
const yieldToEvents = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The made-up project, as the tools see a sandbox: a listing, a search, its files. */
function rehearsalSandbox(): ToolSandbox {
  const files = new Map(Object.entries(FILES).map(([path, text]) => [`${WORKDIR}/${path}`, text]));
  return {
    workdir: WORKDIR,
    async exec(command) {
      await yieldToEvents();
      const paths = [...files.keys()].map((path) => `.${path.slice(WORKDIR.length)}`).sort();
      const stdout = command.startsWith('find')
        ? `${paths.join('\n')}\n`
        : command.startsWith('grep')
          ? './tests/test_app.py:2:import pytest\n'
          : '';
      return { stdout, stderr: '', exitCode: 0, timedOut: false };
    },
    async readFile(path) {
      await yieldToEvents();
      const text = files.get(path);
      if (text === undefined) throw new Error(`[Errno 2] No such file or directory: '${path}'`);
      return text;
    },
    async writeFile(path, content) {
      await yieldToEvents();
      files.set(path, content);
    },
  };
}

/**
 * Runs prompt 1 once on the made-up project, the subagent in this same worker; its events go to
 * `onEvent` (nowhere in a worker). Resolves when it is over or stopped (`signal`); never rejects:
 * a rehearsal that fails costs nothing but its time.
 */
export async function rehearse(signal: AbortSignal, onEvent: EventSink = () => {}): Promise<void> {
  const model = new DemoModel({ speed: 'instant' });
  const deps = {
    model,
    modelName: 'demo',
    workdir: WORKDIR,
    baseHandlers: baseToolHandlers(rehearsalSandbox()),
    signal,
    onEvent,
    concurrentTasks: true,
  };
  try {
    await parentLoop(PROMPT, {
      ...deps,
      history: [],
      runTask: (task) => runSubagent(task.prompt, { ...deps, agent: 'subagent-1' }),
    });
  } catch {
    // Stopped by a real run, or a made-up project the model did not expect: nothing to report.
  }
}

/**
 * Whether a worker of this name rehearses: only the two started with the first screen (the parent
 * and the first task's spare), before the page's first run. A spare started during a run (the next
 * task's) would rehearse on the cores that run's subagents are using, 8 of them at once at most.
 */
export function rehearsesAs(name: string): boolean {
  return name === 'parent' || name === 'subagent-1';
}

/** How long a worker waits, after its script has run, for a task before it rehearses. */
export const REHEARSE_AFTER_MS = 50;

let stopRehearsal: (() => void) | undefined;

/**
 * Rehearses once, REHEARSE_AFTER_MS from now, unless a real run has begun by then (a subagent's
 * worker started for a task at once gets it within milliseconds).
 */
export function rehearseWhileIdle(): void {
  const controller = new AbortController();
  const timer = setTimeout(() => void rehearse(controller.signal), REHEARSE_AFTER_MS);
  stopRehearsal = () => {
    clearTimeout(timer);
    controller.abort();
  };
}

/** A real run begins: the rehearsal stops at once (or never starts). */
export function endRehearsal(): void {
  stopRehearsal?.();
  stopRehearsal = undefined;
}
