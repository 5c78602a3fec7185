/**
 * Paths and errors shared by the sandbox backends: absolute POSIX paths only, and errors worded
 * like Python's OSError (what the reference's tools report, and so what the model sees).
 */

/** Normalises an absolute path: no `.`, `..`, repeated or trailing slashes. */
export function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return '/' + parts.join('/');
}

/** The directory holding `path` (`/` for a top-level entry). */
export function parentOf(path: string): string {
  const at = path.lastIndexOf('/');
  return at <= 0 ? '/' : path.slice(0, at);
}

/** Whether `path` is `root` or inside it. */
export function isWithin(root: string, path: string): boolean {
  return path === root || path.startsWith(root === '/' ? '/' : `${root}/`);
}

/** Python's repr() of a str, as it appears in an OSError message. */
function pyRepr(text: string): string {
  return text.includes("'") && !text.includes('"') ? `"${text}"` : `'${text.replace(/'/g, "\\'")}'`;
}

/** An error worded like Python's OSError, which is what the reference's tools report. */
export function osError(errno: 2 | 17 | 20 | 21, path: string): Error {
  const text = {
    2: 'No such file or directory',
    17: 'File exists',
    20: 'Not a directory',
    21: 'Is a directory',
  }[errno];
  return new Error(`[Errno ${errno}] ${text}: ${pyRepr(path)}`);
}
