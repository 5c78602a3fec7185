/** Which model call the dialog `Model call` shows: set by a column's buttons, read by the dialog. */
import type { AgentId } from '../core/messages';

class ShownCall {
  /** The agent and its call number (from 1), or null while the dialog is closed. */
  current = $state.raw<{ agent: AgentId; n: number } | null>(null);

  open(agent: AgentId, n: number): void {
    this.current = { agent, n };
  }

  close(): void {
    this.current = null;
  }
}

/** The one dialog of the page: a column asks it to show a call. */
export const shownCall = new ShownCall();
