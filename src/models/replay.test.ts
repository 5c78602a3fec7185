import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parentLoop, runSubagent, type RunTask } from '../core/loop';
import type { ModelRequest } from '../core/model';
import type { ToolHandler } from '../core/tools';
import {
  parseReprBlock,
  ReplayModel,
  traceResponse,
  traceToolOutputs,
  traceWorkdir,
  loopOf,
  type Trace,
} from './replay';

const trace: Trace = JSON.parse(
  readFileSync(new URL('../../public/traces/s04.json', import.meta.url), 'utf8'),
);

/** The recorder dumped SDK objects, which adds `caller: null` to tool_use blocks; the API never sees it. */
function withoutRecorderFields(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, v) => (key === 'caller' && v === null ? undefined : v));
}

/** Records every request a model receives, per loop. */
class Recorder extends ReplayModel {
  readonly requests: ModelRequest[] = [];
  override createMessage(...args: Parameters<ReplayModel['createMessage']>) {
    this.requests.push(structuredClone(args[0]));
    return super.createMessage(...args);
  }
}

describe('replay of the recorded reference run', () => {
  it("parses the recorder's Python reprs back into thinking blocks", () => {
    expect(
      parseReprBlock(`ThinkingBlock(signature='ab12', thinking="It's \\n'quoted'", type='thinking')`),
    ).toEqual({
      type: 'thinking',
      signature: 'ab12',
      thinking: "It's \n'quoted'",
    });
    expect(() => parseReprBlock('nonsense')).toThrow('Not a block repr');
  });

  it('restores every recorded thinking block to what the next request carried', () => {
    const response = traceResponse(trace.cycles[0]);
    const sent = (trace.cycles[7].request.messages[1] as { content: unknown[] }).content[0];
    expect(response.content[0]).toEqual(withoutRecorderFields(sent));
  });

  it('reproduces all eight requests of the reference run: 2 parent calls, 6 subagent calls', async () => {
    const model = new Recorder(trace);
    const outputs = traceToolOutputs(trace);
    const answer =
      (loop: 'parent' | 'subagent'): ToolHandler =>
      async () => {
        const next = outputs[loop].shift();
        if (next === undefined) throw new Error(`no recorded output left for the ${loop}`);
        return next;
      };
    const handlersFor = (loop: 'parent' | 'subagent') =>
      Object.fromEntries(['bash', 'read_file', 'write_file', 'edit_file'].map((n) => [n, answer(loop)]));
    const workdir = traceWorkdir(trace);
    let spawned = 0;
    const runTask: RunTask = (task) =>
      runSubagent(task.prompt, {
        agent: `subagent-${++spawned}`,
        model,
        modelName: trace.model,
        workdir,
        baseHandlers: handlersFor(loopOf(`subagent-${spawned}`)),
      });

    await parentLoop(trace.prompt, {
      model,
      modelName: trace.model,
      workdir,
      baseHandlers: handlersFor('parent'),
      history: [],
      runTask,
    });

    expect(spawned).toBe(1);
    expect(model.requests).toHaveLength(8);
    // Calls interleave as they did then: parent, six subagent calls, parent.
    expect(model.requests.map((r) => (r.tools.length === 5 ? 'parent' : 'subagent'))).toEqual(
      trace.cycles.map((c) => (c.request.tools.length === 5 ? 'parent' : 'subagent')),
    );
    model.requests.forEach((request, i) => {
      expect(request, `cycle ${i + 1}`).toEqual(withoutRecorderFields(trace.cycles[i].request));
    });
    expect(outputs.subagent).toEqual([]);
  });
});
