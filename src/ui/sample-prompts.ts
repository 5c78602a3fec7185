/**
 * The three sample prompts of docs/protocol.md. They are protocol text: never translated, and the buttons
 * that send them are named by exactly this text.
 */
import type { SampleName } from '../sandbox/samples';

export function samplePrompts(sample: SampleName): string[] {
  const ext = sample === 'typescript' ? '.ts' : '.py';
  return [
    'Use a subtask to find what testing framework this project uses',
    `Delegate: read all ${ext} files and summarize what each one does`,
    'Use a task to create a new module, then verify it from here',
  ];
}
