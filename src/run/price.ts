/**
 * What a run cost in money, read from the call ledger (./ledger.ts): each call's uncached input,
 * cache write, cache read and output, each at its own rate per million tokens. A call the API did
 * not count in parts (an estimate, or a reply without cache fields) is all uncached input.
 *
 * The default rates are Anthropic's published prices for the models the playground suggests, as
 * read on PRICES_READ (docs/protocol.md, "What a run costs"); the learner may change them in
 * Settings, and add a row for any other model id. A model with no row is not priced: its
 * tokens are shown, and the screen says that it has no price.
 */
import { simulatedCalls, simulatesCache } from './cache-figures';
import type { CallEntry } from './ledger';
import { modelCalls } from './measures';
import type { RunRecord } from './record';

/** US dollars per million tokens, for each kind of token a call is billed for. */
export interface Price {
  input: number;
  output: number;
  /** Writing the prompt cache (5-minute lifetime). */
  cacheWrite: number;
  /** Reading the prompt cache (a cache hit). */
  cacheRead: number;
}

/** One row of the price table: a model id and its rates. */
export interface PriceRow extends Price {
  model: string;
}

/** The price fields, in the order Settings shows them. */
export const PRICE_FIELDS = ['input', 'output', 'cacheWrite', 'cacheRead'] as const;
export type PriceField = (typeof PRICE_FIELDS)[number];

/** When the default prices were read from Anthropic's pricing pages. */
export const PRICES_READ = '2026-11-29';

/**
 * Anthropic's published prices (USD per million tokens) for the Claude models Settings suggests,
 * read on PRICES_READ. Haiku 5.5's are those of a prompt up to 100,000 tokens.
 */
export const DEFAULT_PRICES: readonly PriceRow[] = [
  { model: 'claude-opus-5-5', input: 4, output: 20, cacheWrite: 5, cacheRead: 0.2 },
  { model: 'claude-sonnet-5-5', input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.1 },
  { model: 'claude-haiku-5-5', input: 0.1, output: 0.5, cacheWrite: 0.125, cacheRead: 0.01 },
];

/** The rates of `model` in `table`, or null when it has none (its cost is then unknown). */
export function priceOf(table: readonly PriceRow[], model: string | null): Price | null {
  if (!model) return null;
  const id = model.trim();
  return (id && table.find((row) => row.model.trim() === id)) || null;
}

/** The table Settings starts from: the published prices, and an empty row for any other endpoint's model. */
export function defaultPriceTable(): PriceRow[] {
  return [
    ...DEFAULT_PRICES.map((row) => ({ ...row })),
    { model: '', input: 0, output: 0, cacheWrite: 0, cacheRead: 0 },
  ];
}

/** A stored table, kept only if every row is a model id (possibly empty) with prices of 0 or more. */
export function readPriceTable(value: unknown): PriceRow[] | null {
  if (!Array.isArray(value) || value.length === 0 || value.length > 50) return null;
  const rows: PriceRow[] = [];
  for (const row of value as Array<Record<string, unknown>>) {
    if (typeof row !== 'object' || row === null || typeof row.model !== 'string') return null;
    const prices = PRICE_FIELDS.map((field) => row[field]);
    if (!prices.every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0)) return null;
    rows.push({
      model: row.model,
      input: row.input as number,
      output: row.output as number,
      cacheWrite: row.cacheWrite as number,
      cacheRead: row.cacheRead as number,
    });
  }
  return rows;
}

/** Why a price field's text is refused, or null when it is a price (a number, 0 or more). */
export function priceFieldProblem(text: string): 'notANumber' | null {
  const trimmed = text.trim();
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(trimmed)) return 'notANumber';
  return Number.isFinite(Number(trimmed)) ? null : 'notANumber';
}

/** A run's cost in money, and what it is made of. */
export interface RunPrice {
  /** The whole run in US dollars, over its priced calls. */
  dollars: number;
  /** The part of `dollars` paid for cache reads, and for cache writes. */
  cacheReadDollars: number;
  cacheWriteDollars: number;
  /** How many calls were priced, and the models of those that had no price. */
  priced: number;
  unpriced: string[];
}

/**
 * Prices a run's calls by `table`. `fallbackModel` names the model of a call whose request was
 * not recorded (CallEntry.model null).
 */
