// The Rules page: the issue's rule drafted from plain instructions, drawn as a tree and walked in
// the test panel to its escalation; a draft whose instructions are partly not understood (its
// warnings shown, publishing refused then accepted); a draft refined; a node edited with the API's
// validation message placed on its node; versions compared and restored; publishing to an agent;
// and a read-only key.
import { apiCall, checkPage, expect, server, signIn, test, unique } from './fixtures.js';

const ISSUE_INSTRUCTIONS = "Ask for the order number, then if the order is older than 30 days escalate to a human, otherwise say 'We will refund you'";
const ISSUE_MESSAGE = 'order 48213, bought 45 days ago';

/** A published refund rule: ask the amount, hand over above 100, otherwise say the refund is on its way. */
function refundFlow(limit: number) {
  return {
    id: 'ask_amount',
    type: 'collect',
    field: 'amount',
    question: 'How much was the order?',
    dataType: 'number',
    next: {
      id: 'check_amount',
      type: 'condition',
      conditions: [{ scope: 'SCALAR', predicate: [{ left: { path: 'rule.amount', dataType: 'number' }, operator: '>', right: { value: limit } }] }],
      then: { id: 'hand_over', type: 'escalate', reason: 'rule_escalation' },
      else: { id: 'say_ok', type: 'message', message: 'Your refund is on its way.' },
    },
  };
}

