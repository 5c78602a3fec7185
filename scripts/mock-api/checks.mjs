/** The mock API's checks of a request: what the real API would refuse, and its error replies. */
import { createHash } from 'node:crypto';

/** An error reply shaped like Anthropic's: `{type: "error", error: {type, message}}`. */
export class ApiError extends Error {
  constructor(status, type, message, headers = {}) {
    super(message);
    this.status = status;
    this.type = type;
    this.headers = headers;
  }
  body(requestId) {
    return { type: 'error', error: { type: this.type, message: this.message }, request_id: requestId };
  }
}

// ---------------------------------------------------------------------------------------------
// Thinking blocks: signed so that a block changed on its way back is caught, like the real API.

const SIGNATURE_PREFIX = 'mocksig_';

function sign(thinking) {
  return SIGNATURE_PREFIX + createHash('sha256').update(thinking).digest('hex').slice(0, 40);
}

export function thinkingBlocks(n, about) {
  const thinking = `Thinking about step ${n}: ${about}`;
  return [
    { type: 'thinking', thinking, signature: sign(thinking) },
    {
      type: 'redacted_thinking',
      data: `mockredacted_${Buffer.from(`hidden reasoning ${n}`).toString('base64')}`,
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Request checks: what the real API would refuse.

const BLOCK_FIELDS = {
  text: ['type', 'text', 'citations', 'cache_control'],
  tool_use: ['type', 'id', 'name', 'input', 'cache_control', 'caller'],
  thinking: ['type', 'thinking', 'signature'],
  redacted_thinking: ['type', 'data'],
  tool_result: ['type', 'tool_use_id', 'content', 'is_error', 'cache_control'],
};

export function invalid(message) {
  return new ApiError(400, 'invalid_request_error', message);
}

export function checkRequest(body) {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw invalid('The request body must be a JSON object');
  if (typeof body.model !== 'string' || !body.model) throw invalid('model: Field required');
  if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1) throw invalid('max_tokens: Field required');
  if (!Array.isArray(body.messages) || body.messages.length === 0) throw invalid('messages: Field required');
  if (body.thinking?.type === 'enabled') {
    const budget = body.thinking.budget_tokens;
    if (!Number.isInteger(budget) || budget < 1024) throw invalid('thinking.budget_tokens: must be ≥ 1024');
    if (budget >= body.max_tokens)
      throw invalid('`max_tokens` must be greater than `thinking.budget_tokens`');
  }
  body.messages.forEach((message, i) => {
    if (message?.role !== (i % 2 === 0 ? 'user' : 'assistant')) {
      throw invalid(
        `messages.${i}.role: roles must alternate between "user" and "assistant", starting with "user"`,
      );
    }
    if (typeof message.content === 'string') return;
    if (!Array.isArray(message.content))
      throw invalid(`messages.${i}.content: Input should be a string or a list`);
    const finalAssistant = i === body.messages.length - 1 && message.role === 'assistant';
    if (message.content.length === 0 && !finalAssistant) {
      throw invalid(
        `messages.${i}: all messages must have non-empty content except for the optional final assistant message`,
      );
    }
    message.content.forEach((block, j) => {
      const allowed = BLOCK_FIELDS[block?.type];
      if (!allowed) return;
      for (const key of Object.keys(block)) {
        if (!allowed.includes(key))
          throw invalid(`messages.${i}.content.${j}.${block.type}.${key}: Extra inputs are not permitted`);
      }
      if (block.type === 'thinking') {
        const forged =
          block.signature?.startsWith(SIGNATURE_PREFIX) && block.signature !== sign(block.thinking);
        if (typeof block.signature !== 'string' || !block.signature || forged) {
          throw invalid(`messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`);
        }
      }
    });
    const uses = message.role === 'assistant' ? message.content.filter((b) => b?.type === 'tool_use') : [];
    if (uses.length === 0) return;
    const next = body.messages[i + 1];
    if (!next) return;
    const answered = new Set(
      Array.isArray(next.content)
        ? next.content.filter((b) => b?.type === 'tool_result').map((b) => b.tool_use_id)
        : [],
    );
    const missing = uses.filter((u) => !answered.has(u.id)).map((u) => u.id);
    if (missing.length) {
      throw invalid(
        `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}`,
      );
    }
  });
}
