import assert from 'node:assert/strict';
import { type TestApp, startTestApp } from '../support/app.js';
import { type FakeLlm, type FakeLlmRequest, fakeModelEnv, startFakeLlm } from '../support/fake-llm.js';
import { type FakeSite, startFakeSite } from '../support/fake-site.js';
import { poll } from '../support/poll.js';
import { expectStatus } from '../support/security.js';
import { INGEST_ENV } from '../support/sources.js';

/** The wire knowledge job (`jobs/status`). */
export interface KnowledgeJob {
  id: string;
  jobStatus: 'PENDING' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  hcArticleId: string | null;
  origin: 'sources' | 'generated' | 'inbox';
  documentId: string | null;
  hcEventId: string | null;
  isDraft: boolean;
  linkedOperation: 'ADD_ARTICLE_TO_FOLDER' | 'UPDATE_ARTICLE' | 'DO_NOTHING' | null;
  linkedReason: string | null;
  error: string;
  usage: { provider: string; model: string; inputTokens: number; outputTokens: number; totalTokens: number };
}

/** The wire article (fields the generation tests read). */
export interface Article {
  id: string;
  title: string;
  mainKnowledge: string;
  agentInstruction: string;
  questions: string[];
  keywords: string[];
  parentFolderId: string;
  isDraft: boolean;
  isDraftPublished: boolean;
  originalArticleId: string | null;
  version: number;
  origin: string;
  misc: Record<string, unknown>;
}

/** Polls `jobs/status` until every job is COMPLETED or FAILED, as a client would. */
export async function waitForJobs(t: TestApp, key: string, jobIds: string[], timeoutMs = 20_000): Promise<KnowledgeJob[]> {
  const { jobs } = await poll(
    () => expectStatus<{ jobs: KnowledgeJob[] }>(t, 200, 'POST', '/v2/knowledge/public/jobs/status', key, { jobIds }),
    (status) => status.jobs.every((j) => j.jobStatus === 'COMPLETED' || j.jobStatus === 'FAILED'),
    { what: `knowledge jobs ${jobIds.join(', ')} to finish`, timeoutMs },
  );
  return jobs;
}

/** Queues one generation job and waits for it. */
export async function generate(t: TestApp, key: string, body: Record<string, unknown>): Promise<KnowledgeJob> {
  const { backgroundJobId } = await expectStatus<{ backgroundJobId: string }>(t, 202, 'POST', '/v2/knowledge/public', key, body);
  const [job] = await waitForJobs(t, key, [backgroundJobId]);
  return job!;
}

export async function getArticle(t: TestApp, key: string, id: string): Promise<Article> {
  const [article] = await expectStatus<Article[]>(t, 200, 'POST', '/v2/hc-articles/ids/public', key, { articleIds: [id] });
  assert.ok(article, `article ${id} exists`);
  return article;
}

export async function makeFolder(t: TestApp, key: string, title: string, description = '', parentFolderId?: string): Promise<string> {
  const folder = await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/hc-folders/public', key, {
    title,
    description,
    ...(parentFolderId ? { parentFolderId } : {}),
  });
  return folder.id;
}

export async function makeArticle(t: TestApp, key: string, folderId: string, fields: Partial<Article> & { title: string; mainKnowledge: string }): Promise<Article> {
  return expectStatus<Article>(t, 201, 'POST', '/v2/hc-articles/public', key, {
    agentInstruction: '',
    questions: [],
    keywords: [],
    escalation: false,
    parentFolderId: folderId,
    ...fields,
  });
}

export const ROBOTS_ALLOW_ALL = { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' };

/**
 * A working test app whose model is a fake OpenAI-compatible server, with a fake site to ingest
 * from (robots.txt allows all); `close` stops all three.
 */
export async function startModelApp(
  apiKey: string,
  extraEnv: Record<string, string>,
): Promise<{ t: TestApp; fake: FakeLlm; site: FakeSite; close(): Promise<void> }> {
  const fake = await startFakeLlm();
  const site = await startFakeSite({ '/robots.txt': ROBOTS_ALLOW_ALL });
  const t = await startTestApp({ work: true, env: { ...INGEST_ENV, ...fakeModelEnv(fake.url, apiKey, extraEnv) } });
  return {
    t,
    fake,
    site,
    async close() {
      await t.close();
      await fake.close();
      await site.close();
    },
  };
}

/** The user message of a chat request the fake model received. */
export function userPrompt(request: FakeLlmRequest): string {
  const messages = request.body.messages as { role: string; content: string }[];
  return messages.find((m) => m.role === 'user')!.content;
}
