/** An agent as every view names it: Parent, Subagent N, in the screen's language. */
import type { AgentId } from '../core/messages';
import { subagentNumber } from './format';
import { t } from './i18n';

/** An agent as the columns name it: Parent, Subagent N (any other id as it is). */
export function agentName(id: AgentId | null): string {
  if (id === 'parent') return t('column.parent');
  const n = id ? subagentNumber(id) : 0;
  return n > 0 ? t('column.subagent', { n }) : (id ?? '?');
}