test("the issue's rule is drafted from instructions, drawn as a tree, and walked to its escalation", async ({ page }) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Rules', exact: true }).click();
  await page.getByRole('textbox', { name: 'Instructions' }).fill(ISSUE_INSTRUCTIONS);
  await page.getByRole('button', { name: 'Draft the rule' }).click();
  // The list shows other drafts' badges too: wait for the new draft's own page.
  await page.waitForURL(/\/console\/rules\/[0-9a-f-]{36}$/);
  await expect(page.getByText('Draft', { exact: true }), 'the draft opens').toBeVisible();
  const ruleId = new URL(page.url()).pathname.split('/').pop() ?? '';
  const rule = await apiCall<{ name: string; flowConfig: unknown }>('GET', `/v2/hc-rules/${ruleId}/public`);
  await expect(page.getByRole('heading', { name: rule.name, level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Not understood' }), 'the built-in engine understood every part').toHaveCount(0);

  const tree = page.getByRole('list', { name: `Flow of ${rule.name}` });
  await expect(tree.getByRole('listitem', { name: 'Collect ask_order_number' })).toContainText('Ask “What is your order number?” and keep the answer as rule.orderNumber');
  const condition = tree.getByRole('listitem', { name: 'Condition check_order_older_30' });
  await expect(condition, 'the predicate in words').toContainText('If the collected orderAgeDays is more than 30');
  await expect(condition.getByRole('list', { name: 'Then of check_order_older_30' }).getByRole('listitem', { name: 'Escalate hand_over' })).toContainText('Hand over to a person');
  await expect(condition.getByRole('list', { name: 'Otherwise of check_order_older_30' }).getByRole('listitem', { name: 'Message say_refund' })).toContainText('Say “We will refund you”');
  // The README's screenshot of the rule tree (docs/images/rule-tree.png) is this one.
  await checkPage(page, 'rule-tree');

  await page.getByRole('tab', { name: 'Test' }).click();
  // The engine reads the values a customer gives in passing: the one opening message answers both
  // questions, and the walk hands over at once.
  await page.getByRole('textbox', { name: 'Customer message' }).fill(ISSUE_MESSAGE);
  await page.getByRole('button', { name: 'Send' }).click();
  const turn = page.getByRole('article', { name: 'Turn 1' });
  await expect(turn.getByLabel('State after turn 1'), 'the walk hands over after the first message').toHaveText('Escalated: reason rule_escalation');
  await expect(turn).toContainText(/Trigger matched.*Score 0\.\d+ \(threshold 0\.2\)/s);
  const steps = turn.getByRole('list', { name: 'Steps of turn 1' }).getByRole('listitem');
  await expect(steps, 'both questions answered by the message, the condition held, the hand-over').toHaveText([
    'ask_order_number collect: accepted rule.orderNumber “48213”',
    /collect: accepted rule\.orderAgeDays 45$/,
    /^check_order_older_30 condition: holds, took Then; the collected orderAgeDays is more than 30: holds \(value 45\)$/,
    'hand_over escalate: handed over (reason rule_escalation)',
  ]);
  await expect(page.getByRole('article'), 'one message was enough').toHaveCount(1);
  await checkPage(page, 'rule-test');
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByRole('article')).toHaveCount(0);
});

test('a draft with parts not understood shows them, and publishing it is refused until accepted', async ({ page }) => {
  const agent = await apiCall<{ id: string; name: string }>('POST', '/v2/bots/public', { name: unique('Refund agent') });
  await signIn(page);
  await page.goto('/console/rules');
  await page.getByRole('textbox', { name: 'Instructions' }).fill('pls hand over anyone asking about a refund over 100 dollars. refunds of 100 or less: say "Your refund is on its way"');
  await page.getByRole('button', { name: 'Draft the rule' }).click();
  const warnings = page.getByRole('region', { name: 'Not understood' });
  await expect(warnings).toBeVisible();
  await expect(warnings).toContainText('pls hand over anyone asking about a refund over 100 dollars');
  await expect(page.getByText('This draft has no flow')).toBeVisible();
  await checkPage(page, 'rule-draft-warnings');

  await page.getByRole('tab', { name: 'Publish' }).click();
  await page.getByRole('checkbox', { name: agent.name }).check();
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const refused = page.getByRole('alert').filter({ hasText: 'Not published' });
  await expect(refused, "the API's 409 names the parts not understood").toContainText('pls hand over anyone asking about a refund over 100 dollars');
  await refused.getByRole('button', { name: 'Publish anyway' }).click();
  await expect(page.getByText('Published, version 1')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Agents' })).toBeVisible();
});

test('a draft is refined with more instructions', async ({ page }) => {
  const draft = await apiCall<{ id: string; name: string }>('POST', '/v2/hc-rules/draft/public', { behaviorInstructions: ISSUE_INSTRUCTIONS });
  await signIn(page);
  await page.goto(`/console/rules/${draft.id}`);
  const tree = page.getByRole('list', { name: `Flow of ${draft.name}` });
  await expect(tree.getByRole('listitem', { name: /^Collect / })).toHaveCount(2);
  await page.getByRole('textbox', { name: 'More instructions' }).fill('Also ask for the email address first');
  await page.getByRole('button', { name: 'Refine' }).click();
  await expect(tree.getByRole('listitem', { name: /^Collect / }), 'a third question').toHaveCount(3);
  await expect(tree.getByRole('listitem').first(), 'asked first').toContainText('email');
  const flow = (await apiCall<{ flowConfig: { type: string; field: string } }>('GET', `/v2/hc-rules/${draft.id}/public`)).flowConfig;
  expect(flow.type, 'the refined flow starts with a question').toBe('collect');
  expect(flow.field.toLowerCase()).toContain('email');
});

test("a node edited as a form: the API's validation message on its node and predicate, then versions compared and restored", async ({ page }) => {
  const name = unique('Refund check');
  const rule = await apiCall<{ id: string }>('POST', '/v2/hc-rules/public', { name, description: 'The customer asks for a refund', flowConfig: refundFlow(100) });
  await signIn(page);
  await page.goto(`/console/rules/${rule.id}`);
  const condition = page.getByRole('listitem', { name: 'Condition check_amount' });
  await condition.getByRole('button', { name: 'Edit check_amount' }).first().click();
  const form = page.getByRole('form', { name: 'Edit check_amount' });
  const predicate = form.getByRole('group', { name: 'Group 1, condition 1' });
  await expect(predicate.getByRole('combobox', { name: 'Operator' }), 'the operator in words').toHaveValue('>');
  await predicate.getByRole('textbox', { name: 'Value' }).fill('three');
  await form.getByRole('button', { name: 'Save node' }).click();
  const refusal = condition.getByRole('alert').filter({ hasText: 'The API refused check_amount' });
  await expect(refusal, 'the 400 is placed on the node it names').toContainText('conditions.0.predicate.0.right.value: right.value must be a number for dataType number');
  await expect(predicate.getByRole('textbox', { name: 'Value' }), "and on the predicate's value").toHaveAccessibleDescription(/right\.value must be a number for dataType number/);
  await expect(predicate.getByRole('textbox', { name: 'Field' }), 'not on its other parts').not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('listitem', { name: 'Collect ask_amount' }).getByRole('alert').filter({ hasText: 'The API refused' }), 'not on another node').toHaveCount(0);
  await checkPage(page, 'rule-node-error');

  await predicate.getByRole('combobox', { name: 'Operator' }).selectOption({ label: 'is at least' });
  await predicate.getByRole('textbox', { name: 'Value' }).fill('150');
  await form.getByRole('button', { name: 'Save node' }).click();
  await expect(page.getByText('Published, version 2')).toBeVisible();
  await expect(condition).toContainText('If the collected amount is at least 150');
  const saved = await apiCall<{ flowConfig: ReturnType<typeof refundFlow> }>('GET', `/v2/hc-rules/${rule.id}/public`);
  expect(saved.flowConfig.next.conditions[0]?.predicate[0], 'the number is saved as a number').toEqual({ left: { path: 'rule.amount', dataType: 'number' }, operator: '>=', right: { value: 150 } });

  await page.getByRole('tab', { name: 'Versions' }).click();
  await page.getByRole('combobox', { name: 'Compare version' }).click();
  await page.getByRole('option', { name: 'Version 1' }).click();
  await page.getByRole('combobox', { name: 'with version' }).click();
  await page.getByRole('option', { name: 'Version 2' }).click();
  const flowDiff = page.getByRole('region', { name: 'Changes in Flow' });
  await expect(flowDiff.getByRole('deletion')).toContainText('If the collected amount is more than 100');
  await expect(flowDiff.getByRole('insertion')).toContainText('If the collected amount is at least 150');
  await expect(page.getByRole('region', { name: 'Changes in Name' })).toContainText('(unchanged)');
  await checkPage(page, 'rule-versions');
  await page.getByRole('button', { name: 'Restore version 1' }).click();
  await expect(page.getByText('Published, version 3')).toBeVisible();
  await page.getByRole('tab', { name: 'Flow' }).click();
  await expect(page.getByRole('listitem', { name: 'Condition check_amount' })).toContainText('If the collected amount is more than 100');
});

test('a draft is published to an agent, listed with it', async ({ page }) => {
  const agent = await apiCall<{ id: string; name: string }>('POST', '/v2/bots/public', { name: unique('Orders agent') });
  const draft = await apiCall<{ id: string; name: string }>('POST', '/v2/hc-rules/draft/public', { behaviorInstructions: ISSUE_INSTRUCTIONS });
  await signIn(page);
  await page.goto('/console/rules');
  await expect(page.getByRole('table', { name: 'Drafts' }).getByRole('link', { name: draft.name }).first()).toBeVisible();
  await checkPage(page, 'rules');
  await page.goto(`/console/rules/${draft.id}`);
  await page.getByRole('tab', { name: 'Publish' }).click();
  await page.getByRole('checkbox', { name: agent.name }).check();
  await checkPage(page, 'rule-publish');
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByText('Published, version 1')).toBeVisible();
  await expect(page.getByText(`Agents: ${agent.name}`)).toBeVisible();
  const published = await apiCall<{ status: string; botIds: string[] }>('GET', `/v2/hc-rules/${draft.id}/public`);
  expect(published).toMatchObject({ status: 'PUBLISHED', botIds: [agent.id] });
  await page.getByRole('link', { name: '← Back to the rules' }).click();
  const row = page.getByRole('table', { name: 'Published rules' }).getByRole('row').filter({ has: page.getByRole('link', { name: draft.name }) }).filter({ hasText: agent.name });
  await expect(row).toContainText('Version 1');
});

