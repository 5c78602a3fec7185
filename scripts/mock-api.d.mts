/** Types of scripts/mock-api.mjs, for the tests that start it in-process. */

export declare const SCENARIOS: readonly string[];

export interface MockRequestRecord {
  method: string;
  path: string;
  /** Request headers, lower-case, with authorization / x-api-key / cookie as `[redacted]`. */
  headers: Record<string, string>;
  /** The JSON body as received (or its text when it was not JSON). */
  body: unknown;
  /** Set when it came in under /no-cors/ (or the mock runs with `cors: false`). */
  noCors?: boolean;
  /** Which scenario answered. */
  scenario?: string;
  /**
   * What was sent back: the complete message (also when streamed) or the error body; `dropped`
   * when the connection was cut mid-stream (mock-drop).
   */
  response?: { status: number; body: unknown; dropped?: boolean };
}

export interface MockApi {
  /** The base URL to give the SDK, e.g. `http://127.0.0.1:41800`. */
  url: string;
  port: number;
  requests(): MockRequestRecord[];
  clearRequests(): void;
  /** How many connections are open (a client that goes away closes its own). */
  connections(): Promise<number>;
  close(): Promise<void>;
}

export declare function startMockApi(options?: {
  port?: number;
  scenario?: string;
  retryAfterMs?: number;
  /** false: no path answers CORS (as `--no-cors`); /no-cors/... never does. */
  cors?: boolean;
  log?: (line: string) => void;
}): Promise<MockApi>;
