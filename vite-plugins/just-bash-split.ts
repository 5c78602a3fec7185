import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/**
 * Serves just-bash to the browser from its code-split ESM build instead of its single browser
 * bundle. The browser bundle is one big file that the sandbox worker must compile before the
 * shell can run; the ESM build keeps the shell's core smaller and loads each command (grep, sed,
 * awk, jq...) the first time it runs. Compiling less is most of start-up.
 *
 * just-bash's `__BROWSER__` switch (set here, as its own browser build does) drops the commands
 * and code paths that need Node: sqlite3, tar, yq, xan, its own python3 and js-exec. What is left
 * still imports a few Node built-ins for features a browser cannot have (the host filesystem for
 * OverlayFs/ReadWriteFs, DNS, zlib for gzip); they resolve to stand-ins that throw a clear error
 * if ever called, as the browser bundle's do.
 *
 * Only browser builds and the dev server use this: Vitest runs in Node with the real modules.
 *
 * The build refuses an unpatched just-bash (patches/, applied by `postinstall`): in a browser its
 * byte-to-string helpers spread 32-64 KB chunks into `String.fromCharCode`, which overflows a
 * worker's stack, so `cat`, `head` and `wc` would call any file of 64 KB or more missing. Node never
 * takes that path (it has Buffer), so only browser tests would notice.
 */
const ESM_ENTRY = fileURLToPath(new URL('../node_modules/just-bash/dist/bundle/index.js', import.meta.url));
const BUNDLE_DIR = fileURLToPath(new URL('../node_modules/just-bash/dist/bundle/', import.meta.url));

const NODE_STUB = '\0just-bash-node:';
// undici is only imported by the pinned-DNS fetch, which throws first when __BROWSER__ is set.
const UNREACHABLE = /^\.\/chunks\/undici-\w+\.js$/;
const UNREACHABLE_ID = '\0just-bash-unreachable';

/** `name = () => throw` for each name. */
const throwing = (module: string, names: string[]) =>
  names
    .map(
      (name) =>
        `export const ${name} = () => { throw new Error('${module}.${name} is not available in the browser'); };`,
    )
    .join('\n');

/** The stand-ins, by built-in: every export a just-bash chunk imports is present. */
const STUBS: Record<string, string> = {
  'node:module': `export const createRequire = () => (id) => {
  throw new Error(\`require('\${id}') is not available in the browser\`);
};
export const Module = undefined;`,
  'node:async_hooks': `export const AsyncLocalStorage = undefined;`,
  'node:fs': `export const constants = {};
export const promises = {};
export const existsSync = () => false;
${throwing('fs', ['lstatSync', 'readdirSync', 'readlinkSync', 'realpathSync', 'statSync'])}`,
  'node:fs/promises': throwing('fs', ['open']),
  'node:path': `export const posix = {};
export const win32 = {};
export const sep = '/';
${throwing('path', ['basename', 'dirname', 'isAbsolute', 'join', 'relative', 'resolve'])}`,
  'node:dns': throwing('dns', ['lookup']),
  'node:crypto': `export const randomBytes = (size) => {
  const bytes = crypto.getRandomValues(new Uint8Array(size));
  bytes.toString = () => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return bytes;
};`,
  'node:zlib': `export const constants = {};
${throwing('zlib', ['gzipSync', 'gunzipSync'])}`,
};

/** A spread into `String.fromCharCode` within reach of a 32 or 64 KB chunk size: unpatched. */
function spreadsLargeChunks(code: string): boolean {
  for (
    let at = code.indexOf('String.fromCharCode(...');
    at >= 0;
    at = code.indexOf('String.fromCharCode(...', at + 1)
  ) {
    if (/\b(32768|65536)\b/.test(code.slice(Math.max(0, at - 120), at + 60))) return true;
  }
  return false;
}

/**
 * just-bash's shell module probes for Node's `Module` as it loads, in a try block that starts with
 * `process.getBuiltinModule`: in a browser, a ReferenceError at the top level of the sandbox's
 * script, caught. With DevTools open (and in tests and the bench, which drive Chromium through its
 * DevTools protocol), V8 then records where it was thrown, and reparses the whole script to find
 * that place, in the sandbox's start. In a browser both branches
 * of the probe throw and it ends with `null`, so that is what the browser build gets.
 */
const NODE_MODULE_PROBE = /var (\w+)=null;try\{let \w+=process\.getBuiltinModule,[^]*?\}catch\{\1=null\}/;

