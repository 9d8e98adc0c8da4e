// Provider import throughput: BENCH_PAGES (default 1,000) Notion pages and as many Zendesk Help
// Center articles served by the fakes of test/support/fake-providers.ts on 127.0.0.1 (their real
// wire formats, 100 per listing page), imported through a real `parley serve` per backend (PGlite,
// and PostgreSQL when reachable) the way a client does it: connect, discover, register, ingest,
// poll until the last record is COMPLETED. The reference in the same run: the same number of web
// pages (bench/ingest's generated site) through the web fetcher of the same pipeline.
// Env: BENCH_PAGES, BENCH_CONCURRENCY (PARLEY_INGEST_CONCURRENCY, default 8).
import { credentialsFor, type FakeProviders, notionId, startFakeProviders } from '../../test/support/fake-providers.js';
import { page, startHelpSite, TOPICS } from '../ingest/site.js';
import { type Backend, type BackendName, abortRun, availableBackends, exitOnSignals, ingestServerEnv, onServer, positiveIntEnv, waitForIngestion, writeResults } from '../support.js';

type Kind = 'notion' | 'zendesk' | 'web';

interface Row {
  backend: BackendName;
  kind: Kind;
  pages: number;
  /** Connect + discover + register (0 for web: no registration). */
  prepareMs: number;
  totalMs: number;
  pagesPerMinute: number;
  failed: number;
}

interface BackendReport {
  backend: BackendName;
  rows: Row[];
  error?: string;
}

/** The paragraphs of generated page `i` (the web bench's text, without the page around it). */
function paragraphs(i: number): string[] {
  return [...page(i).matchAll(/<p>([^<]+)<\/p>/g)].map((m) => m[1]!);
}

function populate(fake: FakeProviders, pages: number): void {
  const stamp = '2026-11-01T10:00:00.000Z';
  for (let i = 0; i < pages; i += 1) {
    const id = notionId(0x10000 + i);
    const [first, ...rest] = paragraphs(i);
    fake.notion.pages.set(id, {
      id,
      title: `How ${TOPICS[i % TOPICS.length]} works, part ${i}`,
      lastEdited: stamp,
      blocks: [
        { type: 'heading_2', text: 'Overview' },
        { type: 'paragraph', text: first ?? '' },
        { type: 'toggle', text: 'Details', children: rest.slice(0, 2).map((text) => ({ type: 'paragraph', text })) },
        ...rest.slice(2).map((text) => ({ type: 'bulleted_list_item', text })),
      ],
    });
    fake.notion.searchable.push(id);
  }
  TOPICS.forEach((topic, c) => {
    fake.zendesk.categories.push({ id: 100 + c, name: topic });
    for (let s = 0; s < 5; s += 1) fake.zendesk.sections.push({ id: 1000 + c * 10 + s, categoryId: 100 + c, name: `${topic} ${s}` });
  });
  for (let i = 0; i < pages; i += 1) {
    const section = fake.zendesk.sections[i % fake.zendesk.sections.length]!;
    fake.zendesk.articles.set(10_000 + i, {
      id: 10_000 + i,
      sectionId: section.id,
      title: `How ${TOPICS[i % TOPICS.length]} works, part ${i}`,
      body: paragraphs(i).map((p) => `<p>${p}</p>`).join('\n'),
      updatedAt: '2026-11-01T10:00:00Z',
    });
  }
}