test('a read-only key reads rules and tests them, and changes nothing', async ({ page }) => {
  const name = unique('Read refund');
  await apiCall('POST', '/v2/hc-rules/public', { name, description: 'The customer asks for a refund', flowConfig: refundFlow(100) });
  await signIn(page, server.readKey);
  await page.goto('/console/rules');
  await expect(page.getByRole('table', { name: 'Published rules' }).getByRole('link', { name })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Draft the rule' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Create rule' })).toBeDisabled();
  await page.getByRole('link', { name }).click();
  await expect(page.getByRole('button', { name: 'Delete rule' })).toBeDisabled();
  await page.getByRole('button', { name: 'Edit check_amount' }).click();
  await expect(page.getByRole('button', { name: 'Save node' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save node' })).toHaveAttribute('title', 'This key is read-only');
  await checkPage(page, 'rules-read-only');
  await page.getByRole('tab', { name: 'Test' }).click();
  await page.getByRole('textbox', { name: 'Customer message' }).fill('I want a refund');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('State after turn 1'), 'the test route is a read').toHaveText('Waiting for input: waiting for amount (node ask_amount)');
  await page.getByRole('tab', { name: 'Agents' }).click();
  await expect(page.getByRole('button', { name: 'Save agents' })).toBeDisabled();
  await page.getByRole('tab', { name: 'Versions' }).click();
  await expect(page.getByRole('table', { name: 'Versions' })).toContainText('Version 1');
});

