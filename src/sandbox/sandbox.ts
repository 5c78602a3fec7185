/**
 * One interface, two backends: the offline shell (`local/`, just-bash over an in-memory
 * filesystem) and WebContainer (`webcontainer/`). The agents' tools (src/core/tools.ts) only
 * ever talk to this interface, so both backends give the model the same results.
 *
 * Paths given to a Sandbox are absolute; the tools resolve the model's relative paths against
 * `workdir` and refuse the ones that escape it before they get here.
 */
import type { AgentId } from '../core/messages';
import type { ExecOptions, ExecResult, ToolSandbox } from '../core/tools';

export type SandboxKind = 'local' | 'webcontainer';

export type { ExecOptions, ExecResult };

export type FileChangeKind = 'create' | 'modify' | 'delete';

/** One change to the shared filesystem, for the Files view. */
export interface FileChange {
  path: string;
  kind: FileChangeKind;
  /** The agent whose tool call made the change, or `user` for the learner, `system` for set-up. */
  agent: AgentId;
}

export interface FileEntry {
  /** Absolute path. */
  path: string;
  type: 'file' | 'directory';
  size: number;
}

/** Part of a file: its bytes from some offset, and the size of the whole file. */
export interface FileSlice {
  size: number;
  bytes: Uint8Array;
}

/** What the page's file viewer reads with; the agents' tools read text (readFile). */
export interface ByteReader {
  /**
   * Reads `length` bytes of a file from `offset`, and the file's size: the viewer pages through a
   * large file without copying all of it between threads.
   */
  readBytes(path: string, offset: number, length: number): Promise<FileSlice>;
}

/** The part of `data` that `readBytes(path, offset, length)` returns. */
export function sliceOf(data: Uint8Array, offset: number, length: number): FileSlice {
  const start = Math.min(Math.max(0, Math.floor(offset)), data.length);
  const end = Math.min(data.length, start + Math.max(0, Math.floor(length)));
  return { size: data.length, bytes: data.slice(start, end) };
}

/** A backend: the tools' sandbox (src/core/tools.ts), plus what the screen and the workers need. */
export interface Sandbox extends ToolSandbox {
  readonly kind: SandboxKind;
  exists(path: string): Promise<boolean>;
  /** Every file and directory below `workdir`, sorted by path. */
  list(): Promise<FileEntry[]>;
  /** Subscribes to changes; returns the unsubscribe function. */
  onChange(listener: (change: FileChange) => void): () => void;
  dispose(): void;
}

/** A sample project as data: paths relative to the project directory, and file contents. */
export type ProjectFiles = Record<string, string>;
