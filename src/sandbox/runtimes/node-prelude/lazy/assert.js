/** `require('assert')`: the assert package, Node's assert for other engines. */
import assert from 'assert';

export { isDeepStrictEqual } from 'assert/build/internal/util/comparisons.js';
export default assert;
