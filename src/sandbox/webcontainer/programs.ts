/**
 * The programs one exec of the WebContainer backend hands to WebContainer (`node`, `npm`, `npx`,
 * `python3`, `jsh`): spawned there, their output (stdout and stderr mixed, ANSI stripped, capped)
 * collected, and killed at the exec's deadline or when the run is stopped. The shell's stdin is
 * not forwarded (`echo x | node` gives node no input).
 */
import type { WebContainerProcess } from '@webcontainer/api';
import { isWithin, normalize } from '../paths';
import type { WebContainerLike } from './boot';

/** The most output kept from one spawned program (the tools cut results to 50,000 anyway). */
export const PROCESS_OUTPUT_CAP = 1_000_000;

/** Exit code of a command stopped by the user, as a shell reports SIGINT. */
export const EXIT_STOPPED = 130;
/** Exit code of a program killed at the deadline, as coreutils' `timeout` reports it. */
export const EXIT_TIMED_OUT = 124;
/** How long the output of a program that has exited may still trickle in. */
const OUTPUT_GRACE_MS = 500;

/** Variables the shell owns; the rest of its exported environment is passed to programs. */
const SHELL_OWNED = new Set([
  'PATH',
  'HOME',
  'PWD',
  'OLDPWD',
  'SHLVL',
  'USER',
  'TMPDIR',
  'SHELL',
  'IFS',
  '_',
]);

/**
 * A terminal's output as plain text: escape sequences (colours, cursor moves, titles) removed,
 * CRLF as LF, and a line redrawn with `\r` (a progress bar) kept as its last state.
 */
export function stripAnsi(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '') // OSC: titles, hyperlinks
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '') // CSI: colours, cursor
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b[@-Z\\-_]/g, '')
      .replace(/\r+\n/g, '\n')
      .split('\n')
      .map((line) => line.slice(line.lastIndexOf('\r') + 1))
      .join('\n')
  );
}

/**
 * The programs one exec hands to WebContainer: each is spawned, its output collected, and it is
 * killed at the exec's deadline or when the run is stopped.
 */
export class SpawnedPrograms {
  timedOut = false;
  readonly #live = new Set<WebContainerProcess>();

  constructor(
    readonly wc: WebContainerLike,
    readonly workdir: string,
    readonly deadline: number,
    readonly signal: AbortSignal | undefined,
  ) {}

  async run(
    name: string,
    args: string[],
    cwd: string,
    exported: Record<string, string> | undefined,
    commandSignal: AbortSignal | undefined,
  ): Promise<{ stdout: string; stderr: string; exitCode: number }> {
    const signals = [this.signal, commandSignal].filter((s): s is AbortSignal => !!s);
    const remaining = this.deadline - Date.now();
    if (remaining <= 0) {
      this.timedOut = true;
      return {
        stdout: '',
        stderr: `${name}: not started: the command's time is up\n`,
        exitCode: EXIT_TIMED_OUT,
      };
    }
    if (signals.some((s) => s.aborted)) return { stdout: '', stderr: '', exitCode: EXIT_STOPPED };

    const env = Object.fromEntries(Object.entries(exported ?? {}).filter(([key]) => !SHELL_OWNED.has(key)));
    // spawn's cwd is relative to the project; outside it (say /tmp, which only the shell has) the
    // program starts in the project.
    const where = normalize(cwd);
    const relative = isWithin(this.workdir, where) ? where.slice(this.workdir.length + 1) || '.' : '.';
    const process = await this.wc.spawn(name, args, { cwd: relative, env });
    this.#live.add(process);
    void process.exit.then(
      () => this.#live.delete(process),
      () => this.#live.delete(process),
    );

    let text = '';
    const reader = process.output.getReader();
    const drained = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        if (text.length < PROCESS_OUTPUT_CAP) text += value;
      }
    })().catch(() => {});

    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort = () => {};
    const outcome = await new Promise<number | 'timeout' | 'stopped'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), remaining);
      onAbort = () => resolve('stopped');
      for (const s of signals) s.addEventListener('abort', onAbort, { once: true });
      process.exit.then(resolve, () => resolve(1));
    });
    clearTimeout(timer);
    for (const s of signals) s.removeEventListener('abort', onAbort);

    if (typeof outcome === 'number') {
      let grace: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([drained, new Promise((resolve) => (grace = setTimeout(resolve, OUTPUT_GRACE_MS)))]);
      clearTimeout(grace);
    } else {
      // A killed process may never report its exit: nothing here waits for it.
      process.kill();
      this.#live.delete(process);
    }
    void reader.cancel().catch(() => {});
    const stdout = stripAnsi(text.slice(0, PROCESS_OUTPUT_CAP));
    if (outcome === 'timeout') {
      this.timedOut = true;
      return {
        stdout,
        stderr: `${name}: killed: the command's time is up\n`,
        exitCode: EXIT_TIMED_OUT,
      };
    }
    if (outcome === 'stopped') return { stdout, stderr: '', exitCode: EXIT_STOPPED };
    return { stdout, stderr: '', exitCode: outcome };
  }

  /** Kills whatever is still running (the exec ended, by a deadline or otherwise). */
  killAll(): void {
    for (const process of this.#live) process.kill();
    this.#live.clear();
  }
}
