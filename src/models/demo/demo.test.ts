import { describe, expect, it, vi } from 'vitest';
import { parentLoop, runSubagent, type LoopEvent, type TaskRequest } from '../../core/loop';
import type { AssistantBlock, Message, ToolUseBlock } from '../../core/messages';
import type {
  ModelCallOptions,
  ModelClient,
  ModelRequest,
  ModelResponse,
  StreamEvent,
} from '../../core/model';
import {
  baseToolHandlers,
  CHILD_TOOLS,
  PARENT_TOOLS,
  subagentSystem,
  TASK_TOOL,
  type ToolHandler,
} from '../../core/tools';
import { create } from '../../sandbox/local';
import { loadSample } from '../../sandbox/samples';
import type { Sandbox } from '../../sandbox/sandbox';
import { callMark, DemoGate } from './gate';
import {
  DEMO_CHUNK_DELAY_MS,
  DEMO_SLOW_CALL_PAUSE_MS,
  DEMO_SLOW_CHUNK_DELAY_MS,
  DemoModel,
  demoRespond,
} from './index';
import { extensionOf, intentOf } from './language';

const PROMPT_FRAMEWORK = 'Use a subtask to find what testing framework this project uses';
const PROMPT_SUMMARIZE_PY = 'Delegate: read all .py files and summarize what each one does';
const PROMPT_SUMMARIZE_TS = 'Delegate: read all .ts files and summarize what each one does';
const PROMPT_CREATE = 'Use a task to create a new module, then verify it from here';

