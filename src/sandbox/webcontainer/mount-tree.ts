/** A sample project as WebContainer's mount tree, and the paths a mount creates. */
import type { FileSystemTree } from '@webcontainer/api';
import { isWithin, normalize } from '../paths';
import type { ProjectFiles } from '../sandbox';

/** A sample project as WebContainer's mount tree; refuses paths that leave the project. */
export function toFileSystemTree(files: ProjectFiles): FileSystemTree {
  const tree: FileSystemTree = {};
  for (const [relative, content] of Object.entries(files)) {
    const path = normalize(`/project/${relative}`);
    if (!isWithin('/project', path) || path === '/project') {
      throw new Error(`Sample path escapes the project: ${relative}`);
    }
    const parts = path.split('/').slice(2);
    let dir = tree;
    for (const part of parts.slice(0, -1)) {
      const node = (dir[part] ??= { directory: {} });
      if (!('directory' in node)) throw new Error(`Sample path is both a file and a folder: ${relative}`);
      dir = node.directory;
    }
    dir[parts[parts.length - 1]] = { file: { contents: content } };
  }
  return tree;
}

/** Every path a mount tree creates (relative to the project, `/src/a.py`). */
export function treePaths(tree: FileSystemTree, dir = ''): string[] {
  return Object.entries(tree).flatMap(([name, node]) => {
    const path = `${dir}/${name}`;
    return 'directory' in node ? [path, ...treePaths(node.directory, path)] : [path];
  });
}
