// What every console test shares: the server global-setup.ts started, signing in through the form,
// seeding through the API (as a script would, with the same key), the accessibility check and
// the screenshots (test-results/console/, kept as CI artifacts).
import { AxeBuilder } from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningServer, startServer, tempDataDir } from '../bench/support.js';

const SCREENSHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../test-results/console');

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests with npm run test:e2e (e2e/global-setup.ts sets it)`);
  return value;
}

export const server = {
  get url() {
    return env('PARLEY_E2E_URL');
  },
  /** The bootstrap key: scopes read and write. */
  get key() {
    return env('PARLEY_E2E_KEY');
  },
  /** A key with scope read only. */
  get readKey() {
    return env('PARLEY_E2E_READ_KEY');
  },
};

/** A JSON request to the API with the read-write key (of the shared server, or of `target`); throws unless it answers 2xx. */
export async function apiCall<T>(method: string, route: string, body?: unknown, target: { url: string; key: string } = server): Promise<T> {
  const response = await fetch(`${target.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${target.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** A name no other test uses, so tests sharing the server's workspace never see each other's data. */
export function unique(label: string): string {
  return `${label} ${Math.random().toString(36).slice(2, 8)}`;
}

/** Opens the console and signs in through the form. */
export async function signIn(page: Page, key = server.key): Promise<void> {
  await page.goto('/console/');
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

/**
 * Fails on any serious or critical axe violation of the page as it is now, and keeps a screenshot.
 * It first waits for running transitions (a dialog fading in) to end: axe reads the colours of a
 * frame mid-transition, where white text on a red button is not yet quite white.
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
  );
  const results = await new AxeBuilder({ page }).analyze();
  const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    blocking.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 120)} ${n.failureSummary ?? ''}`).join('; ')})`),
    `accessibility of ${name}`,
  ).toEqual([]);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

export const test = base.extend({
  baseURL: async ({}, use) => {
    await use(server.url);
  },
});

export { expect };

/** The content of an article made through the API, besides its title and folder. */
export const ARTICLE_CONTENT = {
  mainKnowledge: 'Refunds reach the card within 5 working days.',
  agentInstruction: '',
  questions: ['How long does a refund take?'],
  keywords: ['refund'],
  escalation: false,
};

/** An agent that answers from one folder holding one article, as a support lead would set it up. */
export async function agentWithKnowledge(
  article: { title: string; mainKnowledge: string; questions: string[] },
  target: { url: string; key: string } = server,
): Promise<{ agentId: string; agentName: string; articleId: string }> {
  const folder = await apiCall<{ id: string }>('POST', '/v2/hc-folders/public', { title: unique('Help'), description: '' }, target);
  const created = await apiCall<{ id: string }>(
    'POST',
    '/v2/hc-articles/public',
    { ...article, agentInstruction: '', keywords: [], escalation: false, parentFolderId: folder.id },
    target,
  );
  const agentName = unique('Agent');
  const agent = await apiCall<{ id: string }>('POST', '/v2/bots/public', { name: agentName }, target);
  await apiCall('POST', '/v2/hc-bot-folder-junctions/public', { junctions: [{ folderId: folder.id, botId: agent.id, action: 'ADD' }] }, target);
  return { agentId: agent.id, agentName, articleId: created.id };
}

/** Uploads a Markdown file as a source and waits until its ingestion completed; answers its id. */
export async function ingestedFile(title: string, markdown: string): Promise<string> {
  const form = new FormData();
  form.append('title', title);
  form.append('file', new Blob([markdown], { type: 'text/markdown' }), 'source.md');
  const response = await fetch(`${server.url}/v2/documents/public/files`, { method: 'POST', headers: { authorization: `Bearer ${server.key}` }, body: form });
  expect(response.status, `uploading ${title}: ${await response.clone().text()}`).toBe(202);
  const id = ((await response.json()) as { addedDocumentIds: string[] }).addedDocumentIds[0] ?? '';
  await expect
    .poll(async () => (await apiCall<{ linkedJobStatus: string | null }>('GET', `/v2/documents/public/${id}`)).linkedJobStatus, {
      message: `ingestion of ${title}`,
      timeout: 30_000,
    })
    .toBe('COMPLETED');
  return id;
}

/** An article that states an outdated fact (14 days), and the note that corrects it. */
export const RETURNS = {
  title: 'Returns',
  mainKnowledge: 'Returns are accepted within 14 days of delivery. The return label is free.',
  questions: ['How long do I have to return an item?'],
};
export const RETURNS_NOTE = 'This is wrong: returns are accepted within 45 days, not 14 days';

/** A conversation whose agent reply states the outdated 14 days, asked through Generate Answer. */
export async function wrongAnswer(): Promise<{ conversationId: string; eventId: string; articleId: string }> {
  const { agentId, articleId } = await agentWithKnowledge(RETURNS);
  const events = await apiCall<{ interactionId: string; id: string; role: string; message: string }[]>('POST', '/v2/hc-interactions/events/public', {
    content: 'How long do I have to return an item?',
    botId: agentId,
  });
  const reply = events.find((e) => e.role === 'parleybot');
  expect(reply?.message, 'the agent answers from the Returns article').toContain('14 days');
  return { conversationId: reply?.interactionId ?? '', eventId: reply?.id ?? '', articleId };
}

/** Starts a Refine with AI iteration through the API and waits until it has ended; answers its status. */
export async function refineThroughApi(conversationId: string, eventId: string, feedbackNote: string): Promise<string> {
  const started = await apiCall<{ sessionId: string }>('POST', `/v2/fix-review/interactions/${conversationId}/events/${eventId}/sessions/iterations/public`, { feedbackNote });
  let status = '';
  await expect
    .poll(async () => {
      status = (await apiCall<{ latestIteration: { status: string } | null }>('GET', `/v2/fix-review/sessions/${started.sessionId}/public`)).latestIteration?.status ?? '';
      return ['queued', 'generating_changes', 'replaying'].includes(status);
    }, { message: `the iteration for "${feedbackNote}" ends` })
    .toBe(false);
  return status;
}

/** A server of a test file's own (on its own PGlite data folder, e.g. one allowed to call private addresses), with a read-only key. */
export interface OwnServer {
  server: RunningServer;
  readKey: string;
  stop(): Promise<void>;
}

/** Starts a server of the file's own with `env` added, and adds a read-only key through the admin API (as global-setup.ts does). */
export async function startOwnServer(prefix: string, env: Record<string, string>): Promise<OwnServer> {
  const data = await tempDataDir(prefix);
  const server = await startServer({ env: { PARLEY_DATA_DIR: data.path, PARLEY_LOG_LEVEL: 'warn', PARLEY_JOB_POLL_SECONDS: '0.5', PARLEY_RATE_LIMIT_MAX: '100000', ...env } });
  const stop = async () => {
    await server.stop();
    await data.remove();
  };
  try {
    const me = (await (await fetch(`${server.url}/v2/workspace/public`, { headers: { authorization: `Bearer ${server.apiKey}` } })).json()) as { id: string };
    const created = await fetch(`${server.url}/v2/admin/workspaces/${me.id}/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${readFileSync(path.join(data.path, 'admin-token'), 'utf8').trim()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `${prefix}read-only`, scopes: ['read'] }),
    });
    if (created.status !== 201) throw new Error(`creating the read-only key answered ${created.status}: ${await created.text()}`);
    return { server, readKey: ((await created.json()) as { key: string }).key, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