test('a tool step added after a question, its dry-run call in the test panel, and a condition on the context', async ({ page }) => {
  const action = await apiCall<{ id: string; name: string }>('POST', '/v2/hc-tools/public', { name: unique('orderLookup').replace(' ', '_'), description: 'Finds an order by number' });
  const name = unique('Order lookup');
  const rule = await apiCall<{ id: string }>('POST', '/v2/hc-rules/public', {
    name,
    description: 'The customer asks where their order is',
    flowConfig: {
      id: 'ask_order',
      type: 'collect',
      field: 'orderNumber',
      question: 'What is your order number?',
      dataType: 'identifier',
      next: {
        id: 'vip',
        type: 'condition',
        conditions: [{ scope: 'SCALAR', predicate: [{ left: { path: 'userAttributes.plan', dataType: 'string' }, operator: '==', right: { value: 'premium' } }] }],
        then: { id: 'vip_hand_over', type: 'escalate', reason: 'customer_request' },
        else: { id: 'say_looking', type: 'message', message: 'I am looking up order ${rule.orderNumber}.' },
      },
    },
  });
  await signIn(page);
  await page.goto(`/console/rules/${rule.id}`);
  await expect(page.getByRole('listitem', { name: 'Condition vip' })).toContainText("If customer's plan is premium");
  await page.getByRole('button', { name: 'Edit ask_order' }).click();
  await page.getByRole('combobox', { name: 'Type of the step after it' }).click();
  await page.getByRole('option', { name: 'tool', exact: true }).click();
  await page.getByRole('button', { name: 'Add a step after this one' }).click();
  const form = page.getByRole('region', { name: 'New step' });
  await form.getByRole('textbox', { name: 'Node id' }).fill('lookup');
  await form.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: action.name }).click();
  await form.getByRole('textbox', { name: 'Inputs' }).fill('orderNumber = ${rule.orderNumber}');
  await form.getByRole('button', { name: 'Save node' }).click();
  await expect(page.getByText('Published, version 2')).toBeVisible();
  const tool = page.getByRole('listitem', { name: 'Tool lookup' });
  await expect(tool, 'the action by its name').toContainText(`Call action ${action.name} with orderNumber = \${rule.orderNumber}`);
  const saved = await apiCall<{ flowConfig: { next: { id: string; toolId: string; inputs: unknown; next: { id: string } } } }>('GET', `/v2/hc-rules/${rule.id}/public`);
  expect(saved.flowConfig.next, 'the tool step sits between the question and the condition').toMatchObject({ id: 'lookup', toolId: action.id, inputs: { orderNumber: '${rule.orderNumber}' }, next: { id: 'vip' } });

  await page.getByRole('tab', { name: 'Test' }).click();
  await page.getByRole('textbox', { name: 'Context (JSON, optional)' }).fill('{"userAttributes": {"plan": "premium"}');
  await page.getByRole('textbox', { name: 'Customer message' }).fill('Where is my order?');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('The context is not JSON', { exact: false }), 'a broken context is refused before sending').toBeVisible();
  await page.getByRole('textbox', { name: 'Context (JSON, optional)' }).fill('{"userAttributes": {"plan": "premium"}}');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('State after turn 1')).toHaveText('Waiting for input: waiting for orderNumber (node ask_order)');
  await page.getByRole('textbox', { name: 'Customer message' }).fill('It is order #48213');
  await page.getByRole('button', { name: 'Send' }).click();
  const turn = page.getByRole('article', { name: 'Turn 2' });
  await expect(turn.getByLabel('State after turn 2'), 'the premium customer is handed over').toHaveText('Escalated: reason customer_request');
  await expect(turn, 'the dry-run tool call with its input').toContainText(`Tool calls (dry run)${action.name} at lookup: inputs {"orderNumber":"48213"}`);
  await expect(turn.getByRole('list', { name: 'Steps of turn 2' })).toContainText("customer's plan is premium: holds (value “premium”)");
  await checkPage(page, 'rule-test-tool');
});

