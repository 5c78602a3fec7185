/**
 * The presenter's caption: one sentence, in the language on screen, of what happened at a moment
 * of the lesson (src/run/moments.ts) and why it matters. Every figure comes from the record.
 */
import type { AgentId } from '../core/messages';
import type { Moment } from '../run/moments';
import { subagentNumber } from './format';
import { t } from './i18n';

/** An agent as the columns name it: Parent, Subagent N (any other id as it is). */
export function agentName(id: AgentId | null): string {
  if (id === 'parent') return t('column.parent');
  const n = id ? subagentNumber(id) : 0;
  return n > 0 ? t('column.subagent', { n }) : (id ?? '?');
}

/**
 * The caption of a moment. A moment of a kind the presenter does not know (a newer record, a
 * newer build) gets a plain description of what happened, never an error.
 */
export function captionOf(moment: Moment): string {
  const agent = agentName(moment.agent);
  const other = agentName(moment.other);
  const figures = { agent, other, chars: moment.chars ?? 0, count: moment.count ?? 0 };
  switch (moment.kind) {
    case 'task':
      return t('presenter.task', { agent, description: moment.description ?? '' });
    case 'spawn':
      return moment.forked
        ? t('presenter.spawnFork', figures)
        : t('presenter.spawn', {
            ...figures,
            count: moment.otherCount ?? 0,
            otherCount: moment.otherCount ?? 0,
          });
    case 'call':
      return t('presenter.call', { ...figures, call: moment.call ?? 0 });
    case 'final':
      return t('presenter.final', figures);
    case 'discarded':
      return t('presenter.discarded', figures);
    case 'result':
      return moment.otherCount === undefined
        ? t('presenter.resultShort', figures)
        : t('presenter.result', {
            ...figures,
            otherCount: moment.otherCount,
            otherChars: moment.otherChars ?? 0,
          });
    default:
      return t('presenter.other', { agent, what: String((moment as { kind: unknown }).kind) });
  }
}
