/** The status line's words for a run's state, shared by the status line and History's list. */
import type { RunStatus } from '../run/record';
import { INTERRUPTED } from '../run/store';
import { t } from './i18n';

/**
 * What the status says. A reason from a model API or the sandbox is shown as it came; the words
 * around it, and the reasons the playground itself gives, are in the language on screen.
 */
export function statusText(
  status: RunStatus,
  live: { working?: string; retrying?: string; at?: { step: number; steps: number } } = {},
): string {
  // At a past step the run's own state leads (the contract's first word), then where we are.
  if (live.at) return t('presenter.atStep', { status: statusText(status), ...live.at });
  switch (status.kind) {
    case 'booting':
      return t('status.booting');
    case 'idle':
      return t('status.idle');
    case 'running': {
      const base = live.working ? t('status.runningAgent', { agent: live.working }) : t('status.running');
      return live.retrying ? t('status.retrying', { base, detail: live.retrying }) : base;
    }
    case 'finished':
      return finishedText(status);
    case 'stopped': {
      if (!status.reason) return t('status.stopped');
      const reason = status.reason === INTERRUPTED.reason ? t('status.interrupted') : status.reason;
      return t('status.stoppedBecause', { reason });
    }
    case 'failed': {
      const failed = status.streamError
        ? t('status.failedInStream', { type: status.streamError, reason: status.reason })
        : t('status.failed', { reason: status.reason });
      return status.kept ? `${failed} ${t('status.keptCutOff')}` : failed;
    }
  }
}

/** `Finished`, and how the last reply ended when the model did not end it by itself. */
function finishedText(status: Extract<RunStatus, { kind: 'finished' }>): string {
  switch (status.ending) {
    case undefined:
      return t('status.finished');
    case 'refusal':
      return t('status.finishedRefusal');
    case 'max_tokens':
      return t(status.cutTool ? 'status.finishedMaxTokensTool' : 'status.finishedMaxTokens');
    case 'model_context_window_exceeded':
      return t(status.cutTool ? 'status.finishedContextWindowTool' : 'status.finishedContextWindow');
    default:
      return t('status.finishedStopReason', { reason: status.ending });
  }
}
