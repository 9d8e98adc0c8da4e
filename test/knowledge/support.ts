// What the knowledge search tests share: the wire shapes, a fixed corpus and request helpers.
import assert from 'node:assert/strict';
import { type TestApp } from '../support/app.js';
import { type Tenant } from '../support/factories.js';
import { assertError, expectStatus } from '../support/security.js';

export interface Content { title: string; mainKnowledge: string; questions: string[]; keywords: string[] }
export interface Article extends Content { id: string; parentFolderId: string; version: number; isDraft: boolean; updatedAt: string }
export interface Highlight { field: 'title' | 'questions' | 'keywords' | 'mainKnowledge'; snippet: string }
export interface Result { article: { id: string; title: string }; score: number; highlights: Highlight[] }

export const SEARCH = '/v2/knowledge/public/search';

export const CORPUS = {
  refund: {
    title: 'Refund policy',
    questions: ['How can I get my money back?', 'Can I return an item?'],
    keywords: ['refund', 'return'],
    mainKnowledge: 'We refund purchases within 30 days of delivery. Refunds go back to the original payment method within five business days.',
  },
  shipping: {
    title: 'Shipping times',
    questions: ['When will my order arrive?'],
    keywords: ['delivery', 'shipping'],
    mainKnowledge: 'Standard shipping takes three to five business days. Express shipping arrives the next day.',
  },
  password: {
    title: 'Reset your password',
    questions: ['I forgot my password', 'I cannot log in'],
    keywords: ['password', 'login'],
    mainKnowledge: 'Open Settings and choose Reset password. We email you a link that stays valid for thirty minutes.',
  },
  deletion: {
    title: 'Delete your account',
    questions: ['How do I close my account?'],
    keywords: ['account', 'privacy'],
    mainKnowledge: 'Account deletion is permanent. Your invoices are kept for seven years as the law requires.',
  },
  invoices: {
    title: 'Download invoices',
    questions: ['Where can I find my receipts?'],
    keywords: ['billing', 'invoice'],
    mainKnowledge: 'Invoices are in Billing, under Documents. Each invoice is a PDF you can download or forward.',
  },
  address: {
    title: 'Change your delivery address',
    questions: ['I moved to a new house'],
    keywords: ['address'],
    mainKnowledge: 'You can change the address of an order until it ships. After that, contact the carrier.',
  },
  gift: {
    title: 'Gift cards',
    questions: ['Can I pay with a voucher?'],
    keywords: ['voucher'],
    mainKnowledge: 'Gift cards never expire and can be combined with other payment methods. A gift card cannot be exchanged for cash.',
  },
  subscription: {
    title: 'Cancel a subscription',
    questions: ['How do I stop paying every month?'],
    keywords: ['subscription', 'cancel'],
    mainKnowledge: 'Cancel from Account > Plan at any time. Your plan stays active until the end of the paid period; no partial refund is given.',
  },
} satisfies Record<string, Content>;
export type Name = keyof typeof CORPUS;

export const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** Scores never increase down the list; equal scores come in ascending id order. */
export function assertRanked(results: Result[]): void {
  for (let i = 1; i < results.length; i += 1) {
    const [prev, next] = [results[i - 1]!, results[i]!];
    assert.ok(prev.score > next.score || (prev.score === next.score && prev.article.id < next.article.id),
      `result ${i - 1} (${prev.article.id} ${prev.score}) before result ${i} (${next.article.id} ${next.score})`);
  }
}

/** The request helpers of the search tests, on the app `app()` returns (started in a `before`). */
export function searchHelpers(app: () => TestApp) {
  const ok = <T>(status: number, method: string, path: string, key: string, body?: unknown) => expectStatus<T>(app(), status, method, path, key, body);
  const fail = async (w: Tenant, body: unknown, status: number, message?: string | RegExp) =>
    assertError(await app().request('POST', SEARCH, { key: w.readKey, body }), status, message);
  const newFolder = async (w: Tenant, title = 'Help', parentFolderId?: string) =>
    (await ok<{ id: string }>(201, 'POST', '/v2/hc-folders/public', w.key, { title, description: '', parentFolderId })).id;
  const setFolderActive = (w: Tenant, id: string, title: string, active: boolean) =>
    ok(200, 'PUT', `/v2/hc-folders/${id}/public`, w.key, { title, description: '', active });
  const newArticle = (w: Tenant, parentFolderId: string, c: Content, extra: object = {}) =>
    ok<Article>(201, 'POST', '/v2/hc-articles/public', w.key, { agentInstruction: '', escalation: false, ...c, parentFolderId, ...extra });
  const newAgent = async (w: Tenant, name = 'Bot') => (await ok<{ id: string }>(201, 'POST', '/v2/bots/public', w.key, { name })).id;
  const assign = async (w: Tenant, botId: string, ...folderIds: string[]) =>
    assert.deepEqual(
      await ok(200, 'POST', '/v2/hc-bot-folder-junctions/public', w.key, { junctions: folderIds.map((folderId) => ({ folderId, botId, action: 'ADD' })) }),
      { status: true },
    );
  const search = async (w: Tenant, body: object) => {
    const { results } = await ok<{ results: Result[] }>(200, 'POST', SEARCH, w.readKey, body);
    assertRanked(results);
    return results;
  };
  const ids = async (w: Tenant, query: string, extra: object = {}) => (await search(w, { query, ...extra })).map((r) => r.article.id);
  const sorted = (list: string[]) => [...list].sort();
  return { ok, fail, newFolder, setFolderActive, newArticle, newAgent, assign, search, ids, sorted };
}

/** Creates a folder and an article as `owner` (for the security suite, which has no helpers of this file). */
export async function newArticleVia(t: TestApp, owner: Tenant, title: string): Promise<string> {
  const folder = await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/hc-folders/public', owner.key, { title: 'Help', description: '' });
  const article = await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/hc-articles/public', owner.key, {
    title, mainKnowledge: `About ${title}`, agentInstruction: '', questions: [], keywords: [], escalation: false, parentFolderId: folder.id,
  });
  return article.id;
}
