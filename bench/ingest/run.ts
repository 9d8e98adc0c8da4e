// Ingestion throughput: a generated help-center site of BENCH_PAGES pages (default 1,000) served on
// 127.0.0.1, ingested through a real `parley serve` per backend (PGlite, and PostgreSQL when
// reachable) with one POST /v2/documents/public, timed from the request to the last record
// COMPLETED. Also times the extractor alone on the same pages, in this process.
// Env: BENCH_PAGES, BENCH_CONCURRENCY (PARLEY_INGEST_CONCURRENCY, default 8), BENCH_PER_HOST
// (PARLEY_INGEST_PER_HOST, default 8), BENCH_HOST_DELAY_MS (PARLEY_INGEST_HOST_DELAY_MS, default 0).
import { extractContent } from '../../src/ingest/extract/index.js';
import { page, startHelpSite } from './site.js';
import { type Backend, type BackendName, abortRun, availableBackends, exitOnSignals, ingestServerEnv, onServer, positiveIntEnv, waitForIngestion, writeResults } from '../support.js';

interface BackendReport {
  backend: BackendName;
  pages: number;
  acceptMs: number;
  totalMs: number;
  pagesPerMinute: number;
  failed: number;
  error?: string;
}

async function ingestAll(backend: Backend, origin: string, pages: number, serverEnv: Record<string, string>): Promise<BackendReport> {
  const report: BackendReport = { backend: backend.name, pages, acceptMs: 0, totalMs: 0, pagesPerMinute: 0, failed: 0 };
  return onServer(
    backend,
    report,
    async (server) => {
      const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
      const urls = Array.from({ length: pages }, (_, i) => `${origin}/articles/${i}`);
      const started = performance.now();
      const res = await fetch(`${server.url}/v2/documents/public`, { method: 'POST', headers, body: JSON.stringify({ documentIdsToAdd: urls }) });
      if (res.status !== 202) throw new Error(`ingest answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
      await res.arrayBuffer();
      report.acceptMs = performance.now() - started;
      report.failed = await waitForIngestion(server, started, backend.name);
      report.totalMs = performance.now() - started;
      report.pagesPerMinute = (pages / report.totalMs) * 60_000;
    },
    serverEnv,
  );
}

async function extractorOnly(pages: number): Promise<{ pagesPerMinute: number; p50Ms: number }> {
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < pages; i += 1) {
    const t0 = performance.now();
    await extractContent({ body: Buffer.from(page(i)), contentType: 'text/html', url: `http://bench.local/articles/${i}` });
    times.push(performance.now() - t0);
  }
  const total = performance.now() - started;
  times.sort((a, b) => a - b);
  return { pagesPerMinute: (pages / total) * 60_000, p50Ms: times[Math.floor(times.length / 2)] ?? 0 };
}

async function main(): Promise<number> {
  const startedAt = new Date();
  const pages = positiveIntEnv('BENCH_PAGES', 1000);
  const serverEnv = ingestServerEnv();
  const { origin, server: site } = await startHelpSite();

  const extractor = await extractorOnly(pages);
  process.stderr.write(`bench: extractor alone ${extractor.pagesPerMinute.toFixed(0)} pages/min\n`);
  const reports: BackendReport[] = [];
  for (const backend of await availableBackends({})) reports.push(await ingestAll(backend, origin, pages, serverEnv));
  site.close();

  const lines = [
    `${pages} generated pages (~${(Buffer.byteLength(page(0)) / 1024).toFixed(1)} KB each) on 127.0.0.1; ingestion concurrency ${serverEnv.PARLEY_INGEST_CONCURRENCY}, ` +
      `${serverEnv.PARLEY_INGEST_PER_HOST} per host, ${serverEnv.PARLEY_INGEST_HOST_DELAY_MS} ms politeness delay; one worker process (parley serve).`,
    '',
    '| measured | pages/min | detail |',
    '|---|---:|---|',
    `| extractor alone (one thread, this process) | ${extractor.pagesPerMinute.toFixed(0)} | p50 ${extractor.p50Ms.toFixed(1)} ms per page |`,
  ];
  for (const r of reports) {
    lines.push(
      r.error
        ? `| ${r.backend} end to end | FAILED | ${r.error} |`
        : `| ${r.backend} end to end (202 to last COMPLETED) | ${r.pagesPerMinute.toFixed(0)} | ${(r.totalMs / 1000).toFixed(1)} s total, 202 after ${r.acceptMs.toFixed(0)} ms, ${r.failed} failed |`,
    );
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
  await writeResults('ingest', startedAt, { pages, serverEnv, extractor, reports });
  return reports.some((r) => r.error || r.failed) ? 1 : 0;
}

exitOnSignals();
main().then(
  (code) => process.exit(code),
  (error: unknown) => void abortRun(error instanceof Error ? (error.stack ?? error.message) : String(error), 1),
);
