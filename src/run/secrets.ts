/**
 * Secrets and runs. A run file that carries a field named like a secret (an API key under any
 * name a client uses) is refused on open (`findSecretField`); and no secret of the endpoint a run
 * was sent to, nor the key, ever leaves the page in a run (`redactURL`, `Redactor`,
 * `redactRecord`, below; every exit passes through ./outgoing.ts).
 */

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

/*
 * Redaction: what of an endpoint's address and of a run's text may leave the page.
 *
 *   https://user:pw@host.example/key/9f8e7d6c5b4a39281706f5e4/v1?token=abc#frag
 *     ──redactURL──►  https://host.example/key/[redacted]/v1
 *                     (removed: user name, password, secret path part, query, fragment)
 *
 * Every way a run leaves the page (Export run, Export OTLP, Copy link, History, a failure's
 * reason, the inspector) goes through `redactRecord` with a `Redactor` made for it: the endpoint's
 * address keeps only its scheme, host, port and the path parts that are not secret, wherever it
 * is written (the record's settings, an error's text); the API key and the secret parts of the
 * address are removed from any text; fields named like a credential are dropped. The Redactor
 * remembers what it removed, so that the screen can say so.
 */

/** What redaction can remove, each said on screen by its name (`secrets.part.<name>`). */
export type RemovedPart =
  'userName' | 'password' | 'query' | 'fragment' | 'pathSecret' | 'apiKey' | 'credential';

/** Written where a secret was. */
export const REDACTED = '[redacted]';

/** A path part after one of these names is a secret: `/key/<secret>`, `/token/<secret>`. */
const SECRET_PATH_NAME =
  /^(keys?|tokens?|secrets?|api[-_]?keys?|auth|access[-_]?tokens?|passwords?|credentials?)$/i;

/**
 * Whether one path part of an endpoint looks like a key: 20 or more characters of letters,
 * digits, `-`, `_`, `.` or `~` holding both letters and digits (a random token), or one that
 * starts as an API key does (`sk-`, `key-`, `pk-`, `ghp_`...).
 */
export function looksLikeKey(part: string): boolean {
  if (/^(sk|pk|rk|key|tok|ghp|gho|xox[bpa])[-_][\w-]{8,}$/i.test(part)) return true;
  return part.length >= 20 && /^[\w.~-]+$/.test(part) && /\d/.test(part) && /[a-z]/i.test(part);
}

/** An address with its secrets taken out, and what was taken. */
export interface RedactedURL {
  url: string;
  removed: RemovedPart[];
  /** The texts that were secret (user name, password, query and fragment values, path parts). */
  secrets: Array<{ text: string; part: RemovedPart }>;
}

