/**
 * The planted marker: a prompt that gives the parent a code word and asks a subagent to report it.
 * The subagent answers from what its request holds, nothing else: isolated (s04), its array is the
 * task prompt alone and it cannot tell the word; forked, it starts from the parent's conversation
 * and can. The isolation check (src/run/isolation.ts) shows why, call by call.
 *
 *   parent   "The code word is PELICAN-42. Use a subtask to ask a subagent for the code word"
 *     └ task "Report the code word, if you were given one. ..."   (the word is not in it)
 *         subagent: searches the messages it was sent for "code word is X"
 *   parent   relays the answer, and says what it shows
 */
import type { Message } from '../../core/messages';
import type { ModelRequest } from '../../core/model';
import { languageOf, type Lang } from './language';
import type { Plan, Turn } from './turn';

/** The marker prompt in each language (the sample the Isolation check offers). */
export const CODEWORD_PROMPTS: Record<Lang, string> = {
  en: 'The code word is PELICAN-42. Use a subtask to ask a subagent for the code word',
  zh: '暗号是 PELICAN-42。用子任务让子代理说出暗号',
  ja: '合言葉は PELICAN-42。サブタスクでサブエージェントに合言葉を聞いて',
};

/** A prompt that is about a code word, in any language. */
const ASKS = [/\bcode ?word\b/i, /暗号/, /合言葉/];
/** Where a code word is given: its value is the group. */
const GIVEN = [
  /\bcode ?word is[:\s]*["“']?([A-Za-z0-9][\w-]*)/i,
  /暗号是[:：\s]*["“]?([A-Za-z0-9][\w-]*)/,
  /合言葉は[:：\s]*["「]?([A-Za-z0-9][\w-]*)/,
];

const WORDS: Record<
  Lang,
  {
    description: string;
    task: string;
    say: string;
    known: (word: string) => string;
    unknown: string;
    relay: (report: string) => string;
    could: string;
    couldNot: string;
    alone: (word: string | null) => string;
  }
> = {
  en: {
    description: 'report the code word',
    task: 'Report the code word, if you were given one. If you were not, say so and say what your context holds.',
    say: 'I will ask a subagent for the code word, without telling it.',
    known: (word) =>
      `The code word is ${word}. It was in the messages my first call sent: I started from the parent's conversation.`,
    unknown:
      'I was given no code word. My context holds one message, this task prompt, and nothing of the conversation that asked for it.',
    relay: (report) => `The subagent answered: “${report}”`,
    could:
      'It could tell: this subagent was forked, so its array started with my conversation, code word included.',
    couldNot:
      'It could not tell: a subagent starts with a fresh array holding only the task prompt, and I never put the code word in it. The Isolation check shows each of its calls carried nothing of my conversation.',
    alone: (word) => (word ? `The code word is ${word}.` : 'I was given no code word.'),
  },
  zh: {
    description: '报告暗号',
    task: '如果你得到过暗号，请报告它。如果没有，请说明，并说出你的上下文里有什么。',
    say: '我会让一个子代理报告暗号，但不告诉它。',
    known: (word) => `暗号是 ${word}。它就在我第一次调用发送的消息里：我是从父代理的对话开始的。`,
    unknown:
      '我没有得到任何暗号。我的上下文只有一条消息，就是这个任务提示词，没有提出它的那段对话的任何内容。',
    relay: (report) => `子代理回答：“${report}”`,
    could: '它答得出：这个子代理是分叉出来的，它的数组从我的对话开始，暗号也在其中。',
    couldNot:
      '它答不出：子代理从一个只有任务提示词的新数组开始，而我从没把暗号放进去。隔离检查显示它的每次调用都没有带上我对话中的任何内容。',
    alone: (word) => (word ? `暗号是 ${word}。` : '我没有得到任何暗号。'),
  },
  ja: {
    description: '合言葉を報告する',
    task: '合言葉を与えられていれば報告してください。与えられていなければそう言い、あなたのコンテキストに何があるかを述べてください。',
    say: '合言葉は伝えずに、サブエージェントに合言葉を聞きます。',
    known: (word) =>
      `合言葉は ${word} です。最初の呼び出しで送ったメッセージの中にありました。私は親の会話から始まっています。`,
    unknown:
      '合言葉は与えられていません。私のコンテキストにあるのはこのタスクのプロンプト 1 件だけで、それを頼んだ会話の内容は何もありません。',
    relay: (report) => `サブエージェントの答え：「${report}」`,
    could:
      '答えられました。このサブエージェントはフォークされたので、配列は合言葉を含む私の会話から始まっています。',
    couldNot:
      '答えられませんでした。サブエージェントはタスクのプロンプトだけを持つ新しい配列で始まり、私はそこに合言葉を入れていません。分離チェックでは、どの呼び出しも私の会話を何も含んでいません。',
    alone: (word) => (word ? `合言葉は ${word} です。` : '合言葉は与えられていません。'),
  },
};

/** Whether a prompt asks about a code word. */
export function asksCodeword(prompt: string): boolean {
  return ASKS.some((pattern) => pattern.test(prompt));
}

/** The texts of a message: its text blocks, and a plain string prompt. */
function textsOf(message: Message): string[] {
  if (typeof message.content === 'string') return [message.content];
  return message.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
}

/** The code word given anywhere in `messages`, or null. */
function givenIn(messages: readonly Message[]): string | null {
  for (const message of messages) {
    for (const text of textsOf(message)) {
      for (const pattern of GIVEN) {
        const found = pattern.exec(text);
        if (found) return found[1];
      }
    }
  }
  return null;
}

/** The subagent's answer: the code word if the messages it was sent hold one. */
export function answerCodeword(request: Pick<ModelRequest, 'messages'>, turn: Turn): Plan {
  const t = WORDS[languageOf(turn.prompt)];
  const word = givenIn(request.messages);
  return { text: word ? t.known(word) : t.unknown };
}

/** The parent's step: ask a subagent (it has `task`), relay its answer, or answer alone (no `task`). */
export function parentCodeword(
  request: Pick<ModelRequest, 'messages'>,
  turn: Turn,
  tools: Set<string>,
): Plan {
  const t = WORDS[languageOf(turn.prompt)];
  const task = turn.steps.flat().find((call) => call.name === 'task');
  if (!task) {
    if (!tools.has('task')) return { text: t.alone(givenIn(request.messages)) };
    return { text: t.say, calls: [{ name: 'task', input: { description: t.description, prompt: t.task } }] };
  }
  const report = (task.output ?? '').trim();
  const word = givenIn([{ role: 'user', content: turn.prompt }]);
  const told = word !== null && report.includes(word);
  return { text: `${t.relay(report)}\n\n${told ? t.could : t.couldNot}` };
}
