/** Types of scripts/records.mjs: run records made to measure (see there). */

/** A run record as src/run/record.ts declares it (kept loose here: the app checks it on opening). */
export interface MadeRecord {
  format: 's04-playground-run';
  version: 2;
  id: string;
  startedAt: number;
  title: string;
  settings: Record<string, unknown>;
  events: Array<{ t: number; type: string } & Record<string, unknown>>;
}

export declare function parentCallsRecord(calls: number, resultChars: number): MadeRecord;
export declare function bigRecord(): MadeRecord;
export declare function parallelRecord(n: number): MadeRecord;
export declare function logRecord(lines: number, type?: 'log' | 'error'): MadeRecord;
export declare function textDeltasRecord(deltas: number, perCall?: number): MadeRecord;
export declare function toolCallsRecord(calls: number): MadeRecord;
export declare const recordShapes: Record<string, () => MadeRecord>;
