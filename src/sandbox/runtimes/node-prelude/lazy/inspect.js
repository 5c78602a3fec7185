/**
 * Node's util.inspect and util.format: node-inspect-extracted, Node's own code taken out of Node,
 * given what QuickJS lacks (inspect-quickjs.js). util, console.log of anything but plain values,
 * assert's messages and the uncaught-error report print with it. Loading it is the price of
 * printing exactly as Node does: QuickJS parses its 52 KB and builds Node's primordials, about
 * 20-50 ms of a run (2 busy cores) where the hand-written formatter it replaces cost next to
 * nothing; a run that prints only plain values never loads it (console.js).
 */
import { removeStandIns } from '../inspect-quickjs.js';
import { inspect, format, formatWithOptions, stripVTControlCharacters } from 'node-inspect-extracted';

removeStandIns();

export { inspect, format, formatWithOptions, stripVTControlCharacters };
