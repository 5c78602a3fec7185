/**
 * Paths and errors shared by the sandbox backends: absolute POSIX paths only, and errors worded
 * like Python's OSError (what the reference's tools report, and so what the model sees).
 */
import type { IFileSystem } from 'just-bash';

/** A null device: reads empty, swallows writes, cannot be removed or moved (the offline shell's). */
export const DEV_NULL = '/dev/null';

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

/**
 * The reference's write_file: Python's `parent.mkdir(parents=True, exist_ok=True)` then
 * `write_text(content)`, failing as Python does (a file in the way, a directory at the path).
 * `shown` is the path as the model gave it, for the message.
 */
export async function writeText(
  fs: Pick<IFileSystem, 'stat' | 'mkdir' | 'writeFile'>,
  full: string,
  shown: string,
  content: string,
): Promise<void> {
  const parent = parentOf(full);
  let ancestor = '/';
  for (const part of parent.split('/').filter(Boolean)) {
    const next = ancestor === '/' ? `/${part}` : `${ancestor}/${part}`;
    const stat = await fs.stat(next).catch(() => null);
    if (!stat) break;
    if (!stat.isDirectory) throw next === parent ? osError(17, next) : osError(20, parent);
    ancestor = next;
  }
  if ((await fs.stat(full).catch(() => null))?.isDirectory) throw osError(21, shown);
  if (ancestor !== parent) await fs.mkdir(parent, { recursive: true });
  await fs.writeFile(full, content);
}
