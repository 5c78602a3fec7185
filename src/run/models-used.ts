/**
 * The models a record's calls went to, per agent, where the record names them (an opened Claude
 * Code session names each reply's model; a playground run names its one model in its settings).
 * For the model badge of an opened run: the run's own models, never the page's settings.
 */
import type { AgentId } from '../core/messages';
import type { RunRecord } from './record';

export interface AgentModels {
  agent: AgentId;
  /** In the order its calls first used them. */
  models: string[];
}

/** Each agent's models, in the order the agents first answered; empty when no call names one. */
export function modelsUsed(record: RunRecord): AgentModels[] {
  const byAgent = new Map<AgentId, string[]>();
  for (const event of record.events) {
    if (event.type !== 'model_end' || !event.model) continue;
    let models = byAgent.get(event.agent);
    if (!models) byAgent.set(event.agent, (models = []));
    if (!models.includes(event.model)) models.push(event.model);
  }
  return [...byAgent].map(([agent, models]) => ({ agent, models }));
}

/** Every model of a record once, the parent's first; its settings' model when no call names one. */
export function runModels(record: RunRecord): string[] {
  const all: string[] = [];
  const used = modelsUsed(record).sort((a, b) => Number(b.agent === 'parent') - Number(a.agent === 'parent'));
  for (const { models } of used) for (const model of models) if (!all.includes(model)) all.push(model);
  return all.length ? all : [record.settings.model];
}
