import type { Cluster } from 'ioredis';

/** An entry event another node published. */
export interface PublishedEntryEvent {
  type: 'cache-entry-created' | 'cache-entry-modified' | 'cache-entry-removed' | 'cache-entry-expired';
  key: Buffer;
}

/** A node's id as its writes publish it: 16 characters. */
export const NODE_ID_LENGTH = 16;

/** A message's first letter: what happened to the key (`e`: a script found its entry expired and removed it). */
const TYPES: Record<string, PublishedEntryEvent['type']> = { c: 'cache-entry-created', m: 'cache-entry-modified', r: 'cache-entry-removed', e: 'cache-entry-expired' };

/**
 * The entry events of other nodes (docs/scale-out.md, "Entry events"): each write script publishes
 * its event on its segment's sharded channel (`v:{<cacheId>:<segment>}`, the segment's slot), and so
 * does each script that removes an expired entry, so a key's events come from one master in the order
 * its scripts ran there. A message is one letter, the node's id, the key's bytes. One subscriber client per
 * process (ioredis's sharded subscribers: a connection per master) follows the channels of the
 * caches that have listeners; an event this node published itself is skipped — its listeners heard
 * it when the write was made.
 */
export class EntryEventFeed {
  private readonly subscriber: Cluster;
  private readonly handlers = new Map<string, (e: PublishedEntryEvent) => void>();
  /** Channels that carry something else than entry events (src/store/redis/node-calls.ts): each message as it came. */
  private readonly plain = new Map<string, (message: Buffer) => void>();

  constructor(client: Cluster, readonly node: string) {
    if (node.length !== NODE_ID_LENGTH) throw new Error(`a node id has ${NODE_ID_LENGTH} characters: ${node}`);
    this.subscriber = client.duplicate([], { shardedSubscribers: true });
    this.subscriber.on('error', () => undefined); // a lost subscription is taken up again by the client
    this.subscriber.on('smessageBuffer', (channel: Buffer, message: Buffer) => this.deliver(channel.toString(), message));
  }

  /** Hands every event of another node on `channels` to `handler` from once this resolves; resolves with the way to stop. */
  async follow(channels: readonly string[], handler: (e: PublishedEntryEvent) => void): Promise<() => Promise<void>> {
    for (const c of channels) this.handlers.set(c, handler);
    // a channel per call: the channels of one cache are in as many slots as it has segments
    await Promise.all(channels.map((c) => this.subscriber.ssubscribe(c)));
    return async () => {
      for (const c of channels) if (this.handlers.get(c) === handler) this.handlers.delete(c);
      await Promise.all(channels.map((c) => this.subscriber.sunsubscribe(c))).catch(() => undefined);
    };
  }

  /** Hands every message on `channel` (any node's, this one's too) to `handler` from once this resolves. */
  async listen(channel: string, handler: (message: Buffer) => void): Promise<void> {
    this.plain.set(channel, handler);
    await this.subscriber.ssubscribe(channel);
  }

  close(): void {
    this.subscriber.disconnect();
  }

  private deliver(channel: string, message: Buffer): void {
    const plain = this.plain.get(channel);
    if (plain) return plain(message);
    const handler = this.handlers.get(channel);
    if (!handler || message.length < 1 + NODE_ID_LENGTH) return;
    if (message.toString('latin1', 1, 1 + NODE_ID_LENGTH) === this.node) return;
    const type = TYPES[String.fromCharCode(message[0])];
    if (type) handler({ type, key: Buffer.from(message.subarray(1 + NODE_ID_LENGTH)) });
  }
}
