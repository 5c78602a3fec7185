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

/** Checks that every event makes sense after the ones before it. */
export function checkStory(events: readonly RecordEvent[]): void {
  const arrays = new Map<string, Message[]>([['parent', []]]);
  /** For each agent, the blocks of the response it is streaming (since its last model_start). */
  const blocks = new Map<string, Set<number>>();
  /** Tool calls started and not yet ended, as `agent id`. */
  const tools = new Set<string>();
  const tasks = new Set<string>();
  let finished = false;
  let last = 0;
  events.forEach((event, i) => {
    const at = { event: i + 1, type: event.type };
    if (event.t < last) throw new RecordError('timeBackwards', at);
    last = event.t;
    if (event.type === 'status') finished = isOver(event.status);
    if (event.type === 'spawn') {
      if (arrays.has(event.agent)) throw new RecordError('spawnedTwice', { ...at, agent: event.agent });
      if (!arrays.has(event.from)) throw new RecordError('neverExisted', { ...at, agent: event.from });
      arrays.set(event.agent, [...event.messages]);
      return;
    }
    if (!('agent' in event)) return;
    const messages = arrays.get(event.agent);
    if (!messages) throw new RecordError('neverSpawned', { ...at, agent: event.agent });
    switch (event.type) {
      case 'model_start':
        blocks.set(event.agent, new Set());
        return;
      case 'stream': {
        const streamed = event.event;
        if (streamed.type === 'block_start') {
          if (!blocks.has(event.agent)) blocks.set(event.agent, new Set());
          blocks.get(event.agent)!.add(streamed.index);
        } else if (
          (streamed.type === 'text_delta' ||
            streamed.type === 'thinking_delta' ||
            streamed.type === 'input_json_delta') &&
          !blocks.get(event.agent)?.has(streamed.index)
        ) {
          throw new RecordError('deltaWithoutBlock', { ...at, index: streamed.index, agent: event.agent });
        }
        return;
      }
      case 'tool_start':
        tools.add(`${event.agent} ${event.id}`);
        return;
      case 'tool_end':
        if (!tools.delete(`${event.agent} ${event.id}`)) {
          throw new RecordError('toolNotStarted', { ...at, id: event.id, agent: event.agent });
        }
        return;
      case 'task_start':
        tasks.add(event.id);
        return;
      case 'task_end':
        if (!tasks.delete(event.id)) throw new RecordError('unknownTask', { ...at, id: event.id });
        return;
      case 'message':
        break;
      default:
        return;
    }
    if (event.index > messages.length) {
      throw new RecordError('messageGap', {
        ...at,
        index: event.index,
        agent: event.agent,
        expected: messages.length,
      });
    }
    if (finished && event.index < messages.length) {
      throw new RecordError('rewrittenAfterFinish', { ...at, index: event.index, agent: event.agent });
    }
    messages.length = event.index;
    const { message } = event;
    if (message.role === 'user' && Array.isArray(message.content)) {
      const before = messages[event.index - 1];
      const uses = new Set(
        before?.role === 'assistant'
          ? before.content.filter((b) => b.type === 'tool_use').map((b) => (b as { id: string }).id)
          : [],
      );
      for (const block of message.content) {
        if (block.type === 'tool_result' && !uses.has(block.tool_use_id)) {
          throw new RecordError('orphanResult', { ...at, id: block.tool_use_id });
        }
      }
    }
    messages.push(message);
  });
}
