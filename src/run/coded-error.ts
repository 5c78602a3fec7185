/**
 * The errors the screen says in the learner's language: a `code` naming the problem and the
 * `params` its sentence takes (src/ui/sentence.ts finds the sentence under its own keys), with the
 * English sentence as the message, for logs and tests. Each kind (a record, a link, History, a
 * Claude Code session) is a class of its own, so that the screen tells them apart with instanceof.
 */
export class CodedError<C extends string, P extends object = Record<string, string | number>> extends Error {
  readonly code: C;
  readonly params: P;

  constructor(code: C, params: P, message: string) {
    super(message);
    this.code = code;
    this.params = params;
  }
}
