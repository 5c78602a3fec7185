/** The first export format (version 1: the arrays on screen, no events), read as a record. */
import * as v from 'valibot';
import { MessageSchema } from '../core/schema';
import { RECORD_FORMAT, RECORD_VERSION } from './record';

const text = v.string();

/**
 * What the first export format must hold to be read: each part optional, but each part present of
 * its kind (an array of messages, not a string or null), so that reading it never stumbles.
 */
export const V1Schema = v.looseObject({
  model: v.nullish(
    v.looseObject({ provider: v.nullish(text), model: v.nullish(text), baseURL: v.nullish(text) }),
  ),
  sandbox: v.nullish(v.looseObject({ label: v.nullish(text), sample: v.nullish(text) })),
  status: v.nullish(v.looseObject({ kind: v.nullish(text) })),
  parent: v.nullish(v.looseObject({ messages: v.nullish(v.array(MessageSchema)) })),
  subagents: v.nullish(
    v.array(
      v.looseObject({
        id: text,
        description: v.nullish(text),
        taskId: v.nullish(text),
        summary: v.nullish(text),
        messages: v.nullish(v.array(MessageSchema)),
      }),
    ),
  ),
});

/**
 * The first export format (version 1: the arrays on screen, no events) as a record: the parent's
 * messages in order, each subagent's right after the parent's `task` call that started it.
 */
export function upgradeV1(old: v.InferOutput<typeof V1Schema>): unknown {
  const parent = old.parent ?? {};
  const subagents = old.subagents ?? [];
  const model = old.model ?? {};
  const sandbox = old.sandbox ?? {};
  const provider = model.provider === 'anthropic' ? 'anthropic' : 'demo';
  const settings = {
    provider,
    model: model.model ?? 'demo',
    ...(provider === 'anthropic' && model.baseURL ? { baseURL: model.baseURL } : {}),
    sample: sandbox.sample === 'typescript' ? 'typescript' : 'python',
    sandbox: sandbox.label ?? 'local',
    context: 'isolated',
    limits: { subagentMaxCalls: 30, outputChars: 50_000, maxTokens: 8000, delegationDepth: 0 },
  };
  const messages = Array.isArray(parent.messages) ? parent.messages : [];
  const first = messages[0];
  const title = typeof first?.content === 'string' ? first.content : '';
  const events: unknown[] = [
    { t: 0, type: 'run', prompt: title, settings },
    { t: 0, type: 'status', status: { kind: 'running' } },
  ];
  messages.forEach((message, index) => {
    events.push({ t: 0, type: 'message', agent: 'parent', index, message });
    if (message?.role !== 'assistant' || !Array.isArray(message.content)) return;
    for (const block of message.content) {
      const sub = block.type === 'tool_use' ? subagents.find((s) => s.taskId === block.id) : undefined;
      if (!sub) continue;
      const [start, ...rest] = Array.isArray(sub.messages) ? sub.messages : [];
      events.push({
        t: 0,
        type: 'spawn',
        agent: sub.id,
        from: 'parent',
        taskId: sub.taskId,
        description: sub.description ?? '',
        messages: start ? [start] : [],
      });
      rest.forEach((m, i) => events.push({ t: 0, type: 'message', agent: sub.id, index: i + 1, message: m }));
      events.push({
        t: 0,
        type: 'agent_state',
        agent: sub.id,
        state: 'discarded',
        ...(typeof sub.summary === 'string' ? { summary: sub.summary } : {}),
      });
    }
  });
  const status = old.status;
  events.push({
    t: 0,
    type: 'status',
    status: status?.kind === 'failed' || status?.kind === 'stopped' ? status : { kind: 'finished' },
  });
  const exportedAt = typeof old.exportedAt === 'string' ? Date.parse(old.exportedAt) : NaN;
  return {
    format: RECORD_FORMAT,
    version: RECORD_VERSION,
    id: `v1-${Number.isFinite(exportedAt) ? exportedAt : 0}`,
    startedAt: Number.isFinite(exportedAt) ? exportedAt : 0,
    title,
    settings,
    events,
  };
}
