/** The sandbox contract (test/sandbox-contract.ts) on the offline backend: just-bash over memory. */
import { sandboxContract } from '../../../test/sandbox-contract';
import { create } from './index';

sandboxContract('local (just-bash over memory)', (files) => create(files));