/** Text shaped like a URL with a scheme: where an endpoint's address may appear in a sentence. */
const URL_IN_TEXT = /\b[a-z][a-z\d+.-]*:\/\/[^\s"'<>`]+/gi;
/** The user name and password of an address that does not parse: `//name:pw@`. */
const USERINFO = /(\/\/)[^/?#@\s]*@/;

/**
 * An endpoint's address without its user name, password, query, fragment and secret path parts
 * (see `looksLikeKey`, `SECRET_PATH_NAME`): each replaced path part becomes `[redacted]`.
 */
export function redactURL(raw: string): RedactedURL {
  const removed = new Set<RemovedPart>();
  const secrets: RedactedURL['secrets'] = [];
  const secret = (text: string, part: RemovedPart) => {
    removed.add(part);
    secrets.push({ text, part });
  };
  if (!URL.canParse(raw)) {
    const userinfo = USERINFO.exec(raw);
    if (!userinfo) return { url: raw, removed: [], secrets: [] };
    return { url: raw.replace(USERINFO, '$1'), removed: ['userName'], secrets: [] };
  }
  const url = new URL(raw);
  if (url.username) secret(decodeSafely(url.username), 'userName');
  if (url.password) secret(decodeSafely(url.password), 'password');
  if (url.search) {
    removed.add('query');
    for (const [, value] of url.searchParams) secret(value, 'query');
  }
  if (url.hash) secret(url.hash.slice(1), 'fragment');
  const parts = url.pathname.split('/');
  for (let i = 0; i < parts.length; i++) {
    const part = decodeSafely(parts[i]);
    if (!part) continue;
    if (looksLikeKey(part) || (i > 0 && SECRET_PATH_NAME.test(decodeSafely(parts[i - 1])))) {
      secret(part, 'pathSecret');
      parts[i] = REDACTED;
    }
  }
  const path = parts.join('/');
  // Only a scheme with a host is written back with `//` (http:, https:, ws:...).
  const origin = url.host ? `${url.protocol}//${url.host}` : url.protocol;
  return { url: origin + (path === '/' && !raw.endsWith('/') ? '' : path), removed: [...removed], secrets };
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Takes secrets out of the texts of a run: made for the endpoints the run was sent to and the
 * key it was sent with; `removed` collects what it took.
 */
export class Redactor {
  readonly removed = new Set<RemovedPart>();
  readonly #hosts = new Set<string>();
  /** Secret texts removed wherever they appear, longest first. */
  readonly #literals: Array<{ text: string; part: RemovedPart }> = [];

  constructor({ endpoints = [], apiKey = '' }: { endpoints?: readonly string[]; apiKey?: string } = {}) {
    if (apiKey.trim().length >= 4) this.#literals.push({ text: apiKey.trim(), part: 'apiKey' });
    for (const endpoint of endpoints) {
      if (!endpoint || !URL.canParse(endpoint)) continue;
      const url = new URL(endpoint);
      if (url.host) this.#hosts.add(url.host.toLowerCase());
      // A user name ("me", "user") would take common words with it: it goes with the address only.
      // Any other secret part of 6 characters or more is removed wherever it is written.
      for (const { text, part } of redactURL(endpoint).secrets) {
        if (part !== 'userName' && text.length >= 6) this.#literals.push({ text, part });
      }
    }
    this.#literals.sort((a, b) => b.text.length - a.text.length);
  }

  /** A text without the endpoints' secrets, the key, credentials in addresses and bearer tokens. */
  text(value: string): string {
    let out = value;
    if (out.includes('://')) {
      out = out.replace(URL_IN_TEXT, (found) => {
        const parsed = URL.canParse(found) ? new URL(found) : null;
        const ours = parsed !== null && parsed.host !== '' && this.#hosts.has(parsed.host.toLowerCase());
        if (!ours && !USERINFO.test(found)) return found;
        if (!ours) {
          // Any other address keeps everything but its user name and password.
          this.removed.add('userName');
          if (parsed?.password) this.removed.add('password');
          return found.replace(USERINFO, '$1');
        }
        const { url, removed } = redactURL(found);
        if (!removed.length) return found;
        for (const part of removed) this.removed.add(part);
        return url;
      });
    }
    for (const { text, part } of this.#literals) {
      if (out.includes(text)) {
        out = out.split(text).join(REDACTED);
        this.removed.add(part);
      }
    }
    if (/bearer\s/i.test(out)) {
      out = out.replace(/(bearer\s+)(?!\[redacted\])[\w.~+/=-]{8,}/gi, (_, head: string) => {
        this.removed.add('credential');
        return head + REDACTED;
      });
    }
    if (out.includes('sk-ant-')) {
      out = out.replace(/sk-ant-[\w-]+/g, () => {
        this.removed.add('apiKey');
        return REDACTED;
      });
    }
    return out;
  }
}

/** A field named like a credential: never written (a record holding one is refused on open). */
export function isCredentialField(name: string): boolean {
  return (
    SECRET_KEY.test(name) ||
    /^(password|passwd|cookie|set-cookie|proxy-authorization|client[-_]?secret)$/i.test(name)
  );
}

/**
 * `value` with every string passed through `redactor` and every field named like a credential
 * dropped: the same value when nothing changes, else a copy (the value given is never changed).
 * Searched with a list of what is left to look at, as findSecretField is, so that no nesting is
 * too deep.
 */
export function redactRecord<T>(value: T, redactor: Redactor): T {
  if (typeof value === 'string') return redactor.text(value) as T;
  if (!rewrite(value, redactor, false)) return value;
  const copy = copyDeep(value);
  rewrite(copy, redactor, true);
  return copy;
}

/** A deep copy of JSON data, made with a list rather than by recursion (no nesting is too deep). */
export function copyDeep<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const fresh = (of: object): Record<string, unknown> =>
    (Array.isArray(of) ? [] : {}) as Record<string, unknown>;
  const root = fresh(value);
  const pending: Array<[Record<string, unknown>, Record<string, unknown>]> = [
    [value as Record<string, unknown>, root],
  ];
  while (pending.length) {
    const [from, to] = pending.pop()!;
    for (const key in from) {
      const item = from[key];
      if (typeof item === 'object' && item !== null) {
        const copy = fresh(item);
        to[key] = copy;
        pending.push([item as Record<string, unknown>, copy]);
      } else to[key] = item;
    }
  }
  return root as T;
}

/** Whether anything in `root` is to be redacted; with `apply`, redacts it in place. */
function rewrite(root: unknown, redactor: Redactor, apply: boolean): boolean {
  let found = false;
  const pending: unknown[] = [root];
  while (pending.length) {
    const next = pending.pop();
    if (typeof next !== 'object' || next === null) continue;
    const object = next as Record<string, unknown>;
    const array = Array.isArray(next);
    for (const key in object) {
      if (!array && isCredentialField(key)) {
        redactor.removed.add('credential');
        if (!apply) return true;
        delete object[key];
        found = true;
        continue;
      }
      const item = object[key];
      if (typeof item === 'string') {
        const clean = redactor.text(item);
        if (clean === item) continue;
        if (!apply) return true;
        object[key] = clean;
        found = true;
      } else if (typeof item === 'object' && item !== null) pending.push(item);
    }
  }
  return found;
}

/** The endpoints a record names (its settings' and each prompt's), to make its Redactor with. */
export function endpointsOf(record: {
  settings: { baseURL?: string };
  events: ReadonlyArray<{ type: string; settings?: { baseURL?: string } }>;
}): string[] {
  const found = new Set<string>();
  if (record.settings.baseURL) found.add(record.settings.baseURL);
  for (const event of record.events)
    if (event.type === 'run' && event.settings?.baseURL) found.add(event.settings.baseURL);
  return [...found];
}
