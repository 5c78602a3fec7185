/**
 * The sandbox contract (contract.ts) on the WebContainer backend: always over a fake of
 * WebContainer's API (what the adapter itself does: just-bash over wc.fs, spawn, watch), and on a
 * real WebContainer where one can boot: a browser page with internet, never Node.
 */
import { it } from 'vitest';
import { sandboxContract } from './contract';
import { create } from './webcontainer';
import { cannotBootReason } from './webcontainer-boot';
import { FakeWebContainer } from './webcontainer-fake';

sandboxContract('WebContainer adapter over a fake WebContainer', (files) =>
  create(files, { webContainer: new FakeWebContainer() }),
);

const reason = cannotBootReason();
if (reason === null) {
  sandboxContract('WebContainer', (files) => create(files, { coep: 'require-corp' }));
} else {
  const why = reason.replace(/^cannot start here: /, '');
  console.log(`Sandbox contract on a real WebContainer skipped: WebContainer ${reason}.`);
  it.skip(`WebContainer: cannot boot here (${why})`, () => {});
}
