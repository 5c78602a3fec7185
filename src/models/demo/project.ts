/**
 * What the demo model "understands" about a project: plain parsers over the text its tools
 * returned (a file listing, file contents, grep output). Nothing here touches a filesystem; the
 * demo model only knows what a real model would know, the tool results in its messages.
 *
 *   listing  ──► files, language          (find . -type f ...)       here
 *   reads    ──► testing framework + evidence                            testing.ts
 *            ──► per-file summaries                                      summaries.ts
 *            ──► where a new module goes, its text                       new-module.ts
 *            ──► whether the test fits the module                        module-check.ts
 */

export type Language = 'python' | 'typescript';

/** The contents the model read, by path relative to the project (failed reads left out). */
export type Reads = Map<string, string>;

/** The command that lists the project, and how to read its output back. */
export const LIST_COMMAND = "find . -type f -not -path '*/node_modules/*' -not -path '*/.git/*' | sort";

/** Paths of a `find` listing, without `./`; empty when the command failed. */
export function parseListing(output: string | undefined): string[] {
  if (!output || output.startsWith('Error:') || output === '(no output)') return [];
  const lines = output.split('\n').map((line) => line.trim());
  // `find .` prints `./path`; anything else (`bash: find: command not found`) is not a file.
  const found = lines.filter((line) => line.startsWith('./'));
  const paths = found.length ? found : lines.filter((line) => /^[\w.@-][^:]*$/.test(line));
  return paths
    .map(relative)
    .filter((path) => path && path !== '.' && !/(^|\/)(node_modules|\.git)\//.test(path));
}

/** A path as the project sees it: no leading `./`, no doubled slashes. */
export function relative(path: string): string {
  return path.replace(/^\.\//, '').replace(/\/{2,}/g, '/');
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function dirname(path: string): string {
  const at = path.lastIndexOf('/');
  return at < 0 ? '' : path.slice(0, at);
}

export function join(dir: string, name: string): string {
  return dir ? `${dir}/${name}` : name;
}

export const PY = /\.py$/;
export const TS = /\.(ts|tsx|mts|cts)$/;
export const JS = /\.(js|jsx|mjs|cjs)$/;

/** Python or TypeScript/JavaScript, judged from the files present. */
export function detectLanguage(files: string[]): Language {
  const py = files.filter((f) => PY.test(f)).length + (files.some(isPythonManifest) ? 3 : 0);
  const ts = files.filter((f) => TS.test(f) || JS.test(f)).length + (files.includes('package.json') ? 3 : 0);
  return py >= ts && py > 0 ? 'python' : ts > 0 ? 'typescript' : 'python';
}

function isPythonManifest(path: string): boolean {
  return /^(requirements[\w.-]*\.txt|pyproject\.toml|setup\.py|setup\.cfg|Pipfile|tox\.ini|pytest\.ini)$/.test(
    path,
  );
}

export function isTestFile(path: string, language: Language): boolean {
  const name = basename(path);
  if (language === 'python') return PY.test(name) && (/^test_/.test(name) || /_test\.py$/.test(name));
  return (
    /\.(test|spec)\.[cm]?[jt]sx?$/.test(name) ||
    (/(^|\/)__tests__\//.test(path) && (TS.test(name) || JS.test(name)))
  );
}

/** Source files of a language, tests included. */
export function sourceFiles(files: string[], language: Language): string[] {
  return files.filter((f) =>
    language === 'python' ? PY.test(f) : (TS.test(f) || JS.test(f)) && !/\.d\.ts$/.test(f),
  );
}

// ---------------------------------------------------------------------------------------------
// Which files answer "what testing framework?"

/** Dependency and test-config files worth reading, in the order a person would open them. */
export function configFiles(files: string[], language: Language): string[] {
  const picked: string[] = [];
  const add = (path: string | undefined) => {
    if (path && !picked.includes(path)) picked.push(path);
  };
  if (language === 'python') {
    for (const f of files.filter((f) => /^requirements[\w.-]*\.txt$/.test(f))) add(f);
    for (const name of ['pyproject.toml', 'setup.cfg', 'setup.py', 'pytest.ini', 'tox.ini', 'Pipfile']) {
      add(files.find((f) => f === name));
    }
    add(files.filter((f) => basename(f) === 'conftest.py').sort(byDepth)[0]);
  } else {
    add(files.find((f) => f === 'package.json'));
    const configs = files.filter((f) =>
      /^(vitest|jest|vite)\.config\.[cm]?[jt]s$|^\.mocharc/.test(basename(f)),
    );
    const vitest = configs.filter((f) => /^vitest\./.test(basename(f)));
    for (const f of configs.sort(byDepth)) {
      // vite.config carries a `test` block only when there is no vitest.config of its own.
      if (/^vite\./.test(basename(f)) && vitest.length) continue;
      add(f);
    }
  }
  return picked.slice(0, 6);
}

function byDepth(a: string, b: string): number {
  return a.split('/').length - b.split('/').length || a.localeCompare(b);
}

/** Up to `n` test files, preferring ones in a tests folder. */
export function sampleTests(files: string[], language: Language, n = 2): string[] {
  return files
    .filter((f) => isTestFile(f, language))
    .sort(byDepth)
    .slice(0, n);
}

export function grepCommand(language: Language): string {
  return language === 'python'
    ? `grep -rn -E "^(import|from) (pytest|unittest|nose)" --include='*.py' .`
    : `grep -rn -E "from ['\\"](vitest|@jest/globals|mocha|node:test|chai|ava)['\\"]" --include='*.ts' --include='*.js' --exclude-dir=node_modules .`;
}
