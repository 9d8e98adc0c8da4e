import type { SecretBox } from './secrets.js';
import type { Logger } from 'pino';
import type { LlmProvider } from './ai/index.js';
import type { Clock } from './clock.js';
import type { Config } from './config/config.js';
import { isUuid } from './http/schemas.js';
import { type Db, transaction } from './db/database.js';
import type { EventPort } from './events/bus.js';
import type { DomainEvents, EventName } from './events/events.js';
import type { Outbound } from './ingest/runtime.js';
import type { JobName, JobPayloads } from './jobs/payloads.js';
import type { EnqueueOptions, JobQueue } from './jobs/queue.js';
import type { Principal } from './modules/api-keys/index.js';

export type Scope = 'read' | 'write';

/**
 * The process's doors to the outside, built once (runtime.ts, or a test's harness) and shared by
 * every request and job. Nothing else looks a port up: services receive them on the context.
 */
export interface Ports {
  readonly db: Db;
  readonly queue: JobQueue;
  readonly llm: LlmProvider;
  readonly outbound: Outbound;
  readonly events: EventPort;
  readonly clock: Clock;
  readonly log: Logger;
  readonly config: Config;
  /** Seals and opens secrets stored at rest (src/secrets.ts). */
  readonly secrets: SecretBox;
  /** The audit log (src/modules/audit): scopes that record a request's or job's writes. */
  readonly audit: AuditLog;
}

/**
 * What an audited action says of itself: the route, job, MCP tool or CLI command, the resource it
 * names (a route's first path parameter, a job's record) and the fields it was given (names only).
 */
export interface AuditDetails {
  readonly action: string;
  readonly resourceType: string | null;
  readonly resourceId: string | null;
  readonly fields: readonly string[];
  /** The workspace of an operator's action, when it names one (an admin route's workspace). */
  readonly workspaceId?: string | null;
}

/** Who an audit entry names: the acting context's actor, workspace, request and clock. */
export type AuditActor = Pick<ProcessContext, 'actor' | 'requestId'> & { readonly workspaceId?: string; readonly clock?: Clock };

/**
 * One request's, job's or tool call's audit entry, carried by its context: the first transaction
 * that writes records it, inside that transaction (`flush` before the commit, `settle` after it).
 */
export interface AuditScope {
  readonly recorded: boolean;
  /** Inside a transaction about to commit: writes the entry when the transaction wrote something. */
  flush(db: Db, actor: AuditActor, result: unknown): Promise<void>;
  /** After that transaction: committed, or rolled back (the entry went with it). */
  settle(committed: boolean): void;
  /** For a write that ran outside any transaction (one bare statement): the entry, right after it. */
  recordAfter(db: Db, actor: AuditActor, result: unknown): Promise<void>;
}

/** The audit port: opens the scope of one action. */
export interface AuditLog {
  begin(details: AuditDetails): AuditScope;
}

/** Who acts: a workspace key (a request), a background job, or the operator (admin API, CLI). */
export type Actor =
  | { readonly kind: 'key'; readonly id: string; readonly principal: Principal }
  /** A widget key's request: a visitor of its one agent (`principal.widget`); it authors nothing. */
  | { readonly kind: 'visitor'; readonly id: string; readonly principal: Principal }
  /** `onBehalfOf`: the key whose request queued the work, stamped on what the job writes. */
  | { readonly kind: 'job'; readonly id: string; readonly onBehalfOf: string | null }
  | { readonly kind: 'operator'; readonly id: 'operator' };

/** A context that belongs to no workspace: the operator's routes, and process-wide jobs (sweeps). */
export interface ProcessContext extends Ports {
  readonly actor: Actor;
  /** The audit entry of a write route's request, a job or an MCP tool call; none for reads. */
  readonly auditScope?: AuditScope;
  readonly requestId?: string;
  /** Aborted when the client hangs up (requests) or the job's lease ends (jobs). */
  readonly signal?: AbortSignal;
}

/** What every service of a workspace receives first, for requests and jobs alike. */
export interface WorkspaceContext extends ProcessContext {
  readonly workspaceId: string;
}

