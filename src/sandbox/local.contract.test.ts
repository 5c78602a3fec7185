/** The sandbox contract (contract.ts) on the offline backend: just-bash over memory. */
import { sandboxContract } from './contract';
import { create } from './local';

sandboxContract('local (just-bash over memory)', (files) => create(files));
