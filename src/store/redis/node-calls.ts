import type { Cluster } from 'ioredis';
import { engineFailure } from './engine-failure';
import type { EntryEventFeed } from './entry-event-feed';

/** What a node answers to a question: a text, or undefined when it has nothing to say (e.g. no such cache); at once or later. */
export type Answerer = (topic: string, body: string) => string | undefined | Promise<string | undefined>;

interface Question { q: number; from: string; topic: string; body: string }
interface Answer { q: number; node: string; body: string | null }

interface Pending {
  /** The names still to answer. */
  waiting: Set<string>;
  answers: Map<string, string | undefined>;
  done: () => void;
}

/**
 * Questions a grid node asks the other live nodes, and their answers (docs/scale-out.md,
 * "Cluster-wide statistics"), over sharded pub/sub in the slot of the members' keys: a question on
 * `{grid-nodes}:calls`, which every node follows, each answer on the asker's own channel
 * `{grid-nodes}:answers:<process id>`. Nothing is kept: a node that does not hear a question (its
 * subscription being made again after a failover, say) is simply not heard from before the
 * deadline. Who is to answer is the asker's to say (the live members); this class decides nothing.
 */
export class NodeCalls {
  private readonly calls: string;
  private readonly prefix: string;
  private seq = 0;
  private readonly pending = new Map<number, Pending>();
  private answerer: Answerer = () => undefined;

  /** `id`: this process's id (its channel's name); `name()`: the node's name, known once it listens. */
  constructor(private readonly client: Cluster, private readonly feed: EntryEventFeed, namespace: string | undefined,
    private readonly id: string, private readonly name: () => string) {
    const tag = `{grid-nodes${namespace ? `:${namespace}` : ''}}`;
    this.calls = `${tag}:calls`;
    this.prefix = `${tag}:answers:`;
  }

  /** Follows the questions and this node's answers; `answerer` says what this node answers. */
  async open(answerer: Answerer): Promise<void> {
    this.answerer = answerer;
    await this.feed.listen(this.prefix + this.id, (m) => this.heard(m));
    await this.feed.listen(this.calls, (m) => void this.asked(m));
  }

  /**
   * Asks `topic` of the nodes named in `of`: their answers by name, once all answered or
   * `deadlineMs` passed (those not heard from by then are left out).
   */
  async ask(topic: string, body: string, of: readonly string[], deadlineMs: number): Promise<Map<string, string | undefined>> {
    const q = ++this.seq;
    const answers = new Map<string, string | undefined>();
    if (of.length === 0) return answers;
    let timer: NodeJS.Timeout | undefined;
    const finished = new Promise<void>((resolve) => {
      this.pending.set(q, { waiting: new Set(of), answers, done: resolve });
      timer = setTimeout(resolve, deadlineMs);
    });
    try {
      const question: Question = { q, from: this.id, topic, body };
      await this.client.spublish(this.calls, JSON.stringify(question)).catch(engineFailure);
      await finished;
      return answers;
    } finally {
      clearTimeout(timer);
      this.pending.delete(q);
    }
  }

  private async asked(message: Buffer): Promise<void> {
    const question = parse<Question>(message);
    if (!question || question.from === this.id || this.name() === '') return;
    let body: string | undefined;
    try {
      body = await this.answerer(question.topic, question.body);
    } catch {
      body = undefined;
    }
    const answer: Answer = { q: question.q, node: this.name(), body: body ?? null };
    // an answer that cannot be sent is one the asker does not hear: its deadline covers it
    this.client.spublish(this.prefix + question.from, JSON.stringify(answer)).catch(() => undefined);
  }

  private heard(message: Buffer): void {
    const answer = parse<Answer>(message);
    const pending = answer && this.pending.get(answer.q);
    if (!pending || !pending.waiting.delete(answer.node)) return;
    pending.answers.set(answer.node, answer.body ?? undefined);
    if (pending.waiting.size === 0) pending.done();
  }
}

function parse<T>(message: Buffer): T | undefined {
  try {
    return JSON.parse(message.toString('utf8')) as T;
  } catch {
    return undefined;
  }
}