/** The part of a request that a context is made from (a Fastify request satisfies it). */
export interface RequestIdentity {
  readonly id: string;
  readonly log: unknown;
  readonly principal?: Principal | undefined;
}

/**
 * The context of a request: a workspace context for a verified key, the operator's context for
 * the admin token. Only routes reach this (src/http/route.ts).
 */
export function contextForRequest(ports: Ports, request: RequestIdentity, signal?: AbortSignal, auditScope?: AuditScope): WorkspaceContext | ProcessContext {
  // Plain literals, no spreads: this runs on every request, and on Node 20 an object spread with
  // further properties takes a slow path (about 10 µs here, a sixth of a trivial request).
  const { db, queue, llm, outbound, events, clock, config, secrets, audit } = ports;
  const log = request.log as Logger;
  const principal = request.principal;
  if (!principal) return { db, queue, llm, outbound, events, clock, log, config, secrets, audit, auditScope, requestId: request.id, signal, actor: OPERATOR };
  return {
    db,
    queue,
    llm,
    outbound,
    events,
    clock,
    log,
    config,
    secrets,
    audit,
    auditScope,
    requestId: request.id,
    signal,
    workspaceId: principal.workspaceId,
    actor: principal.widget ? { kind: 'visitor', id: principal.apiKeyId, principal } : { kind: 'key', id: principal.apiKeyId, principal },
  };
}

const OPERATOR = Object.freeze({ kind: 'operator', id: 'operator' } as const);

/**
 * The context of a verified workspace key outside an HTTP route: a tool call of the stdio MCP
 * server (src/modules/mcp), which authenticates its key as auth.ts does.
 */
export function contextForKey(ports: Ports, principal: Principal, requestId: string): WorkspaceContext {
  return {
    ...ports,
    log: ports.log.child({ reqId: requestId }),
    requestId,
    workspaceId: principal.workspaceId,
    actor: { kind: 'key', id: principal.apiKeyId, principal },
  };
}

/** The operator's context outside a request: the first start's bootstrap of an empty database. */
export function contextForOperator(ports: Ports): ProcessContext {
  return { ...ports, actor: OPERATOR };
}

/** What the queue knows of a running job (src/jobs/queue.ts). */
export interface JobRun {
  readonly ports: Ports;
  readonly id: string;
  /** The job's name and payload, for its audit entry (the queue gives both; a test's hand-made run may not). */
  readonly name?: string;
  readonly payload?: unknown;
  /** The key whose request (or whose job) queued this one, if any. */
  readonly onBehalfOf?: string | null;
  /** 0 on the first attempt, then 1, 2, ... on retries. */
  readonly retryCount: number;
  readonly signal: AbortSignal;
  readonly log: Logger;
}

/**
 * The context a job handler runs its service with: a workspace's, when the job acts in one
 * (stamping its writes with `onBehalfOf`, the key that queued it), else the process's.
 */
export function contextForJob(run: JobRun): ProcessContext;
export function contextForJob(run: JobRun, workspaceId: string, onBehalfOf?: string | null): WorkspaceContext;
export function contextForJob(run: JobRun, workspaceId?: string, onBehalfOf: string | null = run.onBehalfOf ?? null): ProcessContext | WorkspaceContext {
  const base: ProcessContext = { ...run.ports, log: run.log, signal: run.signal, actor: { kind: 'job', id: run.id, onBehalfOf } };
  if (workspaceId === undefined) return base; // process-wide housekeeping (sweeps, purges) is not audited
  const record = recordOf(run.payload);
  const auditScope = run.ports.audit.begin({ action: `job ${run.name ?? 'unnamed'}`, resourceType: record?.type ?? null, resourceId: record?.id ?? null, fields: [] });
  return { ...base, workspaceId, auditScope };
}

/** The record a job works on: its payload's first `<thing>Id` holding a UUID (`sourceId` -> source). */
function recordOf(payload: unknown): { type: string; id: string } | null {
  if (!(payload instanceof Object)) return null;
  for (const [key, value] of Object.entries(payload)) {
    if (key === 'workspaceId' || !key.endsWith('Id') || typeof value !== 'string' || !isUuid(value)) continue;
    return { type: key.slice(0, -2).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), id: value };
  }
  return null;
}

