/**
 * The recorded reference run (public/traces/s04.json) wrote thinking blocks as Python reprs,
 * `{"type": "unknown", "raw": "ThinkingBlock(...)"}`. This parses them back. Plain JavaScript, so
 * that both the app (src/models/replay.ts) and the mock API server (scripts/mock-api.mjs, plain
 * Node) use the one parser.
 */

const ESCAPES = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', 0: '\0' };

function readPythonString(text, start) {
  const quote = text[start];
  if (quote !== "'" && quote !== '"') throw new Error(`Expected a string at ${start}`);
  let out = '';
  let i = start + 1;
  while (i < text.length && text[i] !== quote) {
    if (text[i] !== '\\') {
      out += text[i++];
      continue;
    }
    const next = text[i + 1];
    if (next === 'x' || next === 'u' || next === 'U') {
      const width = next === 'x' ? 2 : next === 'u' ? 4 : 8;
      out += String.fromCodePoint(parseInt(text.slice(i + 2, i + 2 + width), 16));
      i += 2 + width;
    } else {
      out += ESCAPES[next] ?? `\\${next}`;
      i += 2;
    }
  }
  return [out, i + 1];
}

/**
 * Parses `ThinkingBlock(signature='...', thinking="...", type='thinking')` (and the redacted kind)
 * back into the block the API had sent.
 */
export function parseReprBlock(raw) {
  const head = /^(\w+)\((.*)\)$/s.exec(raw);
  if (!head) throw new Error(`Not a block repr: ${raw.slice(0, 40)}`);
  const fields = {};
  let i = 0;
  while (i < head[2].length) {
    const key = /^\s*,?\s*(\w+)=/.exec(head[2].slice(i));
    if (!key) break;
    i += key[0].length;
    const [value, end] = readPythonString(head[2], i);
    fields[key[1]] = value;
    i = end;
  }
  if (fields.type === 'thinking')
    return { type: 'thinking', thinking: fields.thinking ?? '', signature: fields.signature ?? '' };
  if (fields.type === 'redacted_thinking') return { type: 'redacted_thinking', data: fields.data ?? '' };
  throw new Error(`Unknown block repr type: ${fields.type}`);
}
