/**
 * `require('util')`: util@0.12.5 (promisify, callbackify, inherits, deprecate, debuglog, types...)
 * with Node's own inspect and format (inspect.js) in place of its Node 0.x ones, and assert's
 * isDeepStrictEqual. The bundle gives this module to every package that imports `util`, so
 * assert's messages print as console.log does.
 */
import utilPackage from 'util/util.js';
import { lazy } from '../host.js';
import { TextDecoder, TextEncoder } from '../text.js';
import { inspect, format, formatWithOptions, stripVTControlCharacters } from './inspect.js';

export const { types } = utilPackage;
export { inspect };

export default {
  ...utilPackage,
  inspect,
  format,
  formatWithOptions,
  stripVTControlCharacters,
  types,
  isDeepStrictEqual: (a, b) => lazy('assert').isDeepStrictEqual(a, b),
  TextEncoder,
  TextDecoder,
};