test('a node saved over a version someone else saved meanwhile is refused (409), and the current version shown', async ({ page }) => {
  const rule = await apiCall<{ id: string }>('POST', '/v2/hc-rules/public', { name: unique('Stale refund'), description: 'The customer asks for a refund', flowConfig: refundFlow(100) });
  await signIn(page);
  await page.goto(`/console/rules/${rule.id}`);
  await page.getByRole('button', { name: 'Edit say_ok' }).click();
  await apiCall('PATCH', `/v2/hc-rules/${rule.id}/public`, { flowConfig: refundFlow(200) });
  await page.getByRole('form', { name: 'Edit say_ok' }).getByRole('textbox', { name: 'Message' }).fill('We will refund you today.');
  await page.getByRole('button', { name: 'Save node' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The flow was not saved' }), "the API's 409").toContainText('the rule changed since version 1: its current version is 2');
  await page.getByRole('button', { name: 'Show the current version' }).click();
  await expect(page.getByText('Published, version 2')).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'Condition check_amount' }), 'the other change is shown').toContainText('If the collected amount is more than 200');
  await expect(page.getByRole('listitem', { name: 'Message say_ok' }), 'nothing of the refused edit was saved').toContainText('Say “Your refund is on its way.”');
});

test('escalate and end take no step after them, and a node is removed after a confirmation', async ({ page }) => {
  const name = unique('Removable refund');
  const rule = await apiCall<{ id: string }>('POST', '/v2/hc-rules/public', { name, description: 'The customer asks for a refund', flowConfig: refundFlow(100) });
  await signIn(page);
  await page.goto(`/console/rules/${rule.id}`);
  const tree = page.getByRole('list', { name: `Flow of ${name}` });
  // The flow has steps: a new first step would carry them as its `next`, which escalate and end have not.
  await page.getByRole('combobox', { name: 'Type of a new step' }).click();
  await expect(page.getByRole('option', { name: 'collect', exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: 'escalate', exact: true }), 'no escalate at the start of a flow with steps').toHaveCount(0);
  await expect(page.getByRole('option', { name: 'end', exact: true }), 'no end at the start of a flow with steps').toHaveCount(0);
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Edit hand_over' }).click();
  await expect(page.getByRole('form', { name: 'Edit hand_over' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add a step after this one' }), 'nothing goes after an escalation').toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Remove this node' })).toBeVisible();

  // Removing the first question: cancelled, then confirmed.
  await page.getByRole('button', { name: 'Edit ask_amount' }).click();
  await expect(page.getByRole('button', { name: 'Add a step after this one' }), 'a question has a step after it').toBeVisible();
  await page.getByRole('button', { name: 'Remove this node' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove node' });
  await expect(dialog).toContainText('Remove ask_amount and its branches?');
  await checkPage(page, 'rule-remove-node');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(tree.getByRole('listitem', { name: 'Collect ask_amount' }), 'cancelling keeps the node').toBeVisible();
  expect((await apiCall<{ version: number; flowConfig: { id: string } }>('GET', `/v2/hc-rules/${rule.id}/public`)).flowConfig.id, 'nothing was saved').toBe('ask_amount');

  await page.getByRole('button', { name: 'Remove this node' }).click();
  await dialog.getByRole('button', { name: 'Remove node' }).click();
  await expect(page.getByText('Published, version 2')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(tree.getByRole('listitem', { name: 'Collect ask_amount' }), 'the node is gone from the tree').toHaveCount(0);
  await expect(tree.getByRole('listitem').first(), 'its next step takes its place').toHaveAccessibleName('Condition check_amount');
  const saved = await apiCall<{ version: number; flowConfig: { id: string } }>('GET', `/v2/hc-rules/${rule.id}/public`);
  expect(saved, 'the API has the flow without it').toMatchObject({ version: 2, flowConfig: { id: 'check_amount' } });
});
