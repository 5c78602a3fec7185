import { describe, expect, it } from 'vitest';
import type { Message } from '../core/messages';
import type { ModelRequest } from '../core/model';
import { CHILD_TOOLS, PARENT_TOOLS, parentSystem, subagentSystem } from '../core/tools';
import { DemoModel } from '../models/demo';
import { type RecordEvent, type RunEvent, type RunRecord } from '../run/record';
import { Presenter, type Stage } from './presenter.svelte';
import type { Viewer } from './viewer.svelte';
import { DEMO_SETTINGS } from '../../test/settings';

const WORKDIR = '/home/user/project';
const PROMPT = 'Use a subtask to find what testing framework this project uses';
const TASK_PROMPT = 'Find the testing framework of this project.';

const request = (subagent: boolean, messages: Message[]): ModelRequest => ({
  model: 'demo',
  system: subagent ? subagentSystem(WORKDIR) : parentSystem(WORKDIR),
  tools: subagent ? CHILD_TOOLS : PARENT_TOOLS,
  messages,
  max_tokens: 8000,
});

/** A live run on screen, as much of the Viewer and the playground as the presenter reads. */
function liveStage() {
  const record: RunRecord = {
    format: 's04-run',
    version: 1,
    id: 'r',
    startedAt: 0,
    title: PROMPT,
    settings: DEMO_SETTINGS,
    events: [],
  } as unknown as RunRecord;
  const viewer = {
    record: null as RunRecord | null,
    opened: null,
    step: null as number | null,
    get steps() {
      return record.events.length;
    },
    get pastStep() {
      return this.step !== null;
    },
    stepOfEvent: (index: number) => index + 1,
    stepToEvent(index: number) {
      this.step = index + 1;
    },
    goLive() {
      this.step = null;
    },
    goLatest() {
      this.step = record.events.length;
    },
  };
  const holds: boolean[] = [];
  const stage = {
    viewer: viewer as unknown as Viewer,
    running: false,
    runtime: { hold: (held: boolean) => void holds.push(held) },
  };
  const presenter = new Presenter(stage as Stage);
  /** The conversation appends an event, then tells the presenter (Conversation.#record). */
  const recordEvent = (event: RunEvent) => {
    viewer.record = record;
    stage.running = true;
    record.events.push({ ...event, t: record.events.length } as RecordEvent);
    presenter.recorded(event);
  };
  return { presenter, recordEvent, viewer, stage, holds };
}

