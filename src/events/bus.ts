import type { Logger } from 'pino';
import type { WorkspaceContext } from '../context.js';
import type { DomainEvents, EventName } from './events.js';

/**
 * When a listener runs. `transaction`: inside the emitter's transaction, before it commits, so its
 * writes commit (or roll back) with the change (a source unlinked with the article it pointed to).
 * `commit`: after the transaction committed, never for a change that rolled back (analytics,
 * webhooks); its failure is logged and does not undo the change.
 */
export type ListenerPhase = 'transaction' | 'commit';

export interface EventListener<K extends EventName = EventName> {
  /** Names the listener in logs: `<module>.<what it does>`. */
  readonly name: string;
  readonly event: K;
  readonly phase: ListenerPhase;
  handle(ctx: WorkspaceContext, payload: DomainEvents[K]): Promise<void>;
}

/** Keeps the payload type of the event attached to the handler. */
export function defineListener<K extends EventName>(listener: EventListener<K>): EventListener<K> {
  return listener;
}

/** A listener with its payload type erased, for the registry. */
export type RegisteredListener = EventListener<EventName>;

export function registeredListener<K extends EventName>(listener: EventListener<K>): RegisteredListener {
  return listener as unknown as RegisteredListener;
}

interface Pending {
  readonly ctx: WorkspaceContext;
  readonly name: EventName;
  readonly payload: unknown;
}

/**
 * The `events` port of a context. Outside a transaction it delivers at once; the scope that
 * `inTransaction` gives a context runs `transaction` listeners at once and keeps the `commit` ones
 * until the outermost transaction commits.
 */
export interface EventPort {
  publish<K extends EventName>(ctx: WorkspaceContext, name: K, payload: DomainEvents[K]): Promise<void>;
  /** A scope for a transaction opened by a context holding this port. */
  begin(): TransactionEvents;
  /**
   * Adds a listener of an object of this process built after the ports (the app's open widget
   * streams), for as long as it lives: the answered function removes it.
   */
  listen<K extends EventName>(listener: EventListener<K>): () => void;
}

/**
 * The events of one transaction: `commit(outside)` after it committed, with the database and
 * events port of the context that opened it (listeners after the commit run outside the
 * transaction), `discard()` after a rollback.
 */
export interface TransactionEvents extends EventPort {
  commit(outside: Pick<WorkspaceContext, 'db' | 'events'>): Promise<void>;
  discard(): void;
}

/** The process's event bus: every module's listeners, by event, registered once at start. */
export class EventBus implements EventPort {
  private readonly byEvent = new Map<EventName, { transaction: RegisteredListener[]; commit: RegisteredListener[] }>();

  constructor(
    listeners: readonly RegisteredListener[],
    private readonly log: Logger,
  ) {
    for (const listener of listeners) this.add(listener);
  }

  // The lists are replaced, never changed in place: a delivery in progress keeps the one it began with.
  private add(listener: RegisteredListener): void {
    const entry = this.byEvent.get(listener.event) ?? { transaction: [], commit: [] };
    entry[listener.phase] = [...entry[listener.phase], listener];
    this.byEvent.set(listener.event, entry);
  }

  listen<K extends EventName>(listener: EventListener<K>): () => void {
    const added = registeredListener(listener);
    this.add(added);
    return () => {
      const entry = this.byEvent.get(added.event);
      if (entry) entry[added.phase] = entry[added.phase].filter((l) => l !== added);
    };
  }

  private listeners(name: EventName, phase: ListenerPhase): readonly RegisteredListener[] {
    return this.byEvent.get(name)?.[phase] ?? [];
  }

  async publish<K extends EventName>(ctx: WorkspaceContext, name: K, payload: DomainEvents[K]): Promise<void> {
    await this.runTransactionListeners(ctx, name, payload);
    await this.runCommitListeners([{ ctx, name, payload }]);
  }

  begin(): TransactionEvents {
    return new TransactionScope(this, undefined);
  }

  /** Runs the `transaction` listeners; their failure is the emitter's (the transaction rolls back). */
  async runTransactionListeners(ctx: WorkspaceContext, name: EventName, payload: unknown): Promise<void> {
    for (const listener of this.listeners(name, 'transaction')) await listener.handle(ctx, payload as never);
  }

  /** Runs the `commit` listeners of committed events in order; a failure is logged, not thrown. */
  async runCommitListeners(events: readonly Pending[]): Promise<void> {
    for (const event of events) {
      for (const listener of this.listeners(event.name, 'commit')) {
        try {
          await listener.handle(event.ctx, event.payload as never);
        } catch (error) {
          this.log.error({ err: error, event: event.name, listener: listener.name, workspaceId: event.ctx.workspaceId }, 'event listener failed');
        }
      }
    }
  }
}

/** The events of one (possibly nested) transaction. */
class TransactionScope implements TransactionEvents {
  private readonly pending: Pending[] = [];

  constructor(
    private readonly bus: EventBus,
    private readonly parent: TransactionScope | undefined,
  ) {}

  async publish<K extends EventName>(ctx: WorkspaceContext, name: K, payload: DomainEvents[K]): Promise<void> {
    await this.bus.runTransactionListeners(ctx, name, payload);
    this.pending.push({ ctx, name, payload });
  }

  begin(): TransactionEvents {
    return new TransactionScope(this.bus, this);
  }

  listen<K extends EventName>(listener: EventListener<K>): () => void {
    return this.bus.listen(listener);
  }

  /** A savepoint's events wait for the outermost commit; the outermost delivers them. */
  async commit(outside: Pick<WorkspaceContext, 'db' | 'events'>): Promise<void> {
    const events = this.pending.splice(0);
    if (this.parent) {
      this.parent.pending.push(...events);
      return;
    }
    await this.bus.runCommitListeners(events.map((e) => ({ ...e, ctx: { ...e.ctx, db: outside.db, events: outside.events } })));
  }

  discard(): void {
    this.pending.length = 0;
  }
}