async function call<T>(url: string, key: string, method: string, body?: unknown, expected = 200): Promise<T> {
  const res = await fetch(url, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

async function runBackend(backend: Backend, fake: FakeProviders, site: string, pages: number, serverEnv: Record<string, string>): Promise<BackendReport> {
  const report: BackendReport = { backend: backend.name, rows: [] };
  return onServer(
    backend,
    report,
    async (server) => {
      const base = server.url;
      const key = server.apiKey;
      const creds = credentialsFor(fake);
      for (const kind of ['notion', 'zendesk', 'web'] as const) {
        const started = performance.now();
        let ids: string[] = [];
        if (kind !== 'web') {
          await call(`${base}/v2/providers/${kind}/connection/public`, key, 'PUT', creds[kind]);
          const found = await call<unknown[]>(`${base}/v2/documents/public/resources/${kind}`, key, 'GET');
          // Discovered objects are registered as they come; Zendesk articles need their mimeType.
          const resources =
            kind === 'notion'
              ? found
              : (found as { children: { children: { externalId: string; title: string; originalUrl: string }[] }[] }[]).flatMap((c) =>
                  c.children.flatMap((s) => s.children.map((a) => ({ ...a, mimeType: 'text/html' }))),
                );
          if (resources.length !== pages) throw new Error(`${kind}: discovery found ${resources.length} resources, expected ${pages}`);
          ids = (await call<{ addedDocumentIds: string[] }>(`${base}/v2/documents/public/resources/${kind}`, key, 'POST', { resources })).addedDocumentIds;
        }
        const prepareMs = performance.now() - started;
        const entries = kind === 'web' ? Array.from({ length: pages }, (_, i) => `${site}/articles/${i}`) : ids;
        await call(`${base}/v2/documents/public`, key, 'POST', { source: kind, documentIdsToAdd: entries }, 202);
        const failed = await waitForIngestion(server, started, `${backend.name} ${kind}`, kind);
        const totalMs = performance.now() - started;
        report.rows.push({ backend: backend.name, kind, pages, prepareMs, totalMs, pagesPerMinute: (pages / totalMs) * 60_000, failed });
        process.stderr.write(`bench: ${backend.name} ${kind}: ${((pages / totalMs) * 60_000).toFixed(0)} pages/min\n`);
      }
    },
    serverEnv,
  );
}

async function main(): Promise<number> {
  const startedAt = new Date();
  const pages = positiveIntEnv('BENCH_PAGES', 1000);
  const serverEnv = ingestServerEnv();
  const fake = await startFakeProviders();
  populate(fake, pages);
  const { origin, server: site } = await startHelpSite();
  const reports: BackendReport[] = [];
  for (const backend of await availableBackends({})) reports.push(await runBackend(backend, fake, origin, pages, serverEnv));
  site.close();
  await fake.close();

  const label: Record<Kind, string> = { notion: 'Notion pages', zendesk: 'Zendesk articles', web: 'web pages (reference)' };
  const lines = [
    `${pages} Notion pages (blocks with a nested toggle), ${pages} Zendesk articles and ${pages} web pages of the same text, from fakes on 127.0.0.1; ` +
      `ingestion concurrency ${serverEnv.PARLEY_INGEST_CONCURRENCY}; one worker process (parley serve). Timed from the first request ` +
      '(connect, discover, register, ingest) to the last record COMPLETED.',
    '',
    '| backend | import | pages/min | total | connect + discover + register | failed |',
    '|---|---|---:|---:|---:|---:|',
  ];
  for (const report of reports) {
    if (report.error) lines.push(`| ${report.backend} | FAILED | | | | ${report.error} |`);
    for (const r of report.rows) {
      lines.push(`| ${r.backend} | ${label[r.kind]} | ${r.pagesPerMinute.toFixed(0)} | ${(r.totalMs / 1000).toFixed(1)} s | ${r.kind === 'web' ? '-' : `${(r.prepareMs / 1000).toFixed(2)} s`} | ${r.failed} |`);
    }
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
  await writeResults('providers', startedAt, { pages, serverEnv, reports });
  return reports.some((r) => r.error || r.rows.some((row) => row.failed)) ? 1 : 0;
}

exitOnSignals();
main().then(
  (code) => process.exit(code),
  (error: unknown) => void abortRun(error instanceof Error ? (error.stack ?? error.message) : String(error), 1),
);
