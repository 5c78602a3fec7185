/** Types of scripts/mock-api.mjs, for the tests that start it in-process. */

export declare const SCENARIOS: readonly string[];

export interface MockRequestRecord {
  method: string;
  path: string;
  /** Request headers, lower-case, with authorization / x-api-key / cookie as `[redacted]`. */
  headers: Record<string, string>;
  /** The JSON body as received (or its text when it was not JSON). */
  body: unknown;
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
  close(): Promise<void>;
}

export declare function startMockApi(options?: {
  port?: number;
  scenario?: string;
  retryAfterMs?: number;
  log?: (line: string) => void;
}): Promise<MockApi>;
