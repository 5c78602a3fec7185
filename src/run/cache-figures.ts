/**
 * The cache figures of a demo run with prompt caching on: the demo model reports no usage, so its
 * calls are sent, in the order they started, through the simulated prompt cache
 * (src/models/demo/cache-sim.ts), with breakpoints where the API path puts them (the last tool,
 * the system prompt, the last message). Each call then has cache read, cache write and uncached
 * input, flagged `simulated`: the screen shows them as the simulation's, never as the API's.
 *
 * One cache per run, empty at its start: Compare prices each mode as if it ran alone, so the
 * order the modes ran in does not favour one.
 */
import type { Message } from '../core/messages';
import type { SentBody } from '../core/model';
import { PromptCache, type SimBlock, type SimUsage } from '../models/demo/cache-sim';
import { entriesOf, type CallEntry } from './ledger';
import type { RunRecord } from './record';
import { reduceAll } from './reduce-range';
import { messageTokens } from './size';

/** A call whose input parts the simulation made (the API counted nothing). */
export interface SimulatedCall extends CallEntry {
  readonly simulated: true;
  readonly usage: SimUsage;
}

/** Whether a record's cache figures are simulated: a demo run with prompt caching on. */
export function simulatesCache(record: RunRecord): boolean {
  return record.settings.provider === 'demo' && record.settings.cache === true;
}

const keys = new WeakMap<object, string>();

function keyOf(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? '';
  let key = keys.get(value);
  if (key === undefined) keys.set(value, (key = JSON.stringify(value)));
  return key;
}

// A live run's record grows: its figures are made again when it has more events.
const made = new WeakMap<RunRecord, { events: number; calls: SimulatedCall[] }>();

/** Every call of a demo run, in start order, with its simulated cache figures (made once per record as it stands). */
export function simulatedCalls(record: RunRecord): SimulatedCall[] {
  const known = made.get(record);
  if (known && known.events === record.events.length) return known.calls;
  const view = reduceAll(record.events);
  const agents = [view.parent, ...view.subagents];
  const arrays = new Map<string, Message[]>(agents.map((agent) => [agent.id, agent.messages]));
  const entries = agents.flatMap((agent) => entriesOf(agent.ledger)).sort((a, b) => a.seq - b.seq);
  const cache = new PromptCache();
  const calls = entries.map((entry): SimulatedCall => {
    const event = record.events[entry.event] as { request?: SentBody } | undefined;
    const body = event?.request;
    const messages = (arrays.get(entry.agent) ?? []).slice(0, body?.messages ?? 0);
    const blocks: SimBlock[] = [
      { key: keyOf(body?.tools ?? null), tokens: entry.parts.tools, breakpoint: true },
      { key: keyOf(body?.system ?? null), tokens: entry.parts.system, breakpoint: true },
      ...messages.map((message, i) => ({
        key: keyOf(message),
        tokens: messageTokens(message),
        breakpoint: i === messages.length - 1,
      })),
    ];
    const usage = cache.send({ t: entry.start, model: entry.model ?? '', blocks, output: entry.received });
    return {
      ...entry,
      input: {
        uncached: usage.input_tokens,
        cacheRead: usage.cache_read_input_tokens,
        cacheWrite: usage.cache_creation_input_tokens,
      },
      sent: usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens,
      simulated: true as const,
      usage,
    };
  });
  made.set(record, { events: record.events.length, calls });
  return calls;
}

/** The simulated usage of one call (agent, n from 1), or null. */
export function simulatedUsage(record: RunRecord, agent: string, n: number): SimUsage | null {
  return simulatedCalls(record).find((call) => call.agent === agent && call.n === n)?.usage ?? null;
}