/** A model client that records what it was asked and answered (one per loop, like the workers). */
class Recorder implements ModelClient {
  readonly label: string;
  readonly requests: ModelRequest[] = [];
  readonly responses: ModelResponse[] = [];
  constructor(readonly inner: ModelClient) {
    this.label = inner.label;
  }
  async createMessage(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse> {
    this.requests.push(structuredClone(request));
    const response = await this.inner.createMessage(request, options);
    this.responses.push(structuredClone(response));
    return response;
  }
}

interface Run {
  answer: string;
  history: Message[];
  parent: Recorder;
  children: Recorder[];
  tasks: TaskRequest[];
  events: LoopEvent[];
}

async function sandboxOf(sample: 'python' | 'typescript'): Promise<Sandbox> {
  return create(await loadSample(sample));
}

/**
 * One prompt through the real loops: the parent loop, subagents in-process with their own demo
 * model instance each (as in their own workers), the reference tools over the local sandbox.
 */
async function run(
  sandbox: Sandbox,
  prompt: string,
  options: { history?: Message[]; handlers?: Record<string, ToolHandler> } = {},
): Promise<Run> {
  const handlers = options.handlers ?? baseToolHandlers(sandbox);
  const events: LoopEvent[] = [];
  const tasks: TaskRequest[] = [];
  const children: Recorder[] = [];
  const parent = new Recorder(new DemoModel({ speed: 'instant' }));
  const history = options.history ?? [];
  const result = await parentLoop(prompt, {
    model: parent,
    modelName: 'demo',
    workdir: sandbox.workdir,
    baseHandlers: handlers,
    history,
    onEvent: (e) => events.push(e),
    runTask: (task, signal) => {
      tasks.push(task);
      const child = new Recorder(new DemoModel({ speed: 'instant' }));
      children.push(child);
      return runSubagent(task.prompt, {
        agent: `subagent-${children.length}`,
        model: child,
        modelName: 'demo',
        workdir: sandbox.workdir,
        baseHandlers: handlers,
        signal,
        onEvent: (e) => events.push(e),
      });
    },
  });
  const answer = result.last.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  return { answer, history, parent, children, tasks, events };
}

function toolUses(responses: ModelResponse[]): ToolUseBlock[] {
  return responses.flatMap((r) => r.content.filter((b): b is ToolUseBlock => b.type === 'tool_use'));
}

function textOf(content: AssistantBlock[]): string {
  return content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
}

/** Project files (relative paths) as the sandbox holds them now. */
async function projectFiles(sandbox: Sandbox): Promise<string[]> {
  const root = sandbox.workdir.replace(/\/$/, '');
  return (await sandbox.list())
    .filter((e) => e.type === 'file' && !e.path.includes('/node_modules/'))
    .map((e) => e.path.slice(root.length + 1))
    .sort();
}

async function read(sandbox: Sandbox, path: string): Promise<string> {
  return sandbox.readFile(`${sandbox.workdir.replace(/\/$/, '')}/${path}`);
}

async function write(sandbox: Sandbox, path: string, content: string): Promise<void> {
  await sandbox.writeFile(`${sandbox.workdir.replace(/\/$/, '')}/${path}`, content, 'user');
}

/** Every `path` in backticks that looks like a project file. */
function mentionedFiles(text: string): string[] {
  return [
    ...new Set([...text.matchAll(/`([\w./-]+\.(?:py|ts|js|json|toml|txt|cfg|ini|md))`/g)].map((m) => m[1])),
  ];
}

/** Checks the loop protocol on every request a loop made: tool_use answered by tool_result, in order. */
function expectWellFormed(requests: ModelRequest[], responses: ModelResponse[]): void {
  expect(responses.length).toBe(requests.length);
  for (const [i, response] of responses.entries()) {
    const uses = response.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    expect(response.stop_reason).toBe(uses.length ? 'tool_use' : 'end_turn');
    expect(response.usage!.input_tokens).toBeGreaterThan(0);
    expect(response.usage!.output_tokens).toBeGreaterThan(0);
    for (const use of uses) expect(use.id).toMatch(/^toolu_demo_\w+$/);
    const next = requests[i + 1];
    if (!uses.length) {
      expect(i).toBe(responses.length - 1);
      continue;
    }
    // The next request carries this response unchanged and then exactly its results, in order.
    const tail = next.messages.slice(-2);
    expect(tail[0]).toEqual({ role: 'assistant', content: response.content });
    const results = tail[1].content as Array<{ type: string; tool_use_id: string }>;
    expect(results.map((r) => r.tool_use_id)).toEqual(uses.map((u) => u.id));
  }
  const ids = toolUses(responses).map((u) => u.id);
  expect(new Set(ids).size).toBe(ids.length);
}

/** The first line of a Python module docstring, read independently of the model's parser. */
function docstringFirstLine(text: string): string | undefined {
  const m = /^\s*(?:#[^\n]*\n\s*)*("""|''')\s*([^\n]*)/.exec(text);
  return m?.[2].replace(/("""|''')\s*$/, '').trim() || undefined;
}

function docCommentFirstLine(text: string): string | undefined {
  const m = /^\s*\/\*\*?\s*\n?\s*\*?\s*([^\n]*)/.exec(text);
  return m?.[1].replace(/\*\/\s*$/, '').trim() || undefined;
}

describe('DemoModel with the python sample', () => {
  it('finds pytest through a subagent, with evidence quoted from real files', async () => {
    const sandbox = await sandboxOf('python');
    const files = await projectFiles(sandbox);
    const r = await run(sandbox, PROMPT_FRAMEWORK);

    expect(r.tasks).toHaveLength(1);
    expect(r.answer).toMatch(/\*\*pytest\*\*/);
    // Evidence names files that exist, including one that really mentions pytest.
    const named = mentionedFiles(r.answer);
    expect(named.length).toBeGreaterThan(0);
    for (const path of named) expect(files).toContain(path);
    const withPytest: string[] = [];
    for (const path of files) if (/pytest/.test(await read(sandbox, path))) withPytest.push(path);
    expect(named.some((p) => withPytest.includes(p))).toBe(true);

    // Every `line N: `text`` quoted in an evidence bullet is that line of the bullet's file.
    const report = textOf(r.children[0].responses.at(-1)!.content);
    let quotes = 0;
    for (const bullet of report.split('\n').filter((l) => l.startsWith('- `'))) {
      const path = /^- `([^`]+)`/.exec(bullet)![1];
      for (const [, line, text] of bullet.matchAll(/line (\d+): `([^`]+)`/g)) {
        expect((await read(sandbox, path)).split('\n')[Number(line) - 1].trim(), bullet).toBe(text);
        quotes++;
      }
    }
    expect(quotes).toBeGreaterThanOrEqual(2);

    // The subagent listed, then read; the parent only delegated.
    const childCalls = toolUses(r.children[0].responses);
    expect(childCalls[0]).toMatchObject({ name: 'bash' });
    expect(childCalls.filter((c) => c.name === 'read_file').length).toBeGreaterThanOrEqual(2);
    expect(toolUses(r.parent.responses).map((u) => u.name)).toEqual(['task']);
    expect(r.children[0].requests.length).toBeLessThanOrEqual(8);
    expect(r.answer).toMatch(/context/);

    expectWellFormed(r.parent.requests, r.parent.responses);
    expectWellFormed(r.children[0].requests, r.children[0].responses);
  });

  it('says unittest, not pytest, once the project is switched to unittest', async () => {
    const sandbox = await sandboxOf('python');
    const files = await projectFiles(sandbox);
    // Switch every pytest trace to unittest: dependencies, config, conftest, tests.
    for (const path of files) {
      const text = await read(sandbox, path);
      if (/^requirements.*\.txt$/.test(path)) {
        await write(
          sandbox,
          path,
          text
            .split('\n')
            .filter((l) => !/pytest/i.test(l))
            .join('\n'),
        );
      } else if (path.endsWith('.toml') || path.endsWith('.cfg') || path.endsWith('.ini')) {
        const kept: string[] = [];
        let skipping = false;
        for (const line of text.split('\n')) {
          if (/^\s*\[/.test(line)) skipping = /pytest|coverage/.test(line);
          if (!skipping && !/pytest/.test(line)) kept.push(line);
        }
        await write(sandbox, path, kept.join('\n'));
      } else if (path.endsWith('.md')) {
        await write(sandbox, path, text.replace(/pytest/g, 'python -m unittest'));
      } else if (path.endsWith('conftest.py')) {
        await sandbox.exec(`rm ${path}`, { timeoutMs: 5000 });
      } else if (/(^|\/)test_[^/]*\.py$/.test(path)) {
        await write(
          sandbox,
          path,
          '"""Tests, written with the standard library."""\n\nimport unittest\n\n\nclass TestBasics(unittest.TestCase):\n' +
            '    def test_truth(self):\n        self.assertTrue(True)\n\n\nif __name__ == "__main__":\n    unittest.main()\n',
        );
      }
    }
    const now = await projectFiles(sandbox);
    for (const path of now) expect(await read(sandbox, path)).not.toMatch(/pytest/);

    const r = await run(sandbox, PROMPT_FRAMEWORK);
    expect(r.answer).toMatch(/\*\*unittest\*\*/);
    expect(r.answer).not.toMatch(/pytest/i);
    const named = mentionedFiles(r.answer);
    for (const path of named) expect(now).toContain(path);
    expect(named.some((p) => /test_[^/]*\.py$/.test(p))).toBe(true);
  });

  it('summarizes every .py file from its docstring and definitions', async () => {
    const sandbox = await sandboxOf('python');
    const py = (await projectFiles(sandbox)).filter((f) => f.endsWith('.py'));
    expect(py.length).toBeGreaterThan(1);
    const r = await run(sandbox, PROMPT_SUMMARIZE_PY);

    expect(r.tasks).toHaveLength(1);
    const readPaths = toolUses(r.children[0].responses)
      .filter((u) => u.name === 'read_file')
      .map((u) => (u.input as { path: string }).path);
    expect([...readPaths].sort()).toEqual(py);

    const report = textOf(r.children[0].responses.at(-1)!.content);
    for (const path of py) {
      const text = await read(sandbox, path);
      const line = report.split('\n').find((l) => l.startsWith(`- \`${path}\``));
      expect(line, path).toBeDefined();
      const doc = docstringFirstLine(text);
      // The summary is the file's own docstring, and its definitions by name.
      if (doc) expect(squash(line!)).toContain(squash(doc).slice(0, 40));
      const defs = [...text.matchAll(/^(?:def|class)\s+(\w+)/gm)]
        .map((m) => m[1])
        .filter((n) => !n.startsWith('test'));
      for (const name of defs.slice(0, 3)) expect(line).toContain(name);
      // The parent relays each file with the start of its docstring.
      expect(r.answer).toContain(`\`${path}\``);
      if (doc) expect(squash(r.answer)).toContain(lead(doc));
    }
    expect(r.answer.length).toBeLessThan(report.length + 400);
    expectWellFormed(r.parent.requests, r.parent.responses);
    expectWellFormed(r.children[0].requests, r.children[0].responses);
  });

  // The parent runs the new test with python3, which loads Pyodide (4-8 s) on first use.
  it('creates a module through a task and verifies it itself', async () => {
    const sandbox = await sandboxOf('python');
    const before = await projectFiles(sandbox);
    const r = await run(sandbox, PROMPT_CREATE);

    const created = (await projectFiles(sandbox)).filter((f) => !before.includes(f));
    expect(created).toHaveLength(2);
    const test = created.find((f) => /(^|\/)test_[^/]*\.py$/.test(f))!;
    const module = created.find((f) => f !== test)!;
    expect(module).toMatch(/\.py$/);
    expect(test).toBeDefined();
    const moduleText = await read(sandbox, module);
    const testText = await read(sandbox, test);
    expect(docstringFirstLine(moduleText)).toBeTruthy();
    const stem = module.replace(/^.*\//, '').replace(/\.py$/, '');
    const imported = new RegExp(`from\\s+[\\w.]*\\b${stem}\\s+import\\s+([\\w, ]+)`).exec(testText);
    expect(imported).not.toBeNull();
    for (const name of imported![1].split(',').map((s) => s.trim()))
      expect(moduleText).toMatch(new RegExp(`^def ${name}\\(`, 'm'));

    // Exactly one task; the written files came from the subagent, the verification from the parent.
    expect(r.tasks).toHaveLength(1);
    const childWrites = toolUses(r.children[0].responses).filter((u) => u.name === 'write_file');
    expect(childWrites.map((u) => (u.input as { path: string }).path).sort()).toEqual([module, test].sort());
    const parentUses = toolUses(r.parent.responses);
    expect(parentUses.filter((u) => u.name === 'task')).toHaveLength(1);
    expect(parentUses.filter((u) => u.name === 'write_file' || u.name === 'edit_file')).toHaveLength(0);
    const parentRead = parentUses.find(
      (u) => u.name === 'read_file' && (u.input as { path: string }).path === module,
    );
    expect(parentRead).toBeDefined();
    // ... and its result, the module's text, is in the parent's own messages.
    const results = r.history.flatMap((m) =>
      m.role === 'user' && Array.isArray(m.content) ? m.content : [],
    );
    expect(results.find((b) => b.type === 'tool_result' && b.tool_use_id === parentRead!.id)).toMatchObject({
      content: moduleText.replace(/\n$/, ''),
    });

    // The verdict follows what running the test here returned.
    expect(r.answer).toContain(`\`${module}\``);
    expect(r.answer).toContain(`\`${test}\``);
    const runs = parentUses.filter((u) => u.name === 'bash');
    expect(runs.length).toBeGreaterThanOrEqual(1);
    const lastRun = results.find((b) => b.type === 'tool_result' && b.tool_use_id === runs.at(-1)!.id) as {
      content: string;
    };
    // python3 runs here (Pyodide in Node), and the test the subagent wrote passes.
    expect(lastRun.content).toMatch(/^exit code: 0$/m);
    expect(r.answer).toMatch(/passed/);
    expect(r.answer).not.toMatch(/did \*\*not\*\* pass|not available in this sandbox/);
    expectWellFormed(r.parent.requests, r.parent.responses);
  }, 60_000);

  it("says the new test did not pass when the parent's run of it fails", async () => {
    const sandbox = await sandboxOf('python');
    const real = baseToolHandlers(sandbox);
    // The subagent's commands run as they are; the parent's run of the new test fails.
    const failing: Record<string, ToolHandler> = {
      ...real,
      bash: (input, context) =>
        context.agent === 'parent' && /exit code: \$\?/.test(String(input.command))
          ? Promise.resolve('F\nFAILED (failures=1)\nexit code: 1')
          : real.bash(input, context),
    };
    const r = await run(sandbox, PROMPT_CREATE, { handlers: failing });
    expect(r.answer).toMatch(/did \*\*not\*\* pass/);
    expect(r.answer).not.toMatch(/test passes/);
  }, 60_000);

  it('picks a module name that is not taken yet', async () => {
    const sandbox = await sandboxOf('python');
    await run(sandbox, PROMPT_CREATE);
    const after1 = await projectFiles(sandbox);
    const r = await run(sandbox, PROMPT_CREATE);
    const created = (await projectFiles(sandbox)).filter((f) => !after1.includes(f));
    expect(created).toHaveLength(2);
    expect(r.answer).toContain(`\`${created.find((f) => !/test_/.test(f))}\``);
  });

  it('answers other prompts with an exploration and an honest pointer to a real model', async () => {
    const sandbox = await sandboxOf('python');
    const files = await projectFiles(sandbox);
    const r = await run(sandbox, 'Refactor the code to use dataclasses');
    expect(r.tasks).toHaveLength(1);
    expect(r.answer).toMatch(/demo model/i);
    expect(r.answer).toMatch(/Settings/);
    expect(r.answer).toMatch(/API key/);
    // What it relays comes from the project.
    const readme = files.find((f) => /^readme/i.test(f));
    if (readme) expect(r.answer).toContain(`\`${readme}\``);
    expect(r.answer).toContain(`${files.length} files`);
  });

  it('follows the latest prompt of a continued conversation', async () => {
    const sandbox = await sandboxOf('python');
    const first = await run(sandbox, PROMPT_FRAMEWORK);
    const second = await run(sandbox, PROMPT_SUMMARIZE_PY, { history: first.history });
    expect(second.tasks).toHaveLength(1);
    expect(second.tasks[0].prompt).toMatch(/\.py file/);
    expect(second.answer).not.toMatch(/\*\*pytest\*\*/);
    expect(second.answer).toMatch(/\.py files/);
    // The parent's request carried the earlier turn.
    expect(second.parent.requests[0].messages[0]).toEqual({ role: 'user', content: PROMPT_FRAMEWORK });
  });

  it('skips a file it cannot read and says so', async () => {
    const sandbox = await sandboxOf('python');
    const py = (await projectFiles(sandbox)).filter((f) => f.endsWith('.py'));
    const broken = py[py.length - 1];
    const handlers = baseToolHandlers(sandbox);
    const failing: Record<string, ToolHandler> = {
      ...handlers,
      read_file: async (input, context) => {
        if (input.path === broken) throw new Error(`[Errno 13] Permission denied: '${broken}'`);
        return handlers.read_file(input, context);
      },
    };
    const r = await run(sandbox, PROMPT_SUMMARIZE_PY, { handlers: failing });
    const report = textOf(r.children[0].responses.at(-1)!.content);
    expect(report).toMatch(
      new RegExp(
        `\`${broken.replace(/\./g, '\\.')}\`: could not be read \\(Error: \\[Errno 13\\] Permission denied`,
      ),
    );
    for (const path of py.filter((p) => p !== broken)) expect(r.answer).toContain(`\`${path}\``);
  });
});

describe('DemoModel with the typescript sample', () => {
  it('finds vitest', async () => {
    const sandbox = await sandboxOf('typescript');
    const r = await run(sandbox, PROMPT_FRAMEWORK);
    expect(r.answer).toMatch(/\*\*vitest\*\*/);
    expect(r.answer).not.toMatch(/\*\*(pytest|jest|unittest)\*\*/);
    expect(r.answer).toContain('`package.json`');
    const files = await projectFiles(sandbox);
    for (const path of mentionedFiles(r.answer)) expect(files).toContain(path);
  });

  it('summarizes every .ts file', async () => {
    const sandbox = await sandboxOf('typescript');
    const ts = (await projectFiles(sandbox)).filter((f) => f.endsWith('.ts'));
    const r = await run(sandbox, PROMPT_SUMMARIZE_TS);
    for (const path of ts) {
      expect(r.answer).toContain(`\`${path}\``);
      const doc = docCommentFirstLine(await read(sandbox, path));
      if (doc) expect(squash(r.answer)).toContain(lead(doc));
    }
  });

  it('creates a TypeScript module and test and verifies them from the parent', async () => {
    const sandbox = await sandboxOf('typescript');
    const before = await projectFiles(sandbox);
    const r = await run(sandbox, PROMPT_CREATE);
    const created = (await projectFiles(sandbox)).filter((f) => !before.includes(f));
    expect(created).toHaveLength(2);
    const test = created.find((f) => /\.(test|spec)\.ts$/.test(f))!;
    const module = created.find((f) => f !== test)!;
    expect(module).toMatch(/\.ts$/);
    expect(await read(sandbox, test)).toMatch(/from 'vitest'/);
    const parentReads = toolUses(r.parent.responses)
      .filter((u) => u.name === 'read_file')
      .map((u) => (u.input as { path: string }).path);
    expect(parentReads).toEqual(expect.arrayContaining([module, test]));
    expect(r.tasks).toHaveLength(1);
  });
});

describe('DemoModel on an unexpected project', () => {
  it('answers every prompt without inventing files when the project is empty', async () => {
    for (const prompt of [PROMPT_FRAMEWORK, PROMPT_SUMMARIZE_PY, 'What is this?']) {
      const sandbox = await create({});
      const r = await run(sandbox, prompt);
      expect(r.tasks).toHaveLength(1);
      expect(r.answer.length).toBeGreaterThan(20);
      expect(r.answer).not.toMatch(/\*\*(pytest|unittest|vitest|jest)\*\*/);
      expect(r.children[0].requests.length).toBeLessThanOrEqual(8);
    }
  });

  it("does not take the shell's complaint for a file list", async () => {
    const sandbox = await sandboxOf('python');
    const handlers = baseToolHandlers(sandbox);
    const noFind: Record<string, ToolHandler> = {
      ...handlers,
      bash: async (input, context) =>
        String(input.command).startsWith('find ')
          ? 'bash: find: command not found'
          : handlers.bash(input, context),
    };
    const r = await run(sandbox, PROMPT_FRAMEWORK, { handlers: noFind });
    const reads = toolUses(r.children[0].responses)
      .filter((u) => u.name === 'read_file')
      .map((u) => (u.input as { path: string }).path);
    expect(reads).not.toContain('bash: find: command not found');
    // It falls back to the usual manifests, and still finds pytest in them.
    expect(reads).toContain('requirements.txt');
    expect(r.answer).toMatch(/\*\*pytest\*\*/);
  });
});

describe('DemoModel as a client', () => {
  const WORKDIR = '/home/user/project';

  it('recognises the sample prompts by intent, in any case', () => {
    expect(intentOf(PROMPT_FRAMEWORK)).toBe('framework');
    expect(intentOf(PROMPT_FRAMEWORK.toUpperCase())).toBe('framework');
    expect(intentOf('Which test runner does this repo use?')).toBe('framework');
    expect(intentOf(PROMPT_SUMMARIZE_PY)).toBe('summarize');
    expect(intentOf(PROMPT_SUMMARIZE_TS)).toBe('summarize');
    expect(intentOf(PROMPT_CREATE)).toBe('create');
    expect(intentOf('please CREATE a new module and check it')).toBe('create');
    expect(intentOf('Refactor the code to use dataclasses')).toBe('explore');
    expect(intentOf('Write a README file')).toBe('explore');
    expect(extensionOf(PROMPT_SUMMARIZE_PY)).toBe('py');
    expect(extensionOf(PROMPT_SUMMARIZE_TS)).toBe('ts');
    expect(extensionOf('summarize what each python file does')).toBe('py');
    expect(extensionOf('summarize what each file does')).toBeUndefined();
  });

  it('never calls task as a subagent, even when a task tool is offered', () => {
    const request: ModelRequest = {
      model: 'demo',
      system: subagentSystem(WORKDIR),
      tools: [...CHILD_TOOLS, TASK_TOOL],
      messages: [{ role: 'user', content: PROMPT_FRAMEWORK }],
      max_tokens: 8000,
    };
    for (const prompt of [PROMPT_FRAMEWORK, PROMPT_SUMMARIZE_PY, PROMPT_CREATE, 'anything at all']) {
      const response = demoRespond({ ...request, messages: [{ role: 'user', content: prompt }] });
      expect(toolUses([response]).map((u) => u.name)).not.toContain('task');
      expect(toolUses([response]).length).toBeGreaterThan(0);
    }
  });

  it('is stateless: a fresh instance answers a recorded request the same way', async () => {
    const sandbox = await sandboxOf('python');
    const r = await run(sandbox, PROMPT_CREATE);
    const strip = (response: ModelResponse) =>
      response.content.map((b) => (b.type === 'tool_use' ? { ...b, id: '' } : b));
    for (const recorder of [r.parent, r.children[0]]) {
      for (const [i, request] of recorder.requests.entries()) {
        const again = await new DemoModel({ speed: 'instant' }).createMessage(request);
        expect(strip(again)).toEqual(strip(recorder.responses[i]));
      }
    }
  });

  it('streams its response, and pauses between chunks only at normal speed', async () => {
    const request: ModelRequest = {
      model: 'demo',
      system: `You are a coding agent at ${WORKDIR}. Use the task tool to delegate exploration or subtasks.`,
      tools: PARENT_TOOLS,
      messages: [{ role: 'user', content: PROMPT_FRAMEWORK }],
      max_tokens: 8000,
    };
    const events: StreamEvent[] = [];
    // The pauses are timers of DEMO_CHUNK_DELAY_MS: counted, not timed (durations: npm run bench).
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const pauses = () => timers.mock.calls.filter(([, ms]) => ms === DEMO_CHUNK_DELAY_MS).length;
    const fast = await new DemoModel({ speed: 'instant' }).createMessage(request, {
      onStream: (e) => events.push(e),
    });
    expect(pauses()).toBe(0);
    const deltas = events
      .filter((e) => e.type === 'text_delta')
      .map((e) => (e as { text: string }).text)
      .join('');
    expect(deltas).toBe(textOf(fast.content));
    expect(events.some((e) => e.type === 'input_json_delta')).toBe(true);

    const normal = await new DemoModel({ speed: 'normal' }).createMessage(request);
    expect(textOf(normal.content)).toBe(textOf(fast.content));
    // One pause before each chunk of text or tool input.
    expect(pauses()).toBeGreaterThanOrEqual(
      events.filter((e) => e.type !== 'block_start' && e.type !== 'block_stop').length,
    );
    timers.mockRestore();
  });

  it('waits at a shut gate before it answers, passes one call per release, and stops waiting when stopped', async () => {
    const request: ModelRequest = {
      model: 'demo',
      system: `You are a coding agent at ${WORKDIR}. Use the task tool to delegate exploration or subtasks.`,
      tools: PARENT_TOOLS,
      messages: [{ role: 'user', content: PROMPT_FRAMEWORK }],
      max_tokens: 8000,
    };
    const gate = DemoGate.create()!;
    // Open: calls pass as if there were no gate.
    await new DemoModel({ speed: 'instant', gate: gate.cell }).createMessage(request);
    gate.close();
    let answered = 0;
    const model = new DemoModel({ speed: 'instant', gate: gate.cell });
    const calls = [1, 2].map(() => model.createMessage(request).then(() => answered++));
    // Shut: several of their polls go by, and neither has answered.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answered).toBe(0);
    // One release, one call; the gate is shut again behind it.
    expect(gate.release(callMark(1, false))).toBe(true);
    await Promise.race(calls);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered).toBe(1);
    gate.open();
    await Promise.all(calls);
    expect(answered).toBe(2);

    gate.close();
    const controller = new AbortController();
    const stopped = new DemoModel({ speed: 'instant', gate: gate.cell }).createMessage(request, {
      signal: controller.signal,
    });
    controller.abort();
    await expect(stopped).rejects.toThrow('Stopped');
  });

  it('at slow speed, pauses before each answer and longer between chunks', async () => {
    const request: ModelRequest = {
      model: 'demo',
      system: `You are a coding agent at ${WORKDIR}. Use the task tool to delegate exploration or subtasks.`,
      tools: PARENT_TOOLS,
      messages: [{ role: 'user', content: PROMPT_FRAMEWORK }],
      max_tokens: 8000,
    };
    vi.useFakeTimers();
    try {
      const timers = vi.spyOn(globalThis, 'setTimeout');
      const call = new DemoModel({ speed: 'slow' }).createMessage(request);
      await vi.runAllTimersAsync();
      await call;
      const waits = timers.mock.calls.map(([, ms]) => ms);
      expect(waits.filter((ms) => ms === DEMO_SLOW_CALL_PAUSE_MS)).toHaveLength(1);
      expect(waits.filter((ms) => ms === DEMO_SLOW_CHUNK_DELAY_MS).length).toBeGreaterThan(1);
      expect(waits).not.toContain(DEMO_CHUNK_DELAY_MS);
    } finally {
      vi.useRealTimers();
    }
  });

  it('estimates usage from the request and the response size', () => {
    const request: ModelRequest = {
      model: 'demo',
      system: `You are a coding agent at ${WORKDIR}. Use the task tool to delegate exploration or subtasks.`,
      tools: PARENT_TOOLS,
      messages: [{ role: 'user', content: PROMPT_FRAMEWORK }],
      max_tokens: 8000,
    };
    const response = demoRespond(request);
    const size = JSON.stringify({
      system: request.system,
      tools: request.tools,
      messages: request.messages,
    }).length;
    expect(response.usage!.input_tokens).toBe(Math.ceil(size / 4));
    expect(response.usage!.output_tokens).toBe(Math.ceil(JSON.stringify(response.content).length / 4));
    expect(response.stop_reason).toBe('tool_use');
  });
});

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The start of a doc's first sentence: what a short relay must keep. */
function lead(doc: string): string {
  return squash(doc)
    .split(/(?<=[.!?])\s/)[0]
    .slice(0, 30);
}
