// What bench/answers/run.ts (the benchmark) and bench/answers/fit-confidence.ts (the confidence
// model's fit) share: the two data sets, the article shapes, and loading a set's documents as
// live articles of one agent through the API.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from '../support.js';

export const SETS = ['answers', 'helpcenter'] as const;
export const SHAPES = ['none', 'title'] as const;
export type SetName = (typeof SETS)[number];
export type Shape = (typeof SHAPES)[number];
export type Kind = 'answerable' | 'unanswerable' | 'person';

export interface Document {
  id: string;
  title: string;
  answers: string[];
}

export interface RawQuery {
  query: string;
  relevant?: string;
  intent?: string;
  flags?: string;
}

export interface Query extends RawQuery {
  kind: Kind;
}

export interface DataSet {
  name: SetName;
  file: string;
  documents: Document[];
  queries: Query[];
}

export interface BenchArticle {
  title: string;
  body: string;
  questions: string[];
}

/** A set's documents as articles of one shape: title, body = answers joined by blank lines, and questions empty (`none`) or the title (`title`). */
export function articlesOf(set: DataSet, shape: Shape): BenchArticle[] {
  return set.documents.map((d) => ({ title: d.title, body: d.answers.join('\n\n'), questions: shape === 'title' ? [d.title] : [] }));
}

/** A JSON client of a server's public API with its key; a status >= 300 throws. */
export function client(server: { url: string; apiKey: string }) {
  const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
  return async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json()) as T;
    if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
}

export type Call = ReturnType<typeof client>;

/** An agent with one folder holding `articles` as live articles; their ids in the same order. */
export async function loadAgent(call: Call, articles: { title: string; body: string; questions?: string[] }[], concurrency = 4): Promise<{ agentId: string; articleIds: string[] }> {
  const agent = await call<{ id: string }>('POST', '/v2/bots/public', { name: 'Bench agent' });
  const folder = await call<{ id: string }>('POST', '/v2/hc-folders/public', { title: 'Knowledge', description: '' });
  await call('POST', '/v2/hc-bot-folder-junctions/public', { junctions: [{ folderId: folder.id, botId: agent.id, action: 'ADD' }] });
  const ids: string[] = new Array(articles.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < articles.length) {
        const i = next++;
        const a = articles[i]!;
        const created = await call<{ id: string }>('POST', '/v2/hc-articles/public', {
          title: a.title, mainKnowledge: a.body, agentInstruction: '', questions: a.questions ?? [], keywords: [], escalation: false, parentFolderId: folder.id,
        });
        ids[i] = created.id;
      }
    }),
  );
  return { agentId: agent.id, articleIds: ids };
}

/** A set's development file (BENCH_ANSWERS, BENCH_HELPCENTER override the path): answerable, unanswerable and person queries. */
export async function loadSet(name: SetName): Promise<DataSet> {
  const file =
    (name === 'answers' ? process.env.BENCH_ANSWERS : process.env.BENCH_HELPCENTER) ||
    path.resolve(ROOT, '..', 'shared', 'bench-data', name, `${name}-dev.json`);
  const raw = JSON.parse(await readFile(file, 'utf8')) as { documents: Document[]; answerable: RawQuery[]; unanswerable: RawQuery[]; person?: RawQuery[] };
  const queries: Query[] = [
    ...raw.answerable.map((q) => ({ ...q, kind: 'answerable' as const })),
    ...raw.unanswerable.map((q) => ({ ...q, relevant: undefined, kind: 'unanswerable' as const })),
    ...(raw.person ?? []).map((q) => ({ ...q, relevant: undefined, kind: 'person' as const })),
  ];
  return { name, file, documents: raw.documents, queries };
}