/** Resolves after `ms`: several of a held call's looks at the gate go by. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the presenter on a live demo run', () => {
  it("holds a subagent's first call from its start until Continue, though it began before the caller's task was recorded", async () => {
    const { presenter, recordEvent, viewer, holds } = liveStage();
    const model = presenter.gated({ provider: 'demo', speed: 'instant' });
    if (model.provider !== 'demo' || !model.gate) throw new Error('no gate in this runtime');
    const parent = new DemoModel({ speed: 'instant', gate: model.gate });
    const child = new DemoModel({ speed: 'instant', gate: model.gate });
    presenter.start();

    recordEvent({ type: 'status', status: { kind: 'running' } });
    // The parent's first call is a moment: it waits while its caption is on screen.
    const prompt: Message = { role: 'user', content: PROMPT };
    let parentAnswered = false;
    const parentCall = parent.createMessage(request(false, [prompt])).then((r) => {
      parentAnswered = true;
      return r;
    });
    recordEvent({ type: 'message', agent: 'parent', index: 0, message: prompt });
    recordEvent({ type: 'model_start', agent: 'parent', call: 1, request: { messages: 1 } });
    presenter.update();
    expect(presenter.moment).toMatchObject({ kind: 'call', agent: 'parent', call: 1 });
    expect(presenter.paused).toEqual({ at: 1, of: 1 });
    await pause(120);
    expect(parentAnswered).toBe(false);
    // Held: the run's clock stops until the call goes on.
    expect(holds.at(-1)).toBe(true);
    presenter.continue();
    expect(holds.at(-1)).toBe(false);
    const reply = await parentCall;
    const task = reply.content.find((b) => b.type === 'tool_use')!;
    expect(task).toMatchObject({ name: 'task' });

    // The parent's worker asks for the subagent before it sends its events: the subagent's first
    // call starts while the page has recorded nothing of the task yet.
    let answered = false;
    const taskPrompt: Message = { role: 'user', content: TASK_PROMPT };
    const childCall = child.createMessage(request(true, [taskPrompt])).then((r) => {
      answered = true;
      return r;
    });
    await pause(120);
    expect(answered).toBe(false);

    recordEvent({ type: 'model_end', agent: 'parent', call: 1, durationMs: 1, stopReason: 'tool_use' });
    recordEvent({
      type: 'message',
      agent: 'parent',
      index: 1,
      message: { role: 'assistant', content: [task] },
    });
    recordEvent({ type: 'tool_start', agent: 'parent', id: 't1', name: 'task', input: {} });
    recordEvent({ type: 'task_start', agent: 'parent', id: 't1', description: 'look', prompt: TASK_PROMPT });
    const spawn = { type: 'spawn', agent: 'subagent-1', from: 'parent', taskId: 't1', description: 'look' };
    recordEvent({ ...spawn, messages: [taskPrompt] } as RunEvent);
    recordEvent({ type: 'model_start', agent: 'subagent-1', call: 1, request: { messages: 1 } });
    presenter.update();
    expect(presenter.moments.map((m) => m.kind)).toEqual(['call', 'task', 'spawn', 'call']);
    expect(presenter.moments[presenter.at].kind).toBe('task');

    // The presentation goes through the moments recorded; at the subagent's call, it still waits.
    presenter.continue();
    presenter.continue();
    expect(presenter.moments[presenter.at].kind).toBe('call');
    expect(viewer.step).toBe(presenter.moments[presenter.at].index + 1);
    await pause(120);
    expect(answered).toBe(false);

    // Back one moment and on again: the call stays held all the while.
    presenter.back();
    expect(presenter.moments[presenter.at].kind).toBe('spawn');
    expect(viewer.step).toBe(presenter.moments[presenter.at].index + 1);
    expect(presenter.paused).toEqual({ at: 3, of: 4 });
    presenter.continue();
    expect(presenter.moments[presenter.at].kind).toBe('call');
    await pause(60);
    expect(answered).toBe(false);

    // Continue: the call told on screen answers.
    presenter.continue();
    expect(presenter.following).toBe(true);
    const childReply = await childCall;
    expect(childReply.stop_reason).toBe('tool_use');

    // Its next call waits again until the page has seen it start (a moment: call 2).
    const results: Message = {
      role: 'user',
      content: childReply.content.flatMap((b) =>
        b.type === 'tool_use'
          ? [{ type: 'tool_result' as const, tool_use_id: b.id, content: 'README.md' }]
          : [],
      ),
    };
    let second = false;
    const secondCall = child
      .createMessage(request(true, [taskPrompt, { role: 'assistant', content: childReply.content }, results]))
      .then(() => (second = true));
    await pause(120);
    expect(second).toBe(false);
    presenter.stop();
    await secondCall;
  });
});

describe('the presenter on a finished run', () => {
  it('goes back one moment at a time, and past the last moment shows the run as it ended', () => {
    const { presenter, recordEvent, viewer, stage } = liveStage();
    const prompt: Message = { role: 'user', content: PROMPT };
    const reply: Message = { role: 'assistant', content: [{ type: 'text', text: 'pytest' }] };
    recordEvent({ type: 'message', agent: 'parent', index: 0, message: prompt });
    recordEvent({ type: 'model_start', agent: 'parent', call: 1 });
    recordEvent({ type: 'message', agent: 'parent', index: 1, message: reply });
    recordEvent({ type: 'model_start', agent: 'parent', call: 2 });
    recordEvent({ type: 'status', status: { kind: 'finished' } });
    stage.running = false;
    viewer.step = null;

    presenter.start();
    expect(presenter.moment).toMatchObject({ call: 1 });
    expect(presenter.canBack).toBe(false);
    presenter.continue();
    expect(presenter.moment).toMatchObject({ call: 2 });
    expect(presenter.paused).toEqual({ at: 2, of: 2 });
    presenter.back();
    expect(presenter.moment).toMatchObject({ call: 1 });
    expect(viewer.step).toBe(2);
    presenter.continue();
    presenter.continue();
    // Past the last moment: the last step, where the run's status is its end.
    expect(presenter.moment).toBeNull();
    expect(presenter.paused).toBeNull();
    expect(viewer.step).toBe(5);
    expect(presenter.canContinue).toBe(false);
    presenter.back();
    expect(presenter.moment).toMatchObject({ call: 2 });
  });
});
