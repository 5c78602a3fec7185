/**
 * What a run touched, derived from its tool calls alone: the files it read, wrote or edited, and
 * the paths its shell commands named. For a record whose files are not the sandbox's (the recorded
 * example ran on the learn-claude-code repository), this is what its Files panel can honestly show.
 */
import type { AgentId } from '../core/messages';
import type { RunRecord } from './record';

export interface Touch {
  path: string;
  /** `read`, `write`, `edit`, or the shell command that named the path (`ls`, `find`, ...). */
  how: string;
  agent: AgentId;
}

const FILE_TOOLS: Record<string, string> = { read_file: 'read', write_file: 'write', edit_file: 'edit' };

/** Every path a record's tool calls touched, once per path, how and agent, in the order of the calls. */
export function touchedFiles(record: RunRecord): Touch[] {
  const seen = new Set<string>();
  const out: Touch[] = [];
  const add = (touch: Touch) => {
    const key = `${touch.path}\n${touch.how}\n${touch.agent}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(touch);
  };
  for (const event of record.events) {
    if (event.type !== 'tool_start') continue;
    const how = FILE_TOOLS[event.name];
    const input = (event.input ?? {}) as { path?: unknown; command?: unknown };
    if (how && typeof input.path === 'string') {
      add({ path: input.path, how, agent: event.agent });
    } else if (event.name === 'bash' && typeof input.command === 'string') {
      for (const part of input.command.split(/\s*(?:&&|\|\||;|\|)\s*/)) {
        const [command, ...args] = part.trim().split(/\s+/);
        // The paths a command names: absolute or relative, never an option, a glob or a redirect.
        for (const arg of args) {
          const path = arg.replace(/^["']|["']$/g, '');
          if (/^(\/|\.\.?\/|\w[\w.-]*\/)[^*?<>|&;$`"']*$/.test(path) && !/^\/dev\//.test(path)) {
            add({ path, how: command, agent: event.agent });
          }
        }
      }
    }
  }
  return out;
}
