/** The mock API's replies sent as the Messages API sends them: one JSON message, or its SSE events. */

const tokens = (value) => Math.max(1, Math.ceil(JSON.stringify(value ?? '').length / 4));

/** Splits a string into pieces of `size` characters (at least one piece, possibly empty). */
function split(text, size) {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length ? out : [''];
}

// ---------------------------------------------------------------------------------------------
// Replies: a complete message, sent as JSON or as the API's SSE events.

export function fullMessage(reply, body, index) {
  // A block's `partial_json` is what a stream sends of a cut input: never part of the message.
  const content = reply.content.map(({ partial_json: _, ...block }) => block);
  const cached = body.messages.length > 1 ? tokens(body.messages.slice(0, -1)) : 0;
  const input = tokens([body.system, body.tools, body.messages]);
  return {
    id: reply.id ?? `msg_mock_${String(index).padStart(4, '0')}`,
    type: 'message',
    role: 'assistant',
    model: reply.model ?? body.model,
    content,
    stop_reason: reply.stop_reason,
    stop_sequence: null,
    ...(reply.stop_details && { stop_details: reply.stop_details }),
    usage: reply.usage ?? {
      input_tokens: Math.max(1, input - cached),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: cached,
      output_tokens: tokens(content),
    },
  };
}

function emptyOf(block) {
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
 * Every SSE event of a message, in the API's order. `partialJson` (by block index) is the input a
 * reply cut at max_tokens sent of a tool_use, in place of its whole input.
 */
export function* sseEvents(message, partialJson = {}) {
  const { content, stop_reason, stop_details, usage, ...head } = message;
  const { output_tokens, ...inputUsage } = usage;
  yield [
    'message_start',
    {
      type: 'message_start',
      message: { ...head, content: [], stop_reason: null, usage: { ...inputUsage, output_tokens: 1 } },
    },
  ];
  yield ['ping', { type: 'ping' }];
  for (const [index, block] of content.entries()) {
    yield ['content_block_start', { type: 'content_block_start', index, content_block: emptyOf(block) }];
    const delta = (d) => ['content_block_delta', { type: 'content_block_delta', index, delta: d }];
    if (block.type === 'text') {
      for (const text of split(block.text, 16)) yield delta({ type: 'text_delta', text });
    } else if (block.type === 'thinking') {
      for (const thinking of split(block.thinking, 24)) yield delta({ type: 'thinking_delta', thinking });
      yield delta({ type: 'signature_delta', signature: block.signature });
    } else if (block.type === 'tool_use') {
      const json = partialJson[index] ?? JSON.stringify(block.input);
      yield delta({ type: 'input_json_delta', partial_json: '' });
      for (const part of split(json, Math.max(1, Math.ceil(json.length / 3)))) {
        yield delta({ type: 'input_json_delta', partial_json: part });
      }
    }
    yield ['content_block_stop', { type: 'content_block_stop', index }];
    yield ['ping', { type: 'ping' }];
  }
  yield [
    'message_delta',
    {
      type: 'message_delta',
      delta: { stop_reason, stop_sequence: null, ...(stop_details && { stop_details }) },
      usage: { output_tokens },
    },
  ];
  yield ['message_stop', { type: 'message_stop' }];
}
