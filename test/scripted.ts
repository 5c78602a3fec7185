/**
 * Test doubles for the core: a scripted model that records every request it receives.
 * Used by the core's tests and by anything that needs a model without a network.
 */
import type { AssistantBlock, Usage } from '../src/core/messages';
import type { ModelCallOptions, ModelClient, ModelRequest, ModelResponse } from '../src/core/model';
import { streamResponse } from '../src/models/stream';

export type ScriptStep =
  | ModelResponse
  | Error
  | ((request: ModelRequest, options: ModelCallOptions) => ModelResponse | Promise<ModelResponse>);

/** A model that answers with the given steps in order (an Error step is thrown). */
export class ScriptedModel implements ModelClient {
  readonly label = 'scripted (test)';
  readonly requests: ModelRequest[] = [];
  #steps: ScriptStep[];

  constructor(steps: ScriptStep[]) {
    this.#steps = [...steps];
  }

  async createMessage(request: ModelRequest, options: ModelCallOptions = {}): Promise<ModelResponse> {
    this.requests.push(structuredClone(request));
    const step = this.#steps.shift();
    if (step === undefined) throw new Error(`ScriptedModel ran out of steps at call ${this.requests.length}`);
    if (step instanceof Error) throw step;
    const response = typeof step === 'function' ? await step(request, options) : step;
    return streamResponse(response, options, 0);
  }
}

let nextId = 0;

/** A tool_use block with a fresh id. */
export function toolUse(name: string, input: unknown, id = `toolu_${++nextId}`): AssistantBlock {
  return { type: 'tool_use', id, name, input };
}

/** A response that calls tools. */
export function callsTools(...blocks: AssistantBlock[]): ModelResponse {
  return { content: blocks, stop_reason: 'tool_use', usage: usage() };
}

/** A response that ends the loop with text. */
export function says(text: string, stop_reason = 'end_turn'): ModelResponse {
  return { content: [{ type: 'text', text }], stop_reason, usage: usage() };
}

function usage(): Usage {
  return { input_tokens: 10, output_tokens: 5 };
}
