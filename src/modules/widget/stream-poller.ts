import type { Logger } from 'pino';
import type { Db } from '../../db/database.js';
import { changedConversations } from '../conversations/index.js';

/** An open stream's part in the poller: `wake` has it read its events; `fresh` until a poll after it began woke it. */
interface Watcher {
  readonly wake: () => void;
  fresh: boolean;
}

/** A conversation with open streams: its version at the last poll (undefined: not polled yet; null: no row). */
interface Followed {
  version: string | null | undefined;
  readonly watchers: Set<Watcher>;
}

/**
 * The one poller of a process's open visitor streams (docs/widget.md "Across processes"). Every
 * `pollMs`, while any stream is open, one query answers which of their conversations changed since
 * the last poll, and only those conversations' streams read their events: the cost of idle
 * streams is a primary-key probe each in that one query, not a query pair each.
 *
 * A change is a new version of the conversation's row (its `xmin`, the transaction that wrote it;
 * a message is written with its conversation, as are status, hand-over and release), compared for
 * equality, never ordered: no clock or commit order is trusted, so a slow transaction that commits
 * after a later one, or a process whose clock is behind, is seen at the next poll all the same
 * (a watermark on `updated_at` would miss them: it is stamped by the writer's clock, before its
 * transaction commits, and a reply's stamp can be older than the answer's pipeline). A version
 * seen by a poll is read by the woken streams after that poll, so they read at least that.
 *
 * A stream is also woken by the first poll after it began (its first page was read before), and
 * at once, with no query, by `changed` (a write of this process committed).
 */
export class StreamPoller {
  private readonly followed = new Map<string, Followed>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private closed = false;
  /** Polls run so far (the metrics show them). */
  polls = 0;

  constructor(private readonly options: { db: Db; log: Logger; pollMs: number }) {}

  /** Follows a conversation for a stream until the answered function is called. */
  watch(conversationId: string, wake: () => void): () => void {
    const watcher: Watcher = { wake, fresh: true };
    let followed = this.followed.get(conversationId);
    if (!followed) {
      followed = { version: undefined, watchers: new Set() };
      this.followed.set(conversationId, followed);
    }
    followed.watchers.add(watcher);
    this.schedule();
    const entry = followed;
    return () => {
      entry.watchers.delete(watcher);
      if (entry.watchers.size === 0 && this.followed.get(conversationId) === entry) this.followed.delete(conversationId);
    };
  }

  /** A write of this process to the conversation committed: its streams here read at once. */
  changed(conversationId: string): void {
    for (const watcher of this.followed.get(conversationId)?.watchers ?? []) watcher.wake();
  }

  /** Stops polling (the process is closing). */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.closed || this.polling || this.timer || this.followed.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.poll();
    }, this.options.pollMs);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    this.polling = true;
    // Streams that began before this poll's query: it reads after their first page.
    const fresh = [...this.followed.values()].flatMap((f) => [...f.watchers].filter((w) => w.fresh));
    // A conversation not polled yet is sent with a version no row has: it comes back with its own.
    const known = [...this.followed].map(([id, f]) => ({ id, version: f.version === undefined ? '' : f.version }));
    try {
      const changed = await changedConversations({ db: this.options.db }, known);
      this.polls += 1;
      const woken = new Set(fresh);
      for (const { id, version } of changed) {
        const followed = this.followed.get(id);
        if (!followed) continue;
        followed.version = version;
        for (const watcher of followed.watchers) woken.add(watcher);
      }
      for (const watcher of woken) {
        watcher.fresh = false;
        watcher.wake();
      }
    } catch (error) {
      // The database failed: the streams stay open and the next poll tries again.
      this.options.log.warn({ err: error, conversations: known.length }, 'widget stream poll failed');
    } finally {
      this.polling = false;
      this.schedule();
    }
  }
}
