/**
 * `require('path')`: path-browserify, Node's POSIX path module of Node 10, which resolves against
 * process.cwd(). Its argument checks are Node 10's ("Path must be a string"): they are made here
 * first, with the message and code Node prints today.
 */
import posix from 'path-browserify';
import { assertString } from './errors.js';

/** `fn` with its leading arguments checked to be strings, under Node's names for them. */
const strings =
  (fn, names) =>
  (...args) => {
    names.forEach((name, i) => assertString(args[i], name));
    return fn(...args);
  };

export const path = {
  ...posix,
  resolve: (...paths) => {
    paths.forEach((p, i) => assertString(p, `paths[${i}]`));
    return posix.resolve(...paths);
  },
  join: (...paths) => {
    paths.forEach((p) => assertString(p, 'path'));
    return posix.join(...paths);
  },
  normalize: strings(posix.normalize, ['path']),
  isAbsolute: strings(posix.isAbsolute, ['path']),
  relative: strings(posix.relative, ['from', 'to']),
  dirname: strings(posix.dirname, ['path']),
  basename: (p, ext) => {
    assertString(p, 'path');
    if (ext !== undefined) assertString(ext, 'ext');
    return posix.basename(p, ext);
  },
  extname: strings(posix.extname, ['path']),
  parse: strings(posix.parse, ['path']),
  toNamespacedPath: (p) => p,
};
path.posix = path;
