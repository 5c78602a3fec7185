/**
 * The demo model's whole output for every sample prompt, in every language, on both samples and in
 * every context mode (and with nested delegation), kept as one digest per case: a change to the
 * demo's words, templates or plans shows up here as the cases whose answers changed, not only as
 * a failed property. To see what changed, run it once before and once after the change with
 * DEMO_RECORD_FULL=<file> (the whole record is written there) and compare the two files.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { parentLoop, runSubagent, type RunTask } from '../../core/loop';
import type { ModelCallOptions, ModelClient, ModelRequest, ModelResponse } from '../../core/model';
import { baseToolHandlers } from '../../core/tools';
import { CONTEXT_MODES, REFERENCE_LIMITS, type ContextMode, type LoopLimits } from '../../core/variants';
import { create } from '../../sandbox/local';
import { loadSample, type SampleName } from '../../sandbox/samples';
import { DemoModel } from './index';
import { planModule } from './new-module';
import type { Reads } from './project';

const PROMPTS: Record<string, (ext: string) => string> = {
  'framework en': () => 'Use a subtask to find what testing framework this project uses',
  'framework zh': () => '用子任务找出这个项目用的测试框架',
  'framework ja': () => 'サブタスクでこのプロジェクトのテストフレームワークを調べて',
  'summarize en': (ext) => `Delegate: read all .${ext} files and summarize what each one does`,
  'summarize zh': (ext) => `委派：阅读所有 .${ext} 文件并总结每个文件的作用`,
  'summarize ja': (ext) => `委任：すべての .${ext} ファイルを読んで、それぞれの役割を要約して`,
  'create en': () => 'Use a task to create a new module, then verify it from here',
  'create zh': () => '用一个任务创建一个新模块，然后在这里验证它',
  'create ja': () => 'タスクで新しいモジュールを作成し、ここで検証して',
  'other en': () => 'What does this project do?',
  'other zh': () => '这个项目是做什么的？',
  'other ja': () => 'このプロジェクトは何をするもの？',
};

const EXT: Record<SampleName, string> = { python: 'py', typescript: 'ts' };

/** A model's answers, each tool_use id replaced by its place in the run (ids are random). */
class Recorder implements ModelClient {
  readonly label = 'demo';
  readonly answers: unknown[] = [];
  readonly #inner = new DemoModel({ speed: 'instant' });
  constructor(readonly ids: Map<string, string>) {}
  async createMessage(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse> {
    const response = await this.#inner.createMessage(request, options);
    const content = response.content.map((block) => {
      if (block.type !== 'tool_use') return block;
      this.ids.set(block.id, `toolu_${this.ids.size + 1}`);
      return { ...block, id: this.ids.get(block.id) };
    });
    this.answers.push({ content, stop_reason: response.stop_reason, usage: response.usage });
    return response;
  }
}

async function record(sample: SampleName, prompt: string, context: ContextMode, limits: LoopLimits) {
  const sandbox = await create(await loadSample(sample));
  const handlers = baseToolHandlers(sandbox, { outputChars: limits.outputChars });
  const ids = new Map<string, string>();
  const agents: Record<string, unknown[]> = {};
  const runTaskFor =
    (depth: number): RunTask =>
    (task, signal) => {
      const agent = `subagent-${Object.keys(agents).length}`;
      const model = new Recorder(ids);
      agents[agent] = model.answers;
      return runSubagent(task.prompt, {
        agent,
        model,
        modelName: 'demo',
        workdir: sandbox.workdir,
        baseHandlers: handlers,
        depth,
        forkFrom: task.forkFrom,
        context,
        limits,
        runTask: runTaskFor(depth + 1),
        signal,
      });
    };
  const parent = new Recorder(ids);
  agents.parent = parent.answers;
  await parentLoop(prompt, {
    model: parent,
    modelName: 'demo',
    workdir: sandbox.workdir,
    baseHandlers: handlers,
    history: [],
    context,
    limits,
    runTask: runTaskFor(1),
  });
  return agents;
}

it('answers every sample prompt as it always has', { timeout: 120_000 }, async () => {
  const records: Record<string, unknown> = {};
  const cases: [ContextMode, LoopLimits, string][] = [
    ...CONTEXT_MODES.map((mode): [ContextMode, LoopLimits, string] => [mode, REFERENCE_LIMITS, mode]),
    ['isolated', { ...REFERENCE_LIMITS, delegationDepth: 2 }, 'isolated, depth 2'],
  ];
  for (const sample of ['python', 'typescript'] as const) {
    for (const [context, limits, label] of cases) {
      for (const [name, prompt] of Object.entries(PROMPTS)) {
        records[`${sample}, ${label}: ${name}`] = await record(sample, prompt(EXT[sample]), context, limits);
      }
    }
  }
  if (process.env.DEMO_RECORD_FULL) {
    writeFileSync(process.env.DEMO_RECORD_FULL, JSON.stringify(records, null, 1) + '\n');
  }
  const digests = Object.fromEntries(
    Object.entries(records).map(([name, record]) => [
      name,
      createHash('sha256').update(JSON.stringify(record)).digest('hex').slice(0, 16),
    ]),
  );
  await expect(JSON.stringify(digests, null, 2) + '\n').toMatchFileSnapshot('./record.snapshot.json');
});

it('writes the same module and test for every framework it knows', async () => {
  const plans: Record<string, unknown> = {};
  const python = ['src/app/__init__.py', 'src/app/core.py', 'tests/test_core.py'];
  const pythonReads: Reads = new Map([['tests/test_core.py', 'from app.core import run\n']]);
  for (const framework of ['pytest', 'unittest']) {
    plans[`python ${framework}`] = planModule(python, pythonReads, 'python', framework);
    plans[`python ${framework}, nothing read`] = planModule(['main.py'], new Map(), 'python', framework);
  }
  const script = ['src/core.ts', 'test/core.test.ts', 'package.json'];
  const scriptReads: Reads = new Map([['test/core.test.ts', "import { run } from '../src/core.js';\n"]]);
  const jestGlobals: Reads = new Map([
    ['test/core.test.ts', "import { it } from '@jest/globals';\nimport { run } from '../src/core';\n"],
  ]);
  for (const framework of ['vitest', 'jest', 'mocha', 'node:test', 'unknown']) {
    plans[`typescript ${framework}`] = planModule(script, scriptReads, 'typescript', framework);
    plans[`typescript ${framework}, nothing read`] = planModule(
      ['index.ts'],
      new Map(),
      'typescript',
      framework,
    );
  }
  plans['typescript jest, @jest/globals'] = planModule(script, jestGlobals, 'typescript', 'jest');
  await expect(JSON.stringify(plans, null, 2) + '\n').toMatchFileSnapshot('./record.modules.snapshot.json');
});
