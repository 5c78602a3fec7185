/**
 * Node's util.inspect and util.format: node-inspect-extracted, Node's own code taken out of Node,
 * given what QuickJS lacks (inspect-quickjs.js). util, console.log of anything but plain values,
 * assert's messages and the uncaught-error report print with it.
 */
import { removeStandIns } from '../inspect-quickjs.js';
import { inspect, format, formatWithOptions, stripVTControlCharacters } from 'node-inspect-extracted';

removeStandIns();

export { inspect, format, formatWithOptions, stripVTControlCharacters };
