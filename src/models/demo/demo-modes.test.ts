/**
 * The demo model in every context mode, and delegating when the limits allow it: the same sample
 * prompts through the real loops and the local sandbox, as the workers run them.
 */
import { describe, expect, it } from 'vitest';
import { parentLoop, runSubagent, type RunTask } from '../../core/loop';
import type { AgentId, Message, ToolUseBlock } from '../../core/messages';
import type { ModelCallOptions, ModelClient, ModelRequest, ModelResponse } from '../../core/model';
import { baseToolHandlers, CHILD_TOOLS, PARENT_TOOLS } from '../../core/tools';
import { REFERENCE_LIMITS, soloSystem, type ContextMode, type LoopLimits } from '../../core/variants';
import { create } from '../../sandbox/local';
import { loadSample, type SampleName } from '../../sandbox/samples';
import { DemoModel } from './index';

const PROMPTS = {
  framework: {
    en: 'Use a subtask to find what testing framework this project uses',
    zh: '用子任务找出这个项目用的测试框架',
    ja: 'サブタスクでこのプロジェクトのテストフレームワークを調べて',
  },
  summarize: {
    en: (ext: string) => `Delegate: read all .${ext} files and summarize what each one does`,
    zh: (ext: string) => `委派：阅读所有 .${ext} 文件并总结每个文件的作用`,
    ja: (ext: string) => `委任：すべての .${ext} ファイルを読んで、それぞれの役割を要約して`,
  },
  create: {
    en: 'Use a task to create a new module, then verify it from here',
    zh: '用一个任务创建一个新模块，然后在这里验证它',
    ja: 'タスクで新しいモジュールを作成し、ここで検証して',
  },
};

const EXT: Record<SampleName, string> = { python: 'py', typescript: 'ts' };

