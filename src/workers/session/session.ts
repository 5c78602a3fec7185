/**
 * The session worker: reads the files of a Claude Code session and converts them into a run
 * record off the page's thread (a 50 MB session is a few hundred thousand lines of JSON), telling
 * the page how far it got. One worker per opening; the page terminates it after the answer.
 */
import * as Comlink from 'comlink';
import { checkRecord } from '../../run/check';
import { sessionRecord, SessionError, type SessionFile } from '../../run/claude-code';
import { messageChars, messageTokens } from '../../run/size';
import type { SessionAnswer, SessionInput, SessionWorkerApi } from './protocol';

const api: SessionWorkerApi = {
  async open(inputs: SessionInput[], onProgress): Promise<SessionAnswer> {
    const total = inputs.reduce((sum, input) => sum + input.file.size, 0);
    // Reading the bytes is half the work, parsing and converting them the other half.
    let done = 0;
    const files: SessionFile[] = [];
    for (const input of inputs) {
      try {
        files.push({ path: input.path, text: await input.file.text() });
      } catch (error) {
        // One file the browser cannot read (changed or removed since it was picked) is left out.
        const reason = error instanceof Error ? error.message || error.name : String(error);
        files.push({ path: input.path, text: '', unreadable: reason });
      }
      done += input.file.size / 2;
      onProgress(done, total);
    }
    const textChars = files.reduce((sum, file) => sum + file.text.length, 0) || 1;
    let read = 0;
    try {
      const opened = sessionRecord(files, (n) => {
        read += n;
        onProgress(total / 2 + (read / textChars) * (total / 2), total);
      });
      // Checked here as any imported run is (shape and story), off the page's thread too.
      const record = checkRecord(opened.record);
      const chars = record.events.map((event) =>
        event.type === 'message' ? messageChars(event.message) : -1,
      );
      const tokens = record.events.map((event) =>
        event.type === 'message' ? messageTokens(event.message) : -1,
      );
      return { ok: true, opened: { ...opened, record }, chars, tokens };
    } catch (error) {
      if (error instanceof SessionError) return { ok: false, code: error.code, params: error.params };
      throw error;
    }
  },
};

Comlink.expose(api);
