/** The settings of a demo run on the python sample, as most unit tests of records need them. */
import { REFERENCE_LIMITS } from '../src/core/variants';
import type { RunSettings } from '../src/run/record';

export const DEMO_SETTINGS: RunSettings = {
  provider: 'demo',
  model: 'demo',
  sample: 'python',
  sandbox: 'local',
  context: 'isolated',
  limits: REFERENCE_LIMITS,
};
