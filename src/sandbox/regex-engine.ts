/**
 * just-bash's regular-expression engine (RE2), which the shell calls only while a command runs
 * (a glob, `${x#pattern}`, `[[ =~ ]]`, `case`, grep, sed...). The browser build loads it apart
 * from the shell's core, so that the sandbox is ready sooner on a slow link
 * (vite-plugins/just-bash-split.ts replaces this module there with the shell's loader for it);
 * every command awaits this first. In Node just-bash imports it statically: nothing to load.
 */
export function regexEngine(): Promise<void> {
  return Promise.resolve();
}