export function priceRun(
  calls: readonly CallEntry[],
  table: readonly PriceRow[],
  fallbackModel: string | null = null,
): RunPrice {
  const out: RunPrice = { dollars: 0, cacheReadDollars: 0, cacheWriteDollars: 0, priced: 0, unpriced: [] };
  for (const call of calls) {
    const model = call.model ?? fallbackModel;
    const price = priceOf(table, model);
    if (!price) {
      const name = model ?? '?';
      if (!out.unpriced.includes(name)) out.unpriced.push(name);
      continue;
    }
    const input = call.input ?? { uncached: call.sent, cacheRead: 0, cacheWrite: 0 };
    const read = (input.cacheRead * price.cacheRead) / 1e6;
    const write = (input.cacheWrite * price.cacheWrite) / 1e6;
    out.dollars += (input.uncached * price.input + call.received * price.output) / 1e6 + read + write;
    out.cacheReadDollars += read;
    out.cacheWriteDollars += write;
    out.priced++;
  }
  return out;
}

/** A record's price, and whether its cache figures are simulated (a demo run with caching on). */
export interface RecordPrice extends RunPrice {
  simulated: boolean;
}

/** Prices a record at its end: its ledger's calls, or the demo's simulated cache figures when caching was on. */
export function priceRecord(record: RunRecord, table: readonly PriceRow[]): RecordPrice {
  const simulated = simulatesCache(record);
  const calls = simulated ? simulatedCalls(record) : modelCalls(record).calls;
  return { ...priceRun(calls, table, record.settings.model), simulated };
}

/** The share of a run's price paid for cache reads, in whole percent (0 for a run that cost nothing). */
export function cacheReadShare(price: RunPrice): number {
  return price.dollars > 0 ? Math.round((price.cacheReadDollars / price.dollars) * 100) : 0;
}

/** Dollars as a person reads a small amount: "$0.0041", "$1.23". */
export function formatDollars(dollars: number): string {
  if (dollars === 0) return '$0';
  if (dollars >= 1) return `$${dollars.toFixed(2)}`;
  // Two significant digits below a dollar, so that a fraction of a cent still says something.
  const digits = Math.max(2, 1 - Math.floor(Math.log10(dollars)));
  return `$${dollars.toFixed(digits)}`;
}

/** One mode's figures as Compare shows them. */
export interface ModeFigures {
  mode: 'isolated' | 'none' | 'fork';
  parentContext: number;
  /** Null when the run's model has no price. */
  price: RunPrice | null;
}

/** What a learner should take from a comparison: which mode kept the parent smallest, which cost least, and why. */
export interface CompareLesson {
  smallest: ModeFigures['mode'];
  /** Null when a run could not be priced. */
  cheapest: ModeFigures['mode'] | null;
  /**
   * Why the cheapest is cheapest: `same` it also keeps the parent smallest (nothing the subagent
   * read is sent again); `cacheReads` most of its cost is cache reads; `oneConversation` no
   * subagent starts over with its own prompt, tools and reading.
   */
  why: 'same' | 'cacheReads' | 'oneConversation' | null;
  /** The cheapest run's share of cache reads, in percent. */
  cacheShare: number;
}

/** The lesson of a comparison's finished runs (null with fewer than two). */
export function compareLesson(rows: readonly ModeFigures[]): CompareLesson | null {
  if (rows.length < 2) return null;
  // On a tie (fork's parent keeps what isolated's keeps), the reference's mode is named.
  const order = [...rows].sort((a, b) => Number(b.mode === 'isolated') - Number(a.mode === 'isolated'));
  const smallest = order.reduce((a, b) => (b.parentContext < a.parentContext ? b : a)).mode;
  if (rows.some((row) => !row.price || row.price.unpriced.length > 0)) {
    return { smallest, cheapest: null, why: null, cacheShare: 0 };
  }
  const cheapestRow = order.reduce((a, b) => (b.price!.dollars < a.price!.dollars ? b : a));
  const cacheShare = cacheReadShare(cheapestRow.price!);
  const why =
    cheapestRow.mode === smallest
      ? 'same'
      : cacheShare >= 30
        ? 'cacheReads'
        : cheapestRow.mode === 'none'
          ? 'oneConversation'
          : null;
  return { smallest, cheapest: cheapestRow.mode, why, cacheShare };
}
