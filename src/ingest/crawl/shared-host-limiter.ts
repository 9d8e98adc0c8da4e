// Politeness for a whole PostgreSQL deployment: however many workers (and API processes running
// deep crawls) fetch from one site, at most `perHost` requests are in flight to it and their starts
// are `delayMs` apart. The state lives in the database (db/limits.ts): a request leases one of the
// host's slots and reserves its start in one statement, waits for that start, runs, and frees the
// slot. A lease is renewed while its request runs, so only a dead process's slot runs out; it frees
// itself within `leaseMs` and never blocks a host for good.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HostTurn, HostTurnStore } from '../../db/limits.js';
import { HostLimiter, type HostLimiterOptions, type HostPoliteness, hostOf } from './host-limiter.js';

export interface SharedHostLimiterOptions extends HostLimiterOptions {
  /** How long a slot stays held without renewal (default 15 s, renewed every third of it). */
  leaseMs?: number;
  /** Pause before asking again when every slot of a host is held elsewhere (default 50 ms). */
  pollMs?: number;
}

const DEFAULT_LEASE_MS = 15_000;
const DEFAULT_POLL_MS = 50;

/** Per-host concurrency and start spacing over every process that shares the store's database. */
export class SharedHostLimiter implements HostPoliteness {
  /**
   * This process's callers queue here first, in arrival order and at most `perHost` per host, so
   * only they ask the database for a slot.
   */
  private readonly local: HostLimiter;
  private readonly perHost: number;
  private readonly delayMs: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;

  constructor(
    private readonly store: HostTurnStore,
    options: SharedHostLimiterOptions,
  ) {
    this.perHost = Math.max(1, Math.floor(options.perHost));
    this.delayMs = Math.max(0, options.delayMs);
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    this.local = new HostLimiter({ perHost: this.perHost, delayMs: 0 });
  }

  run<T>(url: string, fn: () => Promise<T>, delayMs = this.delayMs): Promise<T> {
    const host = hostOf(url);
    return this.local.run(url, async () => {
      const holder = randomUUID();
      const turn = await this.claim(host, holder, Math.max(0, delayMs));
      try {
        return await this.whileRenewed(host, turn.slot, holder, async () => {
          if (turn.waitMs > 0) await sleep(turn.waitMs);
          return fn();
        });
      } finally {
        // A release that fails (the database gone for a moment) frees the slot when its lease ends.
        await this.store.release(host, turn.slot, holder).catch(() => undefined);
      }
    });
  }

  /** Asks for a slot and a start until one is free (the other processes' requests end). */
  private async claim(host: string, holder: string, delayMs: number): Promise<HostTurn> {
    for (;;) {
      const turn = await this.store.claim({ host, perHost: this.perHost, delayMs, leaseMs: this.leaseMs, holder });
      if (turn) return turn;
      await sleep(this.pollMs);
    }
  }

  /** Runs `fn` (the wait for its start, then the request), renewing the slot's lease every third of it until `fn` settles. */
  private async whileRenewed<T>(host: string, slot: number, holder: string, fn: () => Promise<T>): Promise<T> {
    const renewal = setInterval(() => {
      this.store.renew(host, slot, holder, this.leaseMs).catch(() => undefined); // the next renewal tries again
    }, this.leaseMs / 3);
    renewal.unref();
    try {
      return await fn();
    } finally {
      clearInterval(renewal);
    }
  }
}
