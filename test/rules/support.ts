import type { TestApp } from '../support/app.js';
import type { Tenant } from '../support/factories.js';
import { expectStatus } from '../support/security.js';

/** Wire shapes of the rules routes, as a client reads them. */
export interface RuleSummary {
  id: string;
  companyId: string;
  type: 'intent' | 'business';
  name: string;
  description: string;
  status: 'DRAFT' | 'PUBLISHED';
  isDraft: boolean;
  source: string;
  triggerType: string;
  inputSchema: Record<string, unknown>;
  botIds: string[];
  version: number | null;
  versionId: string | null;
  behaviorInstructions: string | null;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
}
export interface Rule extends RuleSummary {
  flowConfig: Record<string, unknown> | null;
}
export interface VersionItem {
  versionId: string;
  version: number;
  createdAt: string;
  createdBy: string | null;
  restoredFromVersionId: string | null;
  item: { id: string; name: string; description: string; status: string; source: string; triggerType: string; botIds: string[]; version: number; versionId: string; createdAt: string; updatedAt: string; flowConfig?: unknown; inputSchema?: unknown };
}
export interface Versions {
  ruleId: string;
  currentPublishedVersionId: string | null;
  versions: VersionItem[];
}

export const UNKNOWN = '00000000-0000-4000-8000-000000000000';
export const rulesPath = '/v2/hc-rules/public';
export const rulePath = (id: string) => `/v2/hc-rules/${id}/public`;
export const versionsPath = (id: string) => `/v2/hc-rules/${id}/versions/public`;
export const versionPath = (id: string, versionId: string) => `/v2/hc-rules/${id}/versions/${versionId}/public`;
export const restorePath = (id: string, versionId: string) => `/v2/hc-rules/${id}/versions/${versionId}/restore/public`;
export const draftPath = '/v2/hc-rules/draft/public';
export const refinePath = (id: string) => `/v2/hc-rules/${id}/refine/public`;
export const publishPath = (id: string) => `/v2/hc-rules/${id}/publish/public`;
export const testPath = (id: string) => `/v2/hc-rules/${id}/test/public`;

/** An order-status flow: ask for the order number, then confirm with it interpolated. */
export const orderFlow = () => ({
  id: 'ask_order',
  type: 'collect',
  field: 'orderNumber',
  question: 'What is your order number?',
  dataType: 'string',
  required: true,
  next: { id: 'confirm', type: 'message', message: 'Thanks, I am looking up order ${rule.orderNumber}.' },
});

export async function createAgent(t: TestApp, w: Tenant, name = 'Support bot'): Promise<string> {
  return (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/bots/public', w.writeKey, { name })).id;
}

export async function createRule(t: TestApp, w: Tenant, body: Record<string, unknown> = {}): Promise<Rule> {
  return expectStatus<Rule>(t, 201, 'POST', rulesPath, w.writeKey, {
    name: 'Order status',
    description: 'The customer asks where their order is',
    flowConfig: orderFlow(),
    ...body,
  });
}
