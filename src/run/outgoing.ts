/**
 * A record as it may leave the page or be shown: every exit (Export run, Export OTLP, Copy link,
 * History, the inspector) and every way in (a file, a link, `record=`, History) passes through
 * `outgoing`. Its numbers are held in range (./clamp.ts) and its secrets taken out
 * (./secrets.ts): the endpoint's address keeps no user name, password, query, fragment or secret
 * path part, the API key is nowhere, no field named like a credential is written. What was
 * removed is returned, for the screen to say.
 */
import { clampRecord } from './clamp';
import type { RunRecord } from './record';
import { endpointsOf, redactRecord, Redactor, redactURL, type RemovedPart } from './secrets';

export type { RemovedPart } from './secrets';

/** The order in which what was removed is said. */
const ORDER: readonly RemovedPart[] = [
  'userName',
  'password',
  'query',
  'fragment',
  'pathSecret',
  'apiKey',
  'credential',
];

/** What else a record's redaction is told of: the key on this page and the endpoint set here. */
export interface Secrets {
  apiKey?: string;
  endpoints?: readonly string[];
}

/** The record clamped and redacted (the same record when nothing changes), and what was removed. */
export function outgoing(
  record: RunRecord,
  secrets: Secrets = {},
): { record: RunRecord; removed: RemovedPart[] } {
  const named = endpointsOf(record);
  const redactor = new Redactor({
    apiKey: secrets.apiKey,
    endpoints: [...named, ...(secrets.endpoints ?? [])],
  });
  const clean = redactRecord(clampRecord(record), redactor);
  // A run recorded on this page names its endpoint already redacted (src/ui/settings.svelte.ts):
  // what that took out of the endpoint set here is left out as well, and said.
  for (const endpoint of secrets.endpoints ?? []) {
    const { url, removed } = redactURL(endpoint);
    if (removed.length && named.includes(url)) for (const part of removed) redactor.removed.add(part);
  }
  return { record: clean, removed: ORDER.filter((part) => redactor.removed.has(part)) };
}