class Recorder implements ModelClient {
  readonly label = 'demo';
  readonly requests: ModelRequest[] = [];
  readonly responses: ModelResponse[] = [];
  readonly #inner = new DemoModel({ speed: 'instant' });
  async createMessage(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse> {
    this.requests.push(structuredClone(request));
    const response = await this.#inner.createMessage(request, options);
    this.responses.push(structuredClone(response));
    return response;
  }
}

interface Spawn {
  agent: AgentId;
  from: AgentId;
  depth: number;
  model: Recorder;
}

/** One prompt on a fresh copy of a sample, subagents in-process with a demo model each. */
async function run(
  sample: SampleName,
  prompt: string,
  context: ContextMode,
  limits: LoopLimits = REFERENCE_LIMITS,
) {
  const sandbox = await create(await loadSample(sample));
  const handlers = baseToolHandlers(sandbox, { outputChars: limits.outputChars });
  const spawns: Spawn[] = [];
  const runTaskFor =
    (from: AgentId, depth: number): RunTask =>
    (task, signal) => {
      const spawn: Spawn = { agent: `subagent-${spawns.length + 1}`, from, depth, model: new Recorder() };
      spawns.push(spawn);
      return runSubagent(task.prompt, {
        agent: spawn.agent,
        model: spawn.model,
        modelName: 'demo',
        workdir: sandbox.workdir,
        baseHandlers: handlers,
        depth,
        forkFrom: task.forkFrom,
        context,
        limits,
        runTask: runTaskFor(spawn.agent, depth + 1),
        signal,
      });
    };
  const parent = new Recorder();
  const history: Message[] = [];
  const result = await parentLoop(prompt, {
    model: parent,
    modelName: 'demo',
    workdir: sandbox.workdir,
    baseHandlers: handlers,
    history,
    context,
    limits,
    runTask: runTaskFor('parent', 1),
  });
  const answer = result.last.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  return { sandbox, parent, spawns, history, answer };
}

function uses(responses: ModelResponse[]): ToolUseBlock[] {
  return responses.flatMap((r) => r.content.filter((b): b is ToolUseBlock => b.type === 'tool_use'));
}

/** The tool calls a loop made, by name and input (ids differ from run to run). */
function work(responses: ModelResponse[]): string[] {
  return uses(responses).map((u) => `${u.name} ${JSON.stringify(u.input)}`);
}

const SAMPLES: SampleName[] = ['python', 'typescript'];
const LANGS = ['en', 'zh', 'ja'] as const;

function promptsOf(sample: SampleName, lang: (typeof LANGS)[number]) {
  return {
    framework: PROMPTS.framework[lang],
    summarize: PROMPTS.summarize[lang](EXT[sample]),
    create: PROMPTS.create[lang],
  };
}

describe.each(SAMPLES)('the demo model without subagents (none), %s sample', (sample) => {
  it.each(LANGS)(
    'makes the subagent’s tool calls itself and answers from them (%s)',
    async (lang) => {
      for (const [intent, prompt] of Object.entries(promptsOf(sample, lang))) {
        const isolated = await run(sample, prompt, 'isolated');
        const none = await run(sample, prompt, 'none');
        expect(none.spawns, intent).toEqual([]);
        for (const request of none.parent.requests) {
          expect(request.system).toBe(soloSystem(none.sandbox.workdir));
          expect(request.tools).toEqual(CHILD_TOOLS);
        }
        // The subagent's work, then (for create) the parent's own checks: all in the one array.
        const delegated = [...work(isolated.spawns[0].model.responses), ...work(isolated.parent.responses)];
        expect(work(none.parent.responses), intent).toEqual(delegated.filter((c) => !c.startsWith('task ')));
        expect(none.answer.length, intent).toBeGreaterThan(40);
        // Every result it read is in its own context: the last request holds them all.
        const last = JSON.stringify(none.parent.requests.at(-1)!.messages);
        for (const message of isolated.spawns[0].model.requests.at(-1)!.messages.slice(1)) {
          if (message.role !== 'user' || typeof message.content === 'string') continue;
          for (const block of message.content) {
            if (block.type === 'tool_result' && block.content.length > 200) {
              expect(last, intent).toContain(JSON.stringify(block.content.slice(0, 200)).slice(1, -1));
            }
          }
        }
        // It is bigger than the isolated parent's, which is the point of the comparison.
        const size = (r: ModelRequest) => JSON.stringify(r.messages).length;
        if (intent !== 'create')
          expect(size(none.parent.requests.at(-1)!)).toBeGreaterThan(size(isolated.parent.requests.at(-1)!));
      }
    },
    120_000,
  );
});

describe.each(SAMPLES)('the demo model in none mode answers the %s sample from what it read', (sample) => {
  it('names the framework, every file, and the created module with its verdict', async () => {
    const framework = await run(sample, PROMPTS.framework.en, 'none');
    expect(framework.answer).toMatch(sample === 'python' ? /\*\*pytest\*\*/ : /\*\*vitest\*\*/);
    expect(framework.answer).toContain('I did this without a subagent, reading');

    const summarize = await run(sample, PROMPTS.summarize.en(EXT[sample]), 'none');
    const files = (await summarize.sandbox.list())
      .filter(
        (e) => e.type === 'file' && e.path.endsWith(`.${EXT[sample]}`) && !e.path.includes('node_modules'),
      )
      .map((e) => e.path.slice(summarize.sandbox.workdir.length + 1));
    expect(files.length).toBeGreaterThan(2);
    for (const file of files) expect(summarize.answer).toContain(`\`${file}\``);

    const created = await run(sample, PROMPTS.create.en, 'none');
    expect(created.answer).toMatch(/^I created:/);
    const written = uses(created.parent.responses).filter((u) => u.name === 'write_file');
    expect(written).toHaveLength(2);
    for (const u of written)
      expect(created.answer).toContain(`\`${String((u.input as { path: string }).path)}\``);
    // It ran the new test from here.
    expect(uses(created.parent.responses).at(-1)!.name).toBe('bash');
  }, 60_000);
});

describe.each(SAMPLES)('the demo model forked, %s sample', (sample) => {
  it.each(LANGS)(
    'does the isolated work, with the parent’s history in the child’s array (%s)',
    async (lang) => {
      for (const [intent, prompt] of Object.entries(promptsOf(sample, lang))) {
        const isolated = await run(sample, prompt, 'isolated');
        const fork = await run(sample, prompt, 'fork');
        expect(fork.spawns, intent).toHaveLength(1);
        const child = fork.spawns[0].model;
        const first = child.requests[0];
        const task = uses(fork.parent.responses)[0];
        expect(first.messages, intent).toEqual([
          {
            role: 'user',
            content: [
              { type: 'text', text: prompt },
              { type: 'text', text: (task.input as { prompt: string }).prompt },
            ],
          },
        ]);
        expect(first.tools).toEqual(CHILD_TOOLS);
        expect(work(child.responses), intent).toEqual(work(isolated.spawns[0].model.responses));
        expect(work(fork.parent.responses).length, intent).toBe(work(isolated.parent.responses).length);
      }
    },
    120_000,
  );
});

describe.each(SAMPLES)('the demo model allowed to delegate, %s sample', (sample) => {
  it.each(LANGS)('splits the files of prompt 2 with a subagent of its own (%s)', async (lang) => {
    const prompt = promptsOf(sample, lang).summarize;
    const limits = { ...REFERENCE_LIMITS, delegationDepth: 2 };
    const { spawns, answer, sandbox } = await run(sample, prompt, 'isolated', limits);
    expect(spawns.map(({ agent, from, depth }) => ({ agent, from, depth }))).toEqual([
      { agent: 'subagent-1', from: 'parent', depth: 1 },
      { agent: 'subagent-2', from: 'subagent-1', depth: 2 },
    ]);
    const [child, grandchild] = spawns.map((s) => s.model);
    expect(child.requests[0].tools).toEqual(PARENT_TOOLS);
    // At depth 2 it could delegate again; it has a list of files and just reads them.
    expect(grandchild.requests[0].tools).toEqual(PARENT_TOOLS);
    expect(uses(grandchild.responses).map((u) => u.name)).not.toContain('task');
    const readBy = (r: Recorder) =>
      uses(r.responses)
        .filter((u) => u.name === 'read_file')
        .map((u) => (u.input as { path: string }).path);
    const files = (await sandbox.list())
      .filter(
        (e) => e.type === 'file' && e.path.endsWith(`.${EXT[sample]}`) && !e.path.includes('node_modules'),
      )
      .map((e) => e.path.slice(sandbox.workdir.length + 1))
      .sort();
    // Every file is read once, by one of the two, and summarized in the parent's answer.
    expect([...readBy(child), ...readBy(grandchild)].sort()).toEqual(files);
    expect(readBy(grandchild).length).toBeGreaterThan(0);
    for (const file of files) expect(answer).toContain(`\`${file}\``);
    // The child got only the grandchild's summary back, none of what the grandchild read.
    const taskUse = uses(child.responses).find((u) => u.name === 'task')!;
    const summary = grandchild.responses.at(-1)!.content.flatMap((b) => (b.type === 'text' ? [b.text] : []));
    const childLast = child.requests.at(-1)!.messages;
    expect(JSON.stringify(childLast)).toContain(
      JSON.stringify({ type: 'tool_result', tool_use_id: taskUse.id, content: summary.join('') }),
    );
    for (const message of grandchild.requests.at(-1)!.messages.slice(1)) {
      if (typeof message.content === 'string' || message.role !== 'user') continue;
      for (const block of message.content) {
        if (block.type === 'tool_result' && block.content.length > 80)
          expect(JSON.stringify(childLast)).not.toContain(JSON.stringify(block.content).slice(1, -1));
      }
    }
  });

  it('does not delegate at the reference limits, nor on the other prompts', async () => {
    const reference = await run(sample, PROMPTS.summarize.en(EXT[sample]), 'isolated');
    expect(reference.spawns).toHaveLength(1);
    const limits = { ...REFERENCE_LIMITS, delegationDepth: 1 };
    for (const prompt of [PROMPTS.framework.en, PROMPTS.create.en]) {
      expect((await run(sample, prompt, 'isolated', limits)).spawns).toHaveLength(1);
    }
  });
});
