/**
 * The story of a record: every event must make sense after the ones before it (an agent spawned
 * before it acts, a tool ended only once started, a delta only into a block begun, nothing
 * rewritten after the run finished). The first that does not is refused, naming the event.
 */
import type { Message } from '../core/messages';
import type { RecordEvent, RunStatus } from './record';
import { RecordError } from './record-error';

/** Whether a status ends the run (what a late event may not change). */
function isOver(status: RunStatus): boolean {
  return status.kind === 'finished';
}

/**
 * Checks that every event makes sense after the ones before it. One pass that makes nothing for
 * a log line, an error or a delta (a 25 MB record holds a quarter of a million of them): an event's
 * place, for the sentence, is made only when one is written; a tool call is kept by its id under
 * its agent, not under a key joined for each.
 */
export function checkStory(events: readonly RecordEvent[]): void {
  const arrays = new Map<string, Message[]>([['parent', []]]);
  /** For each agent, the blocks of the response it is streaming (since its last model_start). */
  const blocks = new Map<string, Set<number>>();
  /** For each agent, its tool calls started and not yet ended, by id. */
  const tools = new Map<string, Set<string>>();
  const tasks = new Set<string>();
  let finished = false;
  let last = 0;
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    if (event.t < last) throw new RecordError('timeBackwards', at(i, event));
    last = event.t;
    if (event.type === 'status') finished = isOver(event.status);
    if (event.type === 'spawn') {
      if (arrays.has(event.agent))
        throw new RecordError('spawnedTwice', { ...at(i, event), agent: event.agent });
      if (!arrays.has(event.from))
        throw new RecordError('neverExisted', { ...at(i, event), agent: event.from });
      arrays.set(event.agent, [...event.messages]);
      continue;
    }
    if (!('agent' in event)) continue;
    const messages = arrays.get(event.agent);
    if (!messages) throw new RecordError('neverSpawned', { ...at(i, event), agent: event.agent });
    switch (event.type) {
      case 'model_start':
        blocks.set(event.agent, new Set());
        continue;
      case 'stream': {
        const streamed = event.event;
        if (streamed.type === 'block_start') {
          let open = blocks.get(event.agent);
          if (!open) blocks.set(event.agent, (open = new Set()));
          open.add(streamed.index);
        } else if (
          (streamed.type === 'text_delta' ||
            streamed.type === 'thinking_delta' ||
            streamed.type === 'input_json_delta') &&
          !blocks.get(event.agent)?.has(streamed.index)
        ) {
          throw new RecordError('deltaWithoutBlock', {
            ...at(i, event),
            index: streamed.index,
            agent: event.agent,
          });
        }
        continue;
      }
      case 'tool_start': {
        let started = tools.get(event.agent);
        if (!started) tools.set(event.agent, (started = new Set()));
        started.add(event.id);
        continue;
      }
      case 'tool_end':
        if (!tools.get(event.agent)?.delete(event.id)) {
          throw new RecordError('toolNotStarted', { ...at(i, event), id: event.id, agent: event.agent });
        }
        continue;
      case 'task_start':
        tasks.add(event.id);
        continue;
      case 'task_end':
        if (!tasks.delete(event.id)) throw new RecordError('unknownTask', { ...at(i, event), id: event.id });
        continue;
      case 'message':
        break;
      default:
        continue;
    }
    if (event.index > messages.length) {
      throw new RecordError('messageGap', {
        ...at(i, event),
        index: event.index,
        agent: event.agent,
        expected: messages.length,
      });
    }
    if (finished && event.index < messages.length) {
      throw new RecordError('rewrittenAfterFinish', {
        ...at(i, event),
        index: event.index,
        agent: event.agent,
      });
    }
    messages.length = event.index;
    const { message } = event;
    if (message.role === 'user' && Array.isArray(message.content)) {
      const before = messages[event.index - 1];
      for (const block of message.content) {
        if (block.type === 'tool_result' && !usesTool(before, block.tool_use_id)) {
          throw new RecordError('orphanResult', { ...at(i, event), id: block.tool_use_id });
        }
      }
    }
    messages.push(message);
  }
}

/** Where a refusal names an event: made only for its sentence. */
function at(i: number, event: RecordEvent): { event: number; type: string } {
  return { event: i + 1, type: event.type };
}

/** Whether `message` is the assistant's and calls the tool `id`. */
function usesTool(message: Message | undefined, id: string): boolean {
  if (message?.role !== 'assistant') return false;
  for (const block of message.content) if (block.type === 'tool_use' && block.id === id) return true;
  return false;
}
