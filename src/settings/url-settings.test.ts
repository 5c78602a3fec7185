import { describe, expect, it } from 'vitest';
import { readUrlSettings } from './url-settings';

describe('readUrlSettings: the sandbox', () => {
  it('defaults to auto and accepts local and webcontainer', () => {
    expect(readUrlSettings('').sandbox).toBe('auto');
    expect(readUrlSettings('?sandbox=local').sandbox).toBe('local');
    expect(readUrlSettings('?sandbox=webcontainer').sandbox).toBe('webcontainer');
    expect(readUrlSettings('?sandbox=docker')).toMatchObject({
      sandbox: 'auto',
      ignored: ['sandbox=docker'],
    });
  });

  it('reads wcTimeout (ms) for the WebContainer boot, ignoring what is not a sensible time', () => {
    expect(readUrlSettings('').webContainerTimeoutMs).toBeUndefined();
    expect(readUrlSettings('?wcTimeout=2000').webContainerTimeoutMs).toBe(2000);
    for (const bad of ['0', '-5', '1.5', 'soon', '999999']) {
      expect(readUrlSettings(`?wcTimeout=${bad}`)).toMatchObject({
        webContainerTimeoutMs: undefined,
        ignored: [`wcTimeout=${bad}`],
      });
    }
  });
});
