/**
 * Replay of a recorded run of the reference loop (public/traces/s04.json).
 *
 * The trace holds every request and response of a real run. Replaying its responses through our
 * loops, with each tool answering what it answered then, must reproduce its requests: that is the
 * proof that the playground sends what the reference sends.
 *
 * The recorder wrote thinking blocks as Python reprs (`{"type": "unknown", "raw": "ThinkingBlock(...)"}`);
 * they are turned back into proper `thinking` blocks here.
 */
import type { AgentId, AssistantBlock } from '../core/messages';
import type { ModelCallOptions, ModelClient, ModelRequest, ModelResponse } from '../core/model';
import { streamResponse } from './stream';
import { parseReprBlock } from './trace-repr.js';

export { parseReprBlock };

export interface TraceCycle {
  cycle: number;
  elapsed_ms: number;
  request: ModelRequest & { messages: unknown[] };
  response: {
    id?: string;
    model?: string;
    stop_reason: string | null;
    content: Array<AssistantBlock | { type: 'unknown'; raw: string }>;
    usage?: { input_tokens: number; output_tokens: number };
  };
  tool_executions: Array<{ name: string; input: unknown; output: string }>;
}

export interface Trace {
  version: string;
  prompt: string;
  model: string;
  cycles: TraceCycle[];
}

/** Which loop made a recorded call: the subagent's system prompt says "coding subagent". */
export function cycleLoop(cycle: TraceCycle): 'parent' | 'subagent' {
  return cycle.request.system.startsWith('You are a coding subagent') ? 'subagent' : 'parent';
}

/** The project directory the trace was recorded in, read from its parent system prompt. */
export function traceWorkdir(trace: Trace): string {
  const match = /^You are a coding (?:sub)?agent at (.*?)\. /.exec(trace.cycles[0].request.system);
  if (!match) throw new Error('The trace does not start with an s04 system prompt');
  return match[1];
}

/** A recorded response as the API returned it (thinking blocks restored). */
export function traceResponse(cycle: TraceCycle): ModelResponse {
  return {
    id: cycle.response.id,
    model: cycle.response.model,
    stop_reason: cycle.response.stop_reason,
    usage: cycle.response.usage,
    content: cycle.response.content.map((block) =>
      block.type === 'unknown' ? parseReprBlock((block as { raw: string }).raw) : (block as AssistantBlock),
    ),
  };
}

/**
 * A model that answers each loop's calls with that loop's recorded responses, in order.
 * Calls from the parent get the parent's cycles; calls from any subagent get the subagents'.
 */
export class ReplayModel implements ModelClient {
  readonly label: string;
  #queues: Record<'parent' | 'subagent', ModelResponse[]> = { parent: [], subagent: [] };

  constructor(
    trace: Trace,
    readonly delayMs = 0,
  ) {
    this.label = `replay of ${trace.model}`;
    for (const cycle of trace.cycles) this.#queues[cycleLoop(cycle)].push(traceResponse(cycle));
  }

  async createMessage(request: ModelRequest, options: ModelCallOptions = {}): Promise<ModelResponse> {
    const loop = request.system.startsWith('You are a coding subagent') ? 'subagent' : 'parent';
    const response = this.#queues[loop].shift();
    if (!response) throw new Error(`The recorded run has no more ${loop} responses`);
    return streamResponse(response, options, this.delayMs);
  }
}

/** The recorded tool outputs, per loop, in the order the tools ran. */
export function traceToolOutputs(trace: Trace): Record<'parent' | 'subagent', string[]> {
  const outputs: Record<'parent' | 'subagent', string[]> = { parent: [], subagent: [] };
  for (const cycle of trace.cycles) {
    outputs[cycleLoop(cycle)].push(...cycle.tool_executions.map((t) => t.output));
  }
  return outputs;
}

/** Which loop an agent id belongs to. */
export function loopOf(agent: AgentId): 'parent' | 'subagent' {
  return agent === 'parent' ? 'parent' : 'subagent';
}
