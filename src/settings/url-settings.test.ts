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

describe("readUrlSettings: the demo's pace", () => {
  it('reads instant, normal and slow, normal by default', () => {
    expect(readUrlSettings('').speed).toBe('normal');
    expect(readUrlSettings('?speed=instant').speed).toBe('instant');
    expect(readUrlSettings('?speed=slow').speed).toBe('slow');
    expect(readUrlSettings('?speed=crawl')).toMatchObject({ speed: 'normal', ignored: ['speed=crawl'] });
  });
});

describe('readUrlSettings: the teaching variants', () => {
  it('reads the context mode, isolated by default', () => {
    expect(readUrlSettings('').context).toBe('isolated');
    expect(readUrlSettings('?context=none').context).toBe('none');
    expect(readUrlSettings('?context=fork').context).toBe('fork');
    expect(readUrlSettings('?context=shared')).toMatchObject({
      context: 'isolated',
      ignored: ['context=shared'],
    });
  });

  it('reads the loop limits it is given and leaves the others to the reference', () => {
    expect(readUrlSettings('').limits).toEqual({});
    expect(readUrlSettings('?cap=5&cut=1000&maxTokens=64000&depth=2')).toMatchObject({
      limits: { subagentMaxCalls: 5, outputChars: 1000, maxTokens: 64_000, delegationDepth: 2 },
      ignored: [],
    });
  });

  it('ignores a limit out of its range, naming the range', () => {
    const read = readUrlSettings('?cap=0&cut=999&maxTokens=64001&depth=4&context=fork');
    expect(read.limits).toEqual({});
    expect(read.context).toBe('fork');
    expect(read.ignored).toEqual([
      'cap=0 (1 to 100)',
      'cut=999 (1000 to 200000)',
      'maxTokens=64001 (1 to 64000)',
      'depth=4 (0 to 3)',
    ]);
    for (const bad of ['1.5', '-1', 'two', '', '1e2']) {
      expect(readUrlSettings(`?cap=${bad}`)).toMatchObject({
        limits: {},
        ignored: [`cap=${bad} (1 to 100)`],
      });
    }
  });

  it('reads how many subagents may work at once (1 to 32), and says so when out of range', () => {
    expect(readUrlSettings('').subagentsAtOnce).toBeUndefined();
    expect(readUrlSettings('?parallel=3')).toMatchObject({ subagentsAtOnce: 3, ignored: [] });
    for (const bad of ['0', '33', '2.5', 'many', '']) {
      expect(readUrlSettings(`?parallel=${bad}`)).toMatchObject({
        subagentsAtOnce: undefined,
        ignored: [`parallel=${bad} (1 to 32)`],
      });
    }
  });
});

describe('readUrlSettings: a shared run', () => {
  it('reads embed=1, the address of a run file and the step to show', () => {
    expect(readUrlSettings('')).toMatchObject({ embed: false, record: undefined, step: undefined });
    const url = 'https://gist.example/raw/run.json?x=1&y=2';
    expect(readUrlSettings(`?embed=1&record=${encodeURIComponent(url)}&step=42`)).toMatchObject({
      embed: true,
      record: url,
      step: 42,
      ignored: [],
    });
    expect(readUrlSettings('?step=0').step).toBe(0);
  });

  it('names an embed or a step it does not understand', () => {
    expect(readUrlSettings('?embed=yes')).toMatchObject({ embed: false, ignored: ['embed=yes'] });
    for (const bad of ['-1', '1.5', 'end', '']) {
      expect(readUrlSettings(`?step=${bad}`)).toMatchObject({ step: undefined, ignored: [`step=${bad}`] });
    }
  });
});

describe('readUrlSettings: prompt caching', () => {
  it('reads cache=on and cache=off, and leaves the stored choice alone without it', () => {
    expect(readUrlSettings('').cache).toBeUndefined();
    expect(readUrlSettings('?cache=on').cache).toBe(true);
    expect(readUrlSettings('?cache=off').cache).toBe(false);
    expect(readUrlSettings('?cache=yes')).toMatchObject({ ignored: ['cache=yes'] });
    expect(readUrlSettings('?cache=yes').cache).toBeUndefined();
  });
});
