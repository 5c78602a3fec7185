/**
 * Prompt caching on request (URL `cache=on`, Settings "Prompt caching"): the request's parts marked
 * as Anthropic's prompt caching docs describe, so that the API keeps the prefix for 5 minutes and
 * the next call reads it at a tenth of the input rate instead of sending it again at full price.
 *
 *   tools:    the last tool gets  cache_control: {type: 'ephemeral'}   (tools come first in the prefix)
 *   system:   one text block, marked
 *   messages: the last content block of the last message, marked      (the conversation so far)
 *
 * Three breakpoints of the four the API allows. Only the body sent is marked: the agent's array is
 * never changed, so a fork's child, whose array is a copy of its caller's, starts from the same
 * bytes whether caching is on or off. Without the option the body stays the reference's exactly.
 */
import type { ModelRequest } from '../core/model';

export const EPHEMERAL = { type: 'ephemeral' } as const;

/** The request's system, tools and messages with cache breakpoints, copied (the request is untouched). */
export function withCacheBreakpoints(request: ModelRequest): Record<string, unknown> {
  const tools = request.tools.map((tool, i, all) =>
    i === all.length - 1 ? { ...tool, cache_control: EPHEMERAL } : tool,
  );
  const messages = request.messages.map((message, i, all) => {
    if (i !== all.length - 1) return message;
    const blocks =
      typeof message.content === 'string'
        ? [{ type: 'text' as const, text: message.content }]
        : (message.content as unknown as Array<Record<string, unknown>>);
    if (blocks.length === 0) return message;
    return {
      ...message,
      content: blocks.map((block, j) =>
        j === blocks.length - 1 ? { ...block, cache_control: EPHEMERAL } : block,
      ),
    };
  });
  return {
    ...request,
    system: [{ type: 'text', text: request.system, cache_control: EPHEMERAL }],
    tools,
    messages,
  };
}
