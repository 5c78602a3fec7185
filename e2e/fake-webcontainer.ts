/**
 * A stand-in for WebContainer's hosted runtime, so the browser tests can see WebContainer boot
 * without internet. The real client (@webcontainer/api) loads `https://stackblitz.com/headless`
 * in an iframe and talks Comlink to what that page posts in an `init` message; this routes that
 * URL to a small page that answers the same calls (build, fs, loadFiles, run, watch) over an
 * in-memory tree. Only what the client and the backend use is there; programs just echo.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';

/** The client's own copy of Comlink: its wire format differs from comlink 4.4's (numbers, not names). */
const COMLINK = readFileSync(
  new URL('../node_modules/@webcontainer/api/dist/vendor/index.js', import.meta.url),
  'utf8',
);
const ORIGIN = 'https://stackblitz.com';

/** Runs inside the fake runtime's iframe (it is sent as source text: no closures). */
async function runtime(origin: string) {
  const { Comlink }: { Comlink: typeof import('comlink') } = await import(`${origin}/__fake__/comlink.mjs`);
  const nodes = new Map<string, Uint8Array | 'dir'>([['/', 'dir']]);
  const watchers = new Set<{ base: string; listener: (event: string, name: string) => unknown }>();
  const encoder = new TextEncoder();
  const clean = (path: string) => {
    const parts: string[] = [];
    for (const part of path.split('/')) {
      if (part === '' || part === '.') continue;
      if (part === '..') parts.pop();
      else parts.push(part);
    }
    return '/' + parts.join('/');
  };
  const parent = (path: string) => path.slice(0, path.lastIndexOf('/')) || '/';
  const fail = (code: string, op: string, path: string) => new Error(`${code}: ${op} '${path}'`);
  const notify = (event: string, path: string) => {
    for (const { base, listener } of watchers) {
      const prefix = base === '/' ? '/' : `${base}/`;
      if (path.startsWith(prefix)) void listener(event, path.slice(prefix.length));
    }
  };
  const children = (dir: string) => {
    const prefix = dir === '/' ? '/' : `${dir}/`;
    return [...nodes.keys()].filter(
      (p) => p !== dir && p.startsWith(prefix) && !p.slice(prefix.length).includes('/'),
    );
  };
  const write = (path: string, bytes: Uint8Array) => {
    if (nodes.get(parent(path)) !== 'dir') throw fail('ENOENT', 'open', path);
    if (nodes.get(path) === 'dir') throw fail('EISDIR', 'open', path);
    const existed = nodes.has(path);
    nodes.set(path, bytes);
    if (!existed) notify('rename', path);
    notify('change', path);
  };
  const mkdirp = (path: string) => {
    if (path === '/' || nodes.get(path) === 'dir') return;
    mkdirp(parent(path));
    nodes.set(path, 'dir');
    notify('rename', path);
  };
  type Tree = { d: Record<string, Tree | { f: { c: string } }> };
  const load = (dir: string, tree: Tree) => {
    mkdirp(dir);
    for (const [name, entry] of Object.entries(tree.d)) {
      const path = clean(`${dir}/${name}`);
      if ('d' in entry) load(path, entry);
      else write(path, encoder.encode(entry.f.c));
    }
  };

  const fs = {
    readFile(path: string, encoding?: string) {
      const node = nodes.get(clean(path));
      if (node === undefined) throw fail('ENOENT', 'open', path);
      if (node === 'dir') throw fail('EISDIR', 'read', path);
      return encoding ? new TextDecoder().decode(node) : node;
    },
    writeFile(path: string, data: string | Uint8Array) {
      write(clean(path), typeof data === 'string' ? encoder.encode(data) : data);
    },
    readdir(path: string, options?: { withFileTypes?: boolean }) {
      const dir = clean(path);
      if (nodes.get(dir) !== 'dir') throw fail(nodes.has(dir) ? 'ENOTDIR' : 'ENOENT', 'scandir', path);
      const names = children(dir).map((p) => p.slice(p.lastIndexOf('/') + 1));
      if (!options?.withFileTypes) return names;
      const prefix = dir === '/' ? '/' : `${dir}/`;
      return names.map((name) => ({ name, 'Symbol(type)': nodes.get(prefix + name) === 'dir' ? 2 : 1 }));
    },
    mkdir(path: string, options?: { recursive?: boolean }) {
      const dir = clean(path);
      if (!options?.recursive && nodes.get(parent(dir)) !== 'dir') throw fail('ENOENT', 'mkdir', path);
      if (!options?.recursive && nodes.has(dir)) throw fail('EEXIST', 'mkdir', path);
      mkdirp(dir);
    },
    rm(path: string, options?: { recursive?: boolean; force?: boolean }) {
      const target = clean(path);
      if (!nodes.has(target)) {
        if (options?.force) return;
        throw fail('ENOENT', 'rm', path);
      }
      const inside = [...nodes.keys()].filter((p) => p.startsWith(`${target}/`));
      if (inside.length && !options?.recursive) throw fail('ENOTEMPTY', 'rm', path);
      for (const p of inside) nodes.delete(p);
      nodes.delete(target);
      notify('rename', target);
    },
    rename(from: string, to: string) {
      const a = clean(from);
      const b = clean(to);
      const moved = [...nodes].filter(([p]) => p === a || p.startsWith(`${a}/`));
      if (!moved.length) throw fail('ENOENT', 'rename', from);
      for (const [p] of moved) nodes.delete(p);
      for (const [p, node] of moved) nodes.set(b + p.slice(a.length), node);
      notify('rename', a);
      notify('rename', b);
    },
    watch(path: string, _options: unknown, listener: (event: string, name: string) => unknown) {
      const watcher = { base: clean(path), listener };
      watchers.add(watcher);
      return Comlink.proxy({ close: () => void watchers.delete(watcher) });
    },
  };

  const instance = {
    fs: () => Comlink.proxy(fs),
    previewScript: () => '',
    runtimeInfo: () => ({ cwd: '/home/project', path: '/usr/local/bin:/usr/bin:/bin' }),
    loadFiles(payload: Uint8Array, options?: { mountPoints?: string }) {
      load(clean(options?.mountPoints ?? '/'), JSON.parse(new TextDecoder().decode(payload)));
    },
    run(
      request: { command: string; args: string[] },
      _stdout: unknown,
      _stderr: unknown,
      output?: (data: Uint8Array | null) => unknown,
    ) {
      const text = `\x1b[32mfake ${request.command}\x1b[39m: ${request.args.join(' ')}\r\n`;
      void output?.(encoder.encode(text));
      void output?.(null);
      return Comlink.proxy({ onExit: Promise.resolve(0), kill() {}, write() {}, resize() {} });
    },
    on: () => Comlink.proxy(() => {}),
    setCredentials() {},
    teardown() {},
  };

  const channel = new MessageChannel();
  Comlink.expose({ build: () => Comlink.proxy(instance) }, channel.port1);
  window.parent.postMessage({ type: 'init' }, '*', [channel.port2]);
}

export interface FakeWebContainerRuntime {
  /** Lets a held-back boot finish (see `hold`). */
  release(): void;
}

/**
 * Serves the fake runtime in place of StackBlitz's. With `hold`, the runtime's page is answered
 * only once `release()` is called: WebContainer then boots late.
 */
export async function fakeWebContainerRuntime(
  page: Page,
  { hold = false } = {},
): Promise<FakeWebContainerRuntime> {
  let release = () => {};
  const released = hold ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  const headers = {
    'Cross-Origin-Embedder-Policy': 'require-corp',
    'Cross-Origin-Resource-Policy': 'cross-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
  await page.route(`${ORIGIN}/__fake__/comlink.mjs`, (route) =>
    route.fulfill({ contentType: 'text/javascript', headers, body: COMLINK }),
  );
  await page.route(`${ORIGIN}/headless**`, async (route) => {
    await released;
    const script = `(${runtime.toString()})(${JSON.stringify(ORIGIN)});`;
    await route.fulfill({
      contentType: 'text/html',
      headers,
      body: `<!doctype html><script type="module">${script}</script>`,
    });
  });
  return { release: () => release() };
}
