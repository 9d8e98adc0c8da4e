import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { JobQueue } from '../jobs/queue.js';

/** Prometheus metrics of one app instance (its own registry, so tests can build several apps). */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route'>;

  constructor(queue: JobQueue) {
    collectDefaultMetrics({ register: this.registry, prefix: 'parley_process_' });
    this.requests = new Counter({
      name: 'parley_http_requests_total',
      help: 'HTTP requests by route template, method and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.latency = new Histogram({
      name: 'parley_http_request_duration_seconds',
      help: 'HTTP request latency by route template and method.',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    // Both job gauges are filled by one query per scrape.
    let pending: Promise<void> | undefined;
    const readQueue = (): Promise<void> => {
      pending ??= queue
        .depth()
        .then((rows) => {
          depth.reset();
          age.reset();
          for (const row of rows) {
            depth.set({ name: row.name, state: row.state }, row.count);
            age.set({ name: row.name, state: row.state }, row.oldestAgeSeconds);
          }
        })
        .finally(() => {
          pending = undefined;
        });
      return pending;
    };
    const depth: Gauge<'name' | 'state'> = new Gauge({
      name: 'parley_job_queue_depth',
      help: 'Jobs waiting (created, retry) or running (active), by job name and state.',
      labelNames: ['name', 'state'],
      registers: [this.registry],
      collect: readQueue,
    });
    const age: Gauge<'name' | 'state'> = new Gauge({
      name: 'parley_job_queue_oldest_age_seconds',
      help: 'Age of the oldest job waiting or running, by job name and state.',
      labelNames: ['name', 'state'],
      registers: [this.registry],
      collect: readQueue,
    });
  }

  /** The open visitor streams of the app (src/modules/widget/visitor-stream.ts), read at each scrape. */
  observeStreams(stats: () => { open: number; polls: number; reads: number }): void {
    new Gauge({
      name: 'parley_widget_streams_open',
      help: "Visitors' event streams open on this process.",
      registers: [this.registry],
      collect() {
        this.set(stats().open);
      },
    });
    const total = (name: string, help: string, value: (s: ReturnType<typeof stats>) => number) =>
      new Counter({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.reset();
          this.inc(value(stats()));
        },
      });
    total('parley_widget_stream_polls_total', "Polls of the open streams' conversations for changes (one query each).", (s) => s.polls);
    total('parley_widget_stream_reads_total', "Reads of a stream's events after a change was found or written here.", (s) => s.reads);
  }

  /** Records every answered request, labelled by route template (never the raw URL); a callback hook, no promise. */
  register(app: FastifyInstance): void {
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      this.requests.inc({ method: request.method, route, status: String(reply.statusCode) });
      this.latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
      done();
    });
  }
}
