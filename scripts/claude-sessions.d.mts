/** Types of scripts/claude-sessions.mjs: Claude Code sessions made to measure (see there). */

/** A session's files by their path inside the session's folder. */
export type SessionFiles = Record<string, string>;

export declare function claudeSession(options?: {
  withThird?: boolean;
  padding?: number;
  reads?: number;
}): SessionFiles;
export declare function sidechainSession(): SessionFiles;
export declare function bigSession(megabytes?: number): SessionFiles;
export declare const SESSION_ID: string;
export declare function interleavedSession(): SessionFiles;
export declare function olderSidechainSession(): SessionFiles;
export declare function untypedSession(): SessionFiles;
export declare const INTERLEAVED_ID: string;
export declare const OLDER_ID: string;
export declare function backgroundSession(): SessionFiles;
