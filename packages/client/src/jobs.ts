// Waiting for the background jobs a call queued: a source's ingestion (its record's
// `linkedJobStatus`, GET /v2/documents/public/{id}) and knowledge generation
// (POST /v2/knowledge/public/jobs/status), polled until COMPLETED or FAILED.
import type { Client } from 'openapi-fetch';
import { ParleyTimeoutError, unwrap } from './errors.js';
import { sleep } from './retry.js';
import type { components, paths } from './schema.js';

export type Source = components['schemas']['Document'];
export type KnowledgeJob = components['schemas']['KnowledgeJob'];

export interface WaitOptions<T> {
  /** Give up after this long (ms; default 300,000) with a ParleyTimeoutError carrying the last state seen. */
  timeoutMs?: number;
  /** Between two looks (ms; default 1,000). */
  intervalMs?: number;
  /** Stops the wait (and a look under way) with the signal's reason. */
  signal?: AbortSignal;
  /** Called with the state after each look: progress to show, or a log line. */
  onPoll?: (state: T) => void;
}

const STATUS_BATCH = 500;

function finished(status: string | null): boolean {
  return status === null || status === 'COMPLETED' || status === 'FAILED';
}

/** Looks with `look` until `done`, within the options' time and signal. */
async function pollUntil<T>(what: string, look: () => Promise<T>, done: (state: T) => boolean, options: WaitOptions<T>): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 300_000;
  const intervalMs = options.intervalMs ?? 1_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    options.signal?.throwIfAborted();
    const state = await look();
    options.onPoll?.(state);
    if (done(state)) return state;
    const left = deadline - Date.now();
    if (left <= 0) throw new ParleyTimeoutError(`${what} did not finish within ${timeoutMs} ms`, state);
    await sleep(Math.min(intervalMs, left), options.signal);
  }
}

/** What names sources to wait for: ids, or the answer of an ingest or an upload (`{ jobs: [{ documentId }] }`). */
export type IngestionTarget = readonly string[] | { readonly jobs: readonly { readonly documentId: string }[] };

/**
 * The sources once their latest ingestion job finished (`linkedJobStatus` COMPLETED or FAILED; a
 * FAILED record says why in `error`), in the order given. A source without a job is finished.
 */
export async function waitForIngestion(client: Client<paths>, target: IngestionTarget, options: WaitOptions<Source[]> = {}): Promise<Source[]> {
  const ids = 'jobs' in target ? target.jobs.map((job) => job.documentId) : [...target];
  const latest = new Map<string, Source>();
  const look = async (): Promise<Source[]> => {
    for (const id of ids) {
      const seen = latest.get(id);
      if (seen && finished(seen.linkedJobStatus)) continue;
      latest.set(id, await unwrap(client.GET('/v2/documents/public/{id}', { params: { path: { id } }, signal: options.signal })));
    }
    return ids.map((id) => latest.get(id)!);
  };
  return pollUntil(`ingestion of ${ids.length === 1 ? `source ${ids[0]}` : `${ids.length} sources`}`, look, (sources) => sources.every((s) => finished(s.linkedJobStatus)), options);
}

/** What names knowledge jobs to wait for: job ids, or the answer of a generate or bulk call. */
export type GenerationTarget = readonly string[] | { readonly backgroundJobId: string } | { readonly jobs: readonly { readonly backgroundJobId: string }[] };

/** The knowledge jobs once each is COMPLETED or FAILED (a FAILED job says why in `error`), in the order given. */
export async function waitForGeneration(client: Client<paths>, target: GenerationTarget, options: WaitOptions<KnowledgeJob[]> = {}): Promise<KnowledgeJob[]> {
  const ids = 'jobs' in target ? target.jobs.map((job) => job.backgroundJobId) : 'backgroundJobId' in target ? [target.backgroundJobId] : [...target];
  const latest = new Map<string, KnowledgeJob>();
  const look = async (): Promise<KnowledgeJob[]> => {
    const open = ids.filter((id) => !finished(latest.get(id)?.jobStatus ?? 'PENDING'));
    for (let i = 0; i < open.length; i += STATUS_BATCH) {
      const jobIds = open.slice(i, i + STATUS_BATCH);
      const { jobs } = await unwrap(client.POST('/v2/knowledge/public/jobs/status', { body: { jobIds }, signal: options.signal }));
      // In the order asked, so an id matches its job however its letters were cased.
      jobs.forEach((job, index) => latest.set(jobIds[index]!, job));
    }
    return ids.map((id) => latest.get(id)!);
  };
  return pollUntil(`knowledge job${ids.length === 1 ? ` ${ids[0]}` : `s (${ids.length})`}`, look, (jobs) => jobs.every((j) => finished(j.jobStatus)), options);
}
