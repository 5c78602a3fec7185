/**
 * The session worker: reads the files of a Claude Code session and converts them into a run
 * record off the page's thread (a 50 MB session is a few hundred thousand lines of JSON), telling
 * the page how far it got. One worker per opening; the page terminates it after the answer.
 */
import * as Comlink from 'comlink';
import { checkRecord, megabytes } from '../../run/check';
import { sessionRecord, SessionError, type SessionFile, type SessionProblem } from '../../run/claude-code';
import { MAX_SESSION_LINE_BYTES, readWithinLineBudget } from '../../run/claude-code/lines';
import { batches } from '../../run/opening';
import { outgoing } from '../../run/outgoing';
import type { SessionAnswer, SessionInput, SessionWorkerApi } from './protocol';

/** A path's last part: the file's name. */
function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

const api: SessionWorkerApi = {
  async open(inputs: SessionInput[], secrets, onProgress, onEvents): Promise<SessionAnswer> {
    const total = inputs.reduce((sum, input) => sum + input.file.size, 0);
    // Reading the bytes is half the work, parsing and converting them the other half.
    let done = 0;
    const files: SessionFile[] = [];
    const long: SessionProblem[] = [];
    for (const input of inputs) {
      // Read as a stream: a line over its budget is dropped as it comes, never held or parsed.
      let read: Awaited<ReturnType<typeof readWithinLineBudget>>;
      try {
        read = await readWithinLineBudget(input.file.stream(), MAX_SESSION_LINE_BYTES, (bytes) => {
          done += bytes / 2;
          onProgress(done, total);
        });
      } catch (error) {
        // One file the browser cannot read (changed or removed since it was picked) is left out.
        const reason = error instanceof Error ? error.message || error.name : String(error);
        files.push({ path: input.path, text: '', unreadable: reason });
        continue;
      }
      files.push({ path: input.path, text: read.text });
      if (read.long.count) {
        long.push({
          code: 'longLines',
          params: {
            name: baseName(input.path),
            count: read.long.count,
            line: read.long.first,
            max: megabytes(MAX_SESSION_LINE_BYTES),
          },
        });
      }
    }
    const textChars = files.reduce((sum, file) => sum + file.text.length, 0) || 1;
    let read = 0;
    try {
      const opened = sessionRecord(files, (n) => {
        read += n;
        onProgress(total / 2 + (read / textChars) * (total / 2), total);
      });
      // Checked here as any imported run is (shape and story), off the page's thread too.
      // Clamped and cleaned of secrets here too (src/run/outgoing.ts), before it is measured.
      const { record, removed } = outgoing(checkRecord(opened.record), secrets);
      // In batches, each with its messages' sizes: no one message is a long task for the page.
      const sent: Array<Promise<void> | void> = [];
      for (const batch of batches(record.events)) sent.push(onEvents(batch.events, batch.sizes));
      await Promise.all(sent);
      const { events, ...head } = record;
      return { ok: true, head, events: events.length, problems: [...long, ...opened.problems], removed };
    } catch (error) {
      if (error instanceof SessionError) return { ok: false, code: error.code, params: error.params };
      throw error;
    }
  },
};

Comlink.expose(api);
