/**
 * The sandbox contract (test/sandbox-contract.ts) on the WebContainer backend: always over a fake of
 * WebContainer's API (what the adapter itself does: just-bash over wc.fs, spawn, watch), with the
 * shell in-process and across a transport that clones as postMessage does, and on a
 * real WebContainer where one can boot: a browser page with internet, never Node.
 */
import { it } from 'vitest';
import { sandboxContract } from '../../../test/sandbox-contract';
import { create } from './index';
import { cannotBootReason } from './boot';
import { clonedShell, FakeWebContainer } from '../../../test/webcontainer-fake';

sandboxContract('WebContainer adapter over a fake WebContainer', (files) =>
  create(files, { webContainer: new FakeWebContainer() }),
);

// As in the browser, where the shell runs in a worker: what crosses to it is structured-cloned.
sandboxContract('WebContainer adapter, its shell across a cloning transport', (files) =>
  create(files, { webContainer: new FakeWebContainer(), shell: clonedShell() }),
);

const reason = cannotBootReason();
if (reason === null) {
  sandboxContract('WebContainer', (files) => create(files, { coep: 'require-corp' }));
} else {
  const why = reason.replace(/^cannot start here: /, '');
  console.log(`Sandbox contract on a real WebContainer skipped: WebContainer ${reason}.`);
  it.skip(`WebContainer: cannot boot here (${why})`, () => {});
}