/** The same job context, now writing on behalf of `keyId` (learnt from the record the job works on). */
export function onBehalfOf<C extends ProcessContext>(ctx: C, keyId: string | null): C {
  if (ctx.actor.kind !== 'job') return ctx;
  return { ...ctx, actor: { ...ctx.actor, onBehalfOf: keyId } };
}

/** The verified key of a request's context: every `read` and `write` route has one. */
export function principalOf(ctx: Pick<ProcessContext, 'actor'>): Principal {
  if (ctx.actor.kind !== 'key') throw new Error(`a workspace API key is required here, not a ${ctx.actor.kind}`);
  return ctx.actor.principal;
}

/** The key id stamped as `createdBy`/`updatedBy` on what this actor writes (null for the operator). */
export function authorOf(ctx: Pick<ProcessContext, 'actor'>): string | null {
  switch (ctx.actor.kind) {
    case 'key':
      return ctx.actor.id;
    case 'job':
      return ctx.actor.onBehalfOf;
    case 'operator':
    case 'visitor':
      return null;
  }
}

/**
 * Runs `fn` in one transaction with the same context, whose `db` is the transaction: what it
 * enqueues commits with it, events it emits reach `transaction` listeners inside it and `commit`
 * listeners only once it committed. `snapshot` reads in one consistent view (REPEATABLE READ,
 * read only) for answers built from several queries. Nested calls use a savepoint.
 */
export async function inTransaction<C extends Pick<Ports, 'db' | 'events'>, T>(
  ctx: C,
  fn: (ctx: C) => Promise<T>,
  options: { snapshot?: boolean } = {},
): Promise<T> {
  const events = ctx.events.begin();
  // The outermost transaction of an audited action records it (a savepoint's caller's does).
  const outermost = !OPEN_TRANSACTIONS.has(ctx.db);
  const scope = outermost && !options.snapshot ? (ctx as { auditScope?: AuditScope }).auditScope : undefined;
  let result: T;
  try {
    result = await transaction(
      ctx.db,
      async (tx) => {
        if (outermost) OPEN_TRANSACTIONS.add(tx);
        const value = await fn({ ...ctx, db: tx, events });
        if (scope && !scope.recorded) await scope.flush(tx, ctx as unknown as AuditActor, value);
        return value;
      },
      options,
    );
  } catch (error) {
    scope?.settle(false);
    events.discard();
    throw error;
  }
  scope?.settle(true);
  await events.commit(ctx);
  return result;
}

/** Transactions opened by inTransaction and still open: a call on one of them is nested. */
const OPEN_TRANSACTIONS = new WeakSet<Db>();

/** Emits a domain event in the context's workspace (see src/events/bus.ts for when listeners run). */
export function emit<K extends EventName>(ctx: WorkspaceContext, name: K, payload: DomainEvents[K]): Promise<void> {
  return ctx.events.publish(ctx, name, payload);
}

/**
 * Queues a job by name on the context's database: inside `inTransaction` it commits with the
 * transaction (or not at all). Services enqueue by name, so they never import a job's handler. The
 * acting key rides with the job: its handler's context acts on that key's behalf (contextForJob).
 */
export function enqueue<Name extends JobName>(
  ctx: Pick<Ports, 'db' | 'queue'> & { readonly actor?: Actor },
  name: Name,
  payload: JobPayloads[Name],
  options?: EnqueueOptions,
): Promise<string> {
  return ctx.queue.enqueue(ctx.db, name, payload, { onBehalfOf: ctx.actor ? authorOf(ctx as Pick<ProcessContext, 'actor'>) : null, ...options });
}

/** Queues many jobs of one name, each under the id the caller chose (see `JobQueue.enqueueMany`). */
export function enqueueMany<Name extends JobName>(
  ctx: Pick<Ports, 'db' | 'queue'> & { readonly actor?: Actor },
  name: Name,
  items: { id: string; payload: JobPayloads[Name] }[],
): Promise<void> {
  return ctx.queue.enqueueMany(ctx.db, name, items, ctx.actor ? authorOf(ctx as Pick<ProcessContext, 'actor'>) : null);
}
