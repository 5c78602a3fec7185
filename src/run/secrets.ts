/** A run file that carries a secret (an API key under any name a client uses) is refused. */

/** Field names that hold a secret: a record carrying one is refused, not opened. */
const SECRET_KEY = /^(api[-_]?key|x-api-key|authorization|auth[-_]?token|access[-_]?token)$/i;

/**
 * The first field named like a secret, at any depth: searched with a list of what is left to look
 * at, not by recursion, so that no nesting is too deep to be searched (JSON.parse reads deeper
 * nesting than a recursive search could follow). A record repeats a few field names many times:
 * each name is tested once.
 */
export function findSecretField(value: unknown): string | null {
  const named = new Map<string, boolean>();
  const pending: unknown[] = [value];
  while (pending.length) {
    const next = pending.pop();
    secretSearch.visited++;
    if (Array.isArray(next)) {
      for (const item of next) if (typeof item === 'object' && item !== null) pending.push(item);
      continue;
    }
    const object = next as Record<string, unknown>;
    for (const key in object) {
      let secret = named.get(key);
      if (secret === undefined) named.set(key, (secret = SECRET_KEY.test(key)));
      if (secret) return key;
      const item = object[key];
      if (typeof item === 'object' && item !== null) pending.push(item);
    }
  }
  return null;
}

/** How many objects and arrays the search went through: counted so that a test can tell it was skipped. */
export const secretSearch = { visited: 0 };

/**
 * Whether a file's JSON text could name a secret field: a name that SECRET_KEY matches is written
 * in the text as it is (in any case), or with a `\u` escape (the only escape that can stand for
 * a letter, `-` or `_`). A text with neither names none, wherever it nests, and the search of
 * every object it holds (a 25 MB record holds over a million) is skipped.
 */
export function mayNameSecret(json: string): boolean {
  return /api[-_]?key|authorization|auth[-_]?token|access[-_]?token|\\u/i.test(json);
}
