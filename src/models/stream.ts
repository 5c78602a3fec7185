/**
 * Streams a complete response as content_block events, the way the API would, so that models
 * that know their answer up front (demo, replay) look alive on screen.
 */
import type { AssistantBlock } from '../core/messages';
import type { ModelCallOptions, ModelResponse } from '../core/model';

/** Waits `ms`, or rejects as AbortError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException('Stopped', 'AbortError'));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new DOMException('Stopped', 'AbortError'));
      },
      { once: true },
    );
  });
}

/** Splits text into word-sized chunks for streaming. */
export function chunks(text: string, size = 24): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function emptyOf(block: AssistantBlock): AssistantBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: '' };
    case 'thinking':
      return { type: 'thinking', thinking: '', signature: '' };
    case 'tool_use':
      return { ...block, input: {} };
    default:
      return block;
  }
}

/**
 * Emits block_start, deltas and block_stop for each block, pausing `delayMs` between chunks
 * (0 = no pauses at all), then resolves with a copy of the response.
 */
export async function streamResponse(
  response: ModelResponse,
  { signal, onStream }: ModelCallOptions,
  delayMs: number,
): Promise<ModelResponse> {
  const pause = async () => {
    if (delayMs > 0) await sleep(delayMs, signal);
    else if (signal?.aborted) throw new DOMException('Stopped', 'AbortError');
  };
  for (const [index, block] of response.content.entries()) {
    onStream?.({ type: 'block_start', index, block: emptyOf(block) });
    if (block.type === 'text') {
      for (const text of chunks(block.text)) {
        await pause();
        onStream?.({ type: 'text_delta', index, text });
      }
    } else if (block.type === 'thinking') {
      for (const thinking of chunks(block.thinking)) {
        await pause();
        onStream?.({ type: 'thinking_delta', index, thinking });
      }
    } else if (block.type === 'tool_use') {
      await pause();
      onStream?.({ type: 'input_json_delta', index, partial_json: JSON.stringify(block.input) });
    }
    onStream?.({ type: 'block_stop', index });
  }
  await pause();
  return structuredClone(response);
}
