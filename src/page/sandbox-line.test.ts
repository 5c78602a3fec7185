import { describe, expect, it, vi } from 'vitest';
import { sandboxLine, withLine } from './sandbox-line';

function later<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('sandboxLine', () => {
  it('closes the connection once, when it is made and then closed', async () => {
    const close = vi.fn();
    const line = sandboxLine(Promise.resolve({ close }));
    await line.connected;
    line.close();
    line.close();
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('closed before the sandbox took its end: closes it as soon as it has', async () => {
    const close = vi.fn();
    const connecting = later<{ close: () => void }>();
    const line = sandboxLine(connecting.promise);
    line.close();
    expect(close).not.toHaveBeenCalled();
    connecting.resolve({ close });
    await line.connected;
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('a line that could not be made fails the run at once, even one still waiting on it', async () => {
    const connecting = later<{ close: () => void }>();
    const line = sandboxLine(connecting.promise);
    const run = withLine(new Promise<string>(() => {}), line);
    connecting.reject(new Error('The sandbox is not booted yet'));
    await expect(run).rejects.toThrow('The sandbox is not booted yet');
    expect(() => line.close()).not.toThrow();
  });

  it('the run does not wait for the line to start, and ends with its own result', async () => {
    const connecting = later<{ close: () => void }>();
    const line = sandboxLine(connecting.promise);
    let started = false;
    const run = withLine(
      (async () => {
        started = true;
        return 'It uses pytest.';
      })(),
      line,
    );
    expect(started).toBe(true);
    connecting.resolve({ close: () => {} });
    await expect(run).resolves.toBe('It uses pytest.');
  });

  it('a failed run fails without waiting for the line', async () => {
    const line = sandboxLine(new Promise(() => {}));
    await expect(withLine(Promise.reject(new Error('Failed: 401')), line)).rejects.toThrow('Failed: 401');
  });
});
