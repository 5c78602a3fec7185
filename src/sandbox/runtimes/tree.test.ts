import { InMemoryFs } from 'just-bash';
import { describe, expect, it } from 'vitest';
import { runtimesNamedIn } from '.';
import { applyTreeChanges, diffTrees, FileTree, outermost, TreeError } from './tree';

const text = (data: Uint8Array) => new TextDecoder().decode(data);

async function sample(): Promise<InMemoryFs> {
  const fs = new InMemoryFs();
  await fs.mkdir('/p/src', { recursive: true });
  await fs.writeFile('/p/src/a.txt', 'a');
  await fs.writeFile('/p/b.txt', 'b');
  await fs.mkdir('/elsewhere', { recursive: true });
  await fs.writeFile('/elsewhere/x', 'x');
  return fs;
}

describe('FileTree', () => {
  it('captures only below its roots, with the roots’ ancestors as directories', async () => {
    const tree = await FileTree.capture(await sample(), ['/p', '/p/src']);
    expect(tree.roots).toEqual(['/p']);
    expect([...tree.entries.keys()].sort()).toEqual(['/', '/p', '/p/b.txt', '/p/src', '/p/src/a.txt']);
    expect(text(tree.readFile('/p/src/a.txt'))).toBe('a');
    expect(tree.readdir('/p')).toEqual(['b.txt', 'src']);
  });

  it('fails as POSIX does', async () => {
    const tree = await FileTree.capture(await sample(), ['/p']);
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as TreeError).code;
      }
      return 'ok';
    };
    expect(code(() => tree.readFile('/p/nope'))).toBe('ENOENT');
    expect(code(() => tree.readFile('/p/src'))).toBe('EISDIR');
    expect(code(() => tree.readFile('/p/b.txt/x'))).toBe('ENOTDIR');
    expect(code(() => tree.writeFile('/p/new/x.txt', 'x'))).toBe('ENOENT');
    expect(code(() => tree.mkdir('/p/src'))).toBe('EEXIST');
    expect(code(() => tree.remove('/p/src'))).toBe('EISDIR');
    expect(code(() => tree.remove('/p/src', { directory: true }))).toBe('ENOTEMPTY');
    expect(code(() => tree.rename('/p', '/p/src/inner'))).toBe('EINVAL');
    expect(tree.mkdir('/p/x/y', true)).toBe('/p/x');
  });

  it('diffs a run into deletions, new directories and writes, and replays them on a fs', async () => {
    const fs = await sample();
    const before = await FileTree.capture(fs, ['/p']);
    const after = before.clone();
    after.mkdir('/p/out/deep', true);
    after.writeFile('/p/out/deep/r.txt', 'r');
    after.writeFile('/p/b.txt', '+b', true);
    after.rename('/p/src', '/p/lib');
    after.writeFile('/p/lib/a.txt', 'a'); // rewritten with the same bytes: no change
    const changes = diffTrees(before, after);
    expect(changes.map((c) => `${c.kind} ${c.path}`)).toEqual([
      'delete /p/src',
      'mkdir /p/lib',
      'mkdir /p/out',
      'mkdir /p/out/deep',
      'write /p/b.txt',
      'write /p/lib/a.txt',
      'write /p/out/deep/r.txt',
    ]);
    await applyTreeChanges(fs, changes);
    expect(await fs.readFile('/p/b.txt')).toBe('b+b');
    expect(await fs.exists('/p/src')).toBe(false);
    expect(await fs.readFile('/p/lib/a.txt')).toBe('a');
    expect(await fs.readFile('/p/out/deep/r.txt')).toBe('r');
    expect(await fs.readFile('/elsewhere/x')).toBe('x');
    expect(text(before.readFile('/p/b.txt'))).toBe('b');
  });

  it('keeps the outermost of nested roots', () => {
    expect(outermost(['/home/user/project', '/home/user', '/tmp', '/tmp/'])).toEqual(['/home/user', '/tmp']);
  });
});

describe('runtimesNamedIn', () => {
  it('finds node and python3 in command position only', () => {
    expect(runtimesNamedIn('python3 -m unittest')).toEqual({ node: false, python: true });
    expect(runtimesNamedIn('cd src && python main.py')).toEqual({ node: false, python: true });
    expect(runtimesNamedIn('echo x | /usr/bin/python3 -c "print(1)"')).toEqual({ node: false, python: true });
    expect(runtimesNamedIn('FOO=1 node app.js; ls')).toEqual({ node: true, python: false });
    expect(runtimesNamedIn('grep -rn python . && cat node.md')).toEqual({ node: false, python: false });
    expect(runtimesNamedIn('ls node_modules')).toEqual({ node: false, python: false });
  });
});
