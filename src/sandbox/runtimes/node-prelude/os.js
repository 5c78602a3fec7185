/**
 * Hand-written: `require('os')` tells the truth about this sandbox (QuickJS on wasm32, one CPU,
 * the run's memory limit); os-browserify would describe a browser instead.
 */
import { host, init } from './host.js';

export const os = {
  EOL: '\n',
  platform: () => 'linux',
  type: () => 'Linux',
  arch: () => 'wasm32',
  release: () => '0.0.0-quickjs',
  hostname: () => 'sandbox',
  homedir: () => init.env.HOME ?? '/home/user',
  tmpdir: () => '/tmp',
  userInfo: () => ({ username: 'user', uid: 1000, gid: 1000, shell: '/bin/bash', homedir: init.env.HOME }),
  cpus: () => [{ model: 'QuickJS', speed: 0, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } }],
  availableParallelism: () => 1,
  totalmem: () => init.memoryLimitBytes,
  freemem: () => init.memoryLimitBytes,
  uptime: () => host.now() / 1000,
  loadavg: () => [0, 0, 0],
  networkInterfaces: () => ({}),
  endianness: () => 'LE',
};
