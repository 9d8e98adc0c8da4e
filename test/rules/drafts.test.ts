// Draft rules through HTTP with the built-in engine: generate from instructions, refine, publish.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { flowConfigSchema } from '../../src/evaluators/flow.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { assertError, expectStatus } from '../support/security.js';
import { createAgent, createRule, draftPath, publishPath, refinePath, type Rule, rulePath, type RuleSummary, rulesPath, UNKNOWN, type Versions, versionsPath } from './support.js';

type Node = { id: string; type: string; next?: Node; then?: Node; else?: Node; [key: string]: unknown };
/** The node types of a flow along `next`, root first. */
const chain = (node: Node | undefined): string[] => (node ? [node.type, ...chain(node.next)] : []);

describe('draft rules', () => {
  let t: TestApp;
  let w: Tenant;
  let agent: string;
  before(async () => {
    t = await startTestApp();
    w = await makeTenant(t);
    agent = await createAgent(t, w);
  });
  after(() => t.close());

  const ok = <T>(status: number, method: string, path: string, body?: unknown) => expectStatus<T>(t, status, method, path, w.key, body);
  const fail = async (method: string, path: string, status: number, message?: string | RegExp, body?: unknown) =>
    assertError(await t.request(method, path, { key: w.key, body }), status, message);
  const draft = (behaviorInstructions: string, extra: Record<string, unknown> = {}) => ok<Rule>(201, 'POST', draftPath, { behaviorInstructions, ...extra });

  const ORDER_INSTRUCTIONS = '1. Ask for the order number.\n2. Say "Thanks, I am checking order ${rule.orderNumber}."';

  it('drafts an intent rule with a flow from numbered instructions', async () => {
    const rule = await draft(ORDER_INSTRUCTIONS);
    assert.equal(rule.status, 'DRAFT');
    assert.equal(rule.isDraft, true);
    assert.equal(rule.type, 'intent');
    assert.deepEqual(rule.botIds, []);
    assert.equal(rule.version, null);
    assert.equal(rule.versionId, null);
    assert.equal(rule.behaviorInstructions, ORDER_INSTRUCTIONS);
    assert.ok(rule.name.length > 0);
    assert.ok(rule.description.length > 0);
    const flow = rule.flowConfig as Node;
    assert.ok(flowConfigSchema.safeParse(flow).success);
    assert.deepEqual(chain(flow), ['collect', 'message']);
    assert.equal(flow.field, 'orderNumber');
    assert.equal(flow.next!.message, 'Thanks, I am checking order ${rule.orderNumber}.');
    const drafts = await ok<RuleSummary[]>(200, 'GET', `${rulesPath}?isDraft=true`);
    assert.ok(drafts.some((d) => d.id === rule.id));
    assert.ok(!(await ok<RuleSummary[]>(200, 'GET', rulesPath)).some((d) => d.id === rule.id), 'drafts are not listed as published');
    const history = await ok<Versions>(200, 'GET', versionsPath(rule.id));
    assert.deepEqual(history, { ruleId: rule.id, currentPublishedVersionId: null, versions: [] });
  });

  it('keeps a given name and is deterministic', async () => {
    const a = await draft(ORDER_INSTRUCTIONS, { name: 'Order lookup' });
    const b = await draft(ORDER_INSTRUCTIONS, { name: 'Order lookup' });
    assert.equal(a.name, 'Order lookup');
    assert.deepEqual(a.flowConfig, b.flowConfig);
    assert.equal(a.description, b.description);
  });

  it('refines a draft and records the refinement', async () => {
    const rule = await draft(ORDER_INSTRUCTIONS);
    const refined = await ok<Rule>(200, 'POST', refinePath(rule.id), { refinementInstructions: 'Also ask for the email address.' });
    assert.equal(refined.status, 'DRAFT');
    assert.notDeepEqual(refined.flowConfig, rule.flowConfig);
    const fields = JSON.stringify(refined.flowConfig);
    assert.match(fields, /"field":"email/);
    assert.match(fields, /"field":"orderNumber"/);
    assert.equal(refined.behaviorInstructions, `${ORDER_INSTRUCTIONS}\n\nRefinement: Also ask for the email address.`);
  });

  it('changes a draft in place with PATCH, without versions and without agents', async () => {
    const rule = await draft(ORDER_INSTRUCTIONS);
    const changed = await ok<Rule>(200, 'PATCH', rulePath(rule.id), { name: 'Renamed draft' });
    assert.equal(changed.name, 'Renamed draft');
    assert.equal(changed.version, null);
    await fail('PATCH', rulePath(rule.id), 400, /^body\.botIds: a draft gets its agents when it is published/, { botIds: [agent] });
  });

  it('publishes a draft as version 1 for its agents, once', async () => {
    const rule = await draft(ORDER_INSTRUCTIONS);
    await fail('POST', publishPath(rule.id), 400, /body\.botIds/, { botIds: [] });
    await fail('POST', publishPath(rule.id), 400, `body.botIds.0: agent ${UNKNOWN} does not exist in this workspace`, { botIds: [UNKNOWN] });
    const published = await ok<Rule>(200, 'POST', publishPath(rule.id), { botIds: [agent] });
    assert.equal(published.status, 'PUBLISHED');
    assert.equal(published.version, 1);
    assert.deepEqual(published.botIds, [agent]);
    assert.deepEqual(published.flowConfig, rule.flowConfig);
    const history = await ok<Versions>(200, 'GET', versionsPath(rule.id));
    assert.equal(history.currentPublishedVersionId, published.versionId);
    assert.deepEqual(history.versions.map((v) => [v.version, v.item.status]), [[1, 'PUBLISHED']]);
    await fail('POST', publishPath(rule.id), 409, /already published/, { botIds: [agent] });
    await fail('POST', refinePath(rule.id), 409, /refine applies to drafts/, { refinementInstructions: 'Also ask for the email.' });
  });

  it('refuses empty instructions and unknown rules', async () => {
    await fail('POST', draftPath, 400, /body\.behaviorInstructions/, { behaviorInstructions: '   ' });
    await fail('POST', refinePath(UNKNOWN), 404, 'rule not found', { refinementInstructions: 'x' });
    await fail('POST', publishPath(UNKNOWN), 404, 'rule not found', { botIds: [agent] });
    const published = await createRule(t, w);
    await fail('POST', publishPath(published.id), 409, /already published/, { botIds: [agent] });
  });

  it('names the parts of the instructions it did not understand in warnings (draft and refine)', async () => {
    const clean = await ok<Rule & { warnings: unknown[] }>(201, 'POST', draftPath, { behaviorInstructions: "Ask for the order number, then if the order is older than 30 days escalate to a human, otherwise say 'We will refund you'" });
    assert.deepEqual(clean.warnings, []);
    const unread = await ok<Rule & { warnings: { fragment: string; message: string }[] }>(201, 'POST', draftPath, {
      behaviorInstructions: "Ask for the order number. If the moon is waning, escalate. Otherwise say 'All good'.",
    });
    assert.deepEqual(unread.warnings.map((w) => w.fragment), ['If the moon is waning, escalate', "Otherwise say \"All good\""]);
    assert.match(unread.warnings[0]!.message, /^Not understood: the condition/);
    assert.equal(JSON.stringify(unread.flowConfig).includes('All good'), false);
    const refined = await ok<Rule & { warnings: { fragment: string }[] }>(200, 'POST', refinePath(clean.id), { refinementInstructions: 'Send them a coupon by SMS.' });
    assert.deepEqual(refined.warnings.map((w) => w.fragment), ['Send them a coupon by SMS']);
  });

  it('never publishes a draft with unread parts silently: 409 naming them, unless the request accepts them', async () => {
    const unread = await ok<Rule & { warnings: { fragment: string }[] }>(201, 'POST', draftPath, {
      behaviorInstructions: "Ask for the order number. If the moon is waning, escalate. Otherwise say 'All good'.",
    });
    await fail('POST', publishPath(unread.id), 409, /not turned into its flow: "If the moon is waning, escalate" \(Not understood: .*acceptWarnings: true$/, { botIds: [agent] });
    // A refinement keeps what the first instructions left unread, and adds its own.
    const refined = await ok<Rule & { warnings: { fragment: string }[] }>(200, 'POST', refinePath(unread.id), { refinementInstructions: 'Send them a coupon by SMS.' });
    assert.deepEqual(refined.warnings.map((w) => w.fragment), ['If the moon is waning, escalate', 'Otherwise say "All good"', 'Send them a coupon by SMS']);
    assert.equal((await ok<Rule>(200, 'GET', rulePath(unread.id))).status, 'DRAFT');
    const published = await ok<Rule>(200, 'POST', publishPath(unread.id), { botIds: [agent], acceptWarnings: true });
    assert.deepEqual([published.status, published.version, published.botIds], ['PUBLISHED', 1, [agent]]);

    // A flow the lead writes replaces what drafting did not understand.
    const edited = await ok<Rule & { warnings: unknown[] }>(201, 'POST', draftPath, { behaviorInstructions: 'If the moon is waning, escalate.' });
    assert.ok(edited.warnings.length > 0);
    await ok(200, 'PATCH', rulePath(edited.id), { flowConfig: { type: 'message', message: 'Let me check that for you.' } });
    assert.equal((await ok<Rule>(200, 'POST', publishPath(edited.id), { botIds: [agent] })).status, 'PUBLISHED');
    await fail('POST', publishPath(edited.id), 400, /acceptWarnings/, { botIds: [agent], acceptWarnings: 'yes' });
  });
});