function withoutNodeModuleProbe(code: string): string {
  const probe = NODE_MODULE_PROBE.exec(code);
  if (!probe) {
    throw new Error(
      "just-bash-split: just-bash's probe for Node's Module was not found; see NODE_MODULE_PROBE",
    );
  }
  return code.replace(probe[0], `var ${probe[1]}=null;`);
}

/** The file this tree imports the engine's loader from; in Node it has nothing to load. */
const REGEX_ENGINE_MODULE = fileURLToPath(new URL('../src/sandbox/regex-engine.ts', import.meta.url));
/** The name under which the shell's module exports the engine's loader (added below). */
const LOAD_REGEX = '__s04LoadRegexEngine';

/**
 * The shell's core imports RE2 (re2js, its regular-expression engine, a good part of the
 * sandbox's script) statically, but only calls it while a command
 * runs: a glob, `${x#pattern}`, `[[ =~ ]]`, `case`. So the core imports it dynamically here, and
 * the sandbox is ready without it: `regexEngine()` (src/sandbox/regex-engine.ts, which becomes
 * LOAD_REGEX in the browser) is awaited before every command. The commands that use it (grep,
 * sed, awk...) keep their static imports of its chunk, which is now a chunk of its own.
 */
function withLazyRegexEngine(code: string): string {
  const dir = `${BUNDLE_DIR}chunks/`;
  const engine = readdirSync(dir).find(
    (name) => name.endsWith('.js') && readFileSync(dir + name, 'utf8').includes('re2js/build/'),
  );
  const imported = /import\{a as ([\w$]+)\}from"(\.\/chunks\/[\w-]+\.js)";/g;
  const found = engine && [...code.matchAll(imported)].find((match) => match[2] === `./chunks/${engine}`);
  const factory = engine && /export\{([\w$]+) as a[,}]/.exec(readFileSync(dir + engine, 'utf8'));
  if (!found || !factory || !readFileSync(dir + engine!, 'utf8').includes(`function ${factory[1]}(`)) {
    throw new Error(
      "just-bash-split: just-bash's core no longer imports RE2's factory as one function; see withLazyRegexEngine",
    );
  }
  const [statement, name, path] = found;
  const lazy =
    `var __s04Re2,__s04Re2Loading;` +
    // A load that failed (the network dropped) is tried again by the next command.
    `function ${LOAD_REGEX}(){return __s04Re2Loading??=import(${JSON.stringify(path)})` +
    `.then(function(m){__s04Re2=m},function(e){__s04Re2Loading=void 0;throw e})}` +
    `function ${name}(){if(!__s04Re2)throw new Error("just-bash: the regular-expression engine is not loaded yet");` +
    `return __s04Re2.a.apply(this,arguments)}`;
  return `${code.replace(statement, lazy)}\nexport{${LOAD_REGEX}};`;
}

function assertPatched(): void {
  const dir = `${BUNDLE_DIR}chunks/`;
  const unpatched = readdirSync(dir).filter(
    (name) => name.endsWith('.js') && spreadsLargeChunks(readFileSync(dir + name, 'utf8')),
  );
  if (unpatched.length > 0) {
    throw new Error(
      `just-bash-split: just-bash is not patched (${unpatched.join(', ')}); run \`npm install\`, whose postinstall applies patches/`,
    );
  }
}

export function justBashSplit(): Plugin {
  return {
    name: 's04:just-bash-split',
    enforce: 'pre',
    apply: (_config, env) => env.command === 'build' && !process.env.VITEST,
    // just-bash's own switch for its browser build: drops the Node-only commands and code paths.
    config: () => ({ define: { __BROWSER__: 'true' } }),
    buildStart: assertPatched,
    resolveId(source, importer) {
      if (source === 'just-bash') return ESM_ENTRY;
      if (!importer?.startsWith(BUNDLE_DIR)) return null;
      if (UNREACHABLE.test(source)) return UNREACHABLE_ID;
      if (!source.startsWith('node:')) return null;
      if (!(source in STUBS)) throw new Error(`just-bash-split: no browser stand-in for ${source}`);
      return NODE_STUB + source;
    },
    transform(code, id) {
      if (id === REGEX_ENGINE_MODULE) {
        return { code: `export { ${LOAD_REGEX} as regexEngine } from 'just-bash';`, map: null };
      }
      if (id !== ESM_ENTRY) return null;
      return { code: withLazyRegexEngine(withoutNodeModuleProbe(code)), map: null };
    },
    load(id) {
      if (id === UNREACHABLE_ID) return 'export default {};';
      if (id.startsWith(NODE_STUB)) return STUBS[id.slice(NODE_STUB.length)];
      return null;
    },
  };
}
