/**
 * The one sentence an error carries. Anything can be thrown in JavaScript, so a reason shown to a
 * learner (or sent back to a model as a tool result) is the error's own message when it is an
 * `Error`, and the thrown value as text otherwise.
 */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
