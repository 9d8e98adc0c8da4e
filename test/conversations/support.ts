// Shared setup of the conversation tests: a workspace with an agent answering from a small, fixed
// knowledge base, and the wire shapes.
import type { TestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { expectStatus } from '../support/security.js';

export interface Event {
  id: string; interactionId: string; role: string; type: string; message: string; createdAt: string;
  externalId: string | null; externalCreatedAt: string | null; csatRating: number | null; feedback: string | null;
  approved: boolean | null; resolved: boolean | null; attachments: unknown[]; tags: { id: string; tagName: string; tagGroupId: string }[];
  usedArticles: { id: string; title: string; documentUrl: string | null }[]; userEventId: string | null;
  handover: boolean; escalationReason: string | null; sentiment: string | null;
}
export interface Interaction {
  id: string; companyId: string; botId: string; source: string; channel: string; status: string; externalId: string | null;
  subjectPreview: string; userAttributes: Record<string, unknown>; resolved: boolean | null; hasFeedback: boolean;
  usedArticles: { id: string; title: string; documentUrl: string | null }[]; usedSubfolders: { id: string; title: string }[];
  tags: { id: string; tagName: string; tagGroupId: string }[]; latestSentiment: string | null; escalationReason: string | null;
  evaluation: null | { verdict: string; score: number; replies: { eventId: string; grounded: boolean; answered: boolean; score: number; notes: string[] }[]; notes: string[] };
  createdAt: string; updatedAt: string; lastMessageAt: string; events?: Event[];
}

export const EVENTS = '/v2/hc-interactions/events/public';
export const INTERACTIONS = '/v2/hc-interactions/public';
export const interaction = (id: string) => `/v2/hc-interactions/${id}/public`;
export const metadataOf = (id: string) => `/v2/hc-events/${id}/metadata`;
export const feedbackOf = (id: string) => `/v2/hc-events/${id}/feedback/public`;
export const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** The fixed knowledge base: three articles with distinct topics. */
export const KB = [
  {
    title: 'How do I reset my password?',
    mainKnowledge:
      'You can reset your password from the sign-in page.\n\n1. Click "Forgot password" on the sign-in page.\n2. Enter the e-mail address of your account.\n3. Open the link in the e-mail we send you and choose a new password.\n\nThe link expires after 24 hours.',
  },
  {
    title: 'Refund policy for annual plans',
    mainKnowledge:
      'Annual plans can be refunded within 30 days of purchase. After 30 days, an annual plan is not refundable, but you can cancel its renewal at any time from the Billing page. Monthly plans are never refunded.',
  },
  {
    title: 'Exporting invoices as PDF',
    mainKnowledge: 'Every invoice can be downloaded as a PDF from the Billing page: open Billing, choose Invoices, and click Download next to the invoice.',
  },
];

export interface Setup {
  w: Tenant;
  agentId: string;
  folderId: string;
  articleIds: string[];
}

export async function setupAgent(t: TestApp, tenant?: Tenant): Promise<Setup> {
  const w = tenant ?? (await makeTenant(t));
  const agentId = (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/bots/public', w.key, { name: 'Support' })).id;
  const folderId = (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/hc-folders/public', w.key, { title: 'Help center', description: '' })).id;
  await expectStatus(t, 200, 'POST', '/v2/hc-bot-folder-junctions/public', w.key, { junctions: [{ folderId, botId: agentId, action: 'ADD' }] });
  const articleIds: string[] = [];
  for (const a of KB) {
    const created = await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/hc-articles/public', w.key, {
      ...a, agentInstruction: '', questions: [], keywords: [], escalation: false, parentFolderId: folderId,
    });
    articleIds.push(created.id);
  }
  return { w, agentId, folderId, articleIds };
}

/** Sends one message; answers the created events. */
export function say(t: TestApp, key: string, body: Record<string, unknown>): Promise<Event[]> {
  return expectStatus<Event[]>(t, 200, 'POST', EVENTS, key, body);
}

/** An event's trace as JSON (its fields are checked one by one). */
export type Trace = Record<string, ReturnType<typeof JSON.parse>>;
