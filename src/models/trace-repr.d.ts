import type { AssistantBlock } from '../core/messages';

/** Parses a recorded Python repr of a thinking or redacted_thinking block. */
export function parseReprBlock(raw: string): AssistantBlock;
