// The Refine with AI benchmark's workspace and seeded failure cases (bench/refine/run.ts). Each case
// is a customer message the agent answers badly through Generate Answer, the feedback a support
// lead writes, the root cause a person would name, and a check of the replayed answer.

export interface SeedArticle {
  key: string;
  title: string;
  body: string;
}

/** The knowledge base: a subscription product's help center. */
export const ARTICLES: SeedArticle[] = [
  {
    key: 'refunds',
    title: 'Refund policy',
    body: 'Annual plans can be refunded within 30 days of purchase. Monthly plans are not refunded, but you can cancel them at any time. Refunds reach your card within 10 business days.',
  },
  {
    key: 'password',
    title: 'How do I reset my password?',
    body: 'Click "Forgot password" on the sign-in page and enter your e-mail address. We send you a link to choose a new password. The reset link expires after 24 hours.',
  },
  {
    key: 'seats',
    title: 'Adding team members',
    body: 'Admins can invite team members from Settings, then Team. The Starter plan includes 3 seats. Each extra seat costs 8 dollars per month.',
  },
  {
    key: 'trial',
    title: 'Free trial',
    body: 'Every new workspace starts with a free trial of 14 days. No credit card is needed to start the trial. At the end of the trial the workspace switches to the Free plan. Trial workspaces are limited to 5 projects.',
  },
  {
    key: 'export',
    title: 'Exporting your data',
    body: 'Owners can export all projects as a ZIP file from Settings, then Data. The export link is e-mailed to you. Exports are kept for 7 days. Only the workspace owner can start an export; admins cannot.',
  },
  {
    key: 'invoices',
    title: 'Downloading invoices',
    body: 'Invoices are available on the Billing page. Click Download next to an invoice to get it as a PDF. Invoices are issued on the first day of each month. Your company VAT number can be added under Billing details and appears on every new invoice.',
  },
  {
    key: 'sso',
    title: 'Single sign-on (SSO)',
    body: 'Single sign-on with SAML is available on the Enterprise plan. Admins set it up under Settings, then Security. SSO supports Okta, Azure AD and Google Workspace. Users who sign in with SSO do not need a password.',
  },
  {
    key: 'storage',
    title: 'Storage limits',
    body: 'The Free plan includes 2 GB of storage. The Pro plan includes 100 GB of storage. Files larger than 5 GB cannot be uploaded on any plan.',
  },
  {
    key: 'delete-account',
    title: 'Deleting your account',
    body: 'You can delete your account from Settings, then Account, then Delete account. Deleted accounts can be restored within 30 days by contacting support. After 30 days all data is erased for good. Deleting the account also cancels your subscription.',
  },
  {
    key: 'api-limits',
    title: 'API rate limits',
    body: 'The API allows 60 requests per minute on the Pro plan. Requests over the limit get the status 429. API keys are created under Settings, then Developers. Rate limits apply per API key. Webhooks do not count towards the limit.',
  },
  {
    key: 'mobile',
    title: 'Mobile apps',
    body: 'The mobile app is available for iOS and Android. It works offline and syncs when you are back online. Push notifications can be turned off in the app settings. The mobile app needs iOS 16 or Android 12 or later.',
  },
  {
    key: 'plans',
    title: 'Changing your plan',
    body: 'You can upgrade or downgrade your plan at any time from the Billing page. An upgrade takes effect at once and is charged pro rata. A downgrade takes effect at the end of the current billing period. Plan changes are confirmed by e-mail.',
  },
];

export interface SeedRule {
  key: string;
  name: string;
  description: string;
  /** The flow; `$action` in a tool node is replaced by the bench's action id. */
  flowConfig: Record<string, unknown>;
}

/** Intent rules whose flows forgot a step. */
export const RULES: SeedRule[] = [
  {
    key: 'order',
    name: 'Order status',
    description: 'The customer asks where their order is or about its delivery status',
    flowConfig: { type: 'message', message: 'Your order is on its way and should arrive soon.' },
  },
  {
    key: 'parcel',
    name: 'Track a parcel',
    description: 'The customer wants to track a parcel shipment',
    flowConfig: {
      type: 'tool',
      toolId: '$action',
      inputs: { parcelNumber: '${rule.parcelNumber}' },
      onSuccess: { type: 'message', message: 'Your parcel is ${rule.trackParcel.status}.' },
      onFailure: { type: 'escalate', reason: 'tool_failure', message: 'I could not look that parcel up; a colleague will follow up.' },
    },
  },
  {
    key: 'cancel',
    name: 'Cancel subscription',
    description: 'The customer wants to cancel their subscription',
    flowConfig: { type: 'message', message: 'I am sorry to see you go. Your subscription will be cancelled.' },
  },
  {
    key: 'address',
    name: 'Change shipping address',
    description: 'The customer wants to change the shipping address of an order',
    flowConfig: { type: 'message', message: 'We will update the shipping address for you.' },
  },
  {
    key: 'warranty',
    name: 'Warranty claim',
    description: 'The customer wants to make a warranty claim for a broken device',
    flowConfig: { type: 'escalate', reason: 'other', message: 'A colleague will handle your warranty claim.' },
  },
];

export interface Expected {
  failureStage: string;
  failureMode: string;
  /** What the change targets: the article or rule key, `new` for a new article, or the prompt type. */
  target: string;
}

export interface Case {
  id: string;
  message: string;
  feedback: string;
  expected: Expected;
  /** The replayed answer fixes the case: every pattern matches it (and none of `absent`). */
  present: RegExp[];
  absent?: RegExp[];
}

const c = (id: string, message: string, feedback: string, expected: Expected, present: RegExp[], absent?: RegExp[]): Case => ({
  id,
  message,
  feedback,
  expected,
  present,
  ...(absent ? { absent } : {}),
});

const missing = (target = 'new'): Expected => ({ failureStage: 'knowledge_search', failureMode: 'relevant_knowledge_not_available', target });
const wrong = (target: string): Expected => ({ failureStage: 'knowledge_content', failureMode: 'incorrect_knowledge', target });
const rule = (target: string): Expected => ({ failureStage: 'rule_execution', failureMode: 'required_rule_behavior_missing', target });
const notRetrieved = (target: string): Expected => ({ failureStage: 'knowledge_search', failureMode: 'relevant_knowledge_not_retrieved', target });
const wrongRule = (target: string): Expected => ({ failureStage: 'rule_execution', failureMode: 'rule_triggered_incorrectly', target });
const omitted = (): Expected => ({ failureStage: 'answer_generation', failureMode: 'required_information_omitted', target: 'hcGuidelinePrompt' });

export const CASES: Case[] = [
  // The knowledge lacks the answer: the agent hands over or answers from the wrong article.
  // The shipping-address rule answers these (it shares "ship" with them): the rule should not have run, and the knowledge lacks the answer.
  c('rule-wrong-canada', 'Do you ship to Canada?', 'It should have said that we ship to Canada within 5 business days and that shipping to Canada costs 15 dollars.', wrongRule('address'), [/Canada within 5 business days/]),
  c('missing-student', 'Is there a student discount?', 'Students get 50 percent off the Pro plan with a valid student e-mail address.', missing(), [/50 percent off/]),
  c('missing-nonprofit', 'Do you offer discounts for nonprofits?', 'The agent should have told them that registered nonprofits get the Pro plan for free.', missing(), [/nonprofits get the Pro plan for free/i]),
  c('missing-languages', 'Which languages does the app support?', 'It should have said that the app is available in English, German, French and Spanish.', missing(), [/English, German, French and Spanish/]),
  c('missing-phone', 'Can I reach support by phone?', 'Phone support is available for Enterprise customers from 9 to 5 on weekdays.', missing(), [/Phone support is available for Enterprise customers/]),
  c('missing-dark-mode', 'Is there a dark mode?', 'Yes: dark mode can be switched on under Settings, then Appearance.', missing(), [/dark mode can be switched on under Settings/i]),
  c('missing-gdpr', 'Where is my data stored?', 'It should have explained that all customer data is stored in data centers in Frankfurt, Germany.', missing(), [/stored in data centers in Frankfurt/]),
  c('missing-two-factor', 'How do I turn on two-factor authentication?', 'Two-factor authentication is turned on under Settings, then Security, then Two-factor authentication.', missing(), [/Two-factor authentication is turned on under Settings/]),

  // An article states another number.
  c('wrong-refund-days', 'Can I get a refund for my annual plan?', 'Wrong: annual plans can be refunded within 60 days of purchase.', wrong('refunds'), [/60 days/], [/30 days/]),
  c('wrong-reset-link', 'How long is the password reset link valid?', 'Not quite: the reset link expires after 2 hours.', wrong('password'), [/2 hours/], [/24 hours/]),
  c('wrong-seats', 'How many seats are included in the Starter plan?', 'Actually, the Starter plan includes 5 seats.', wrong('seats'), [/5 seats/], [/3 seats/]),
  c('wrong-trial', 'How long is the free trial?', 'The answer is wrong: every new workspace starts with a free trial of 30 days.', wrong('trial'), [/30 days/], [/14 days/]),
  c('wrong-export', 'How long are exports kept?', 'Correction: exports are kept for 14 days.', wrong('export'), [/14 days/], [/7 days/]),
  c('wrong-storage', 'How much storage does the Pro plan include?', 'Wrong, the Pro plan includes 200 GB of storage.', wrong('storage'), [/200 GB/], [/100 GB/]),
  c('wrong-api', 'What is the API rate limit on the Pro plan?', 'The API allows 120 requests per minute on the Pro plan.', wrong('api-limits'), [/120 requests per minute/], [/60 requests/]),
  c('wrong-restore', 'Can I restore my deleted account?', 'No: deleted accounts can be restored within 14 days by contacting support.', wrong('delete-account'), [/within 14 days/], [/within 30 days/]),

  // A rule's flow lacks a step.
  c('rule-order', 'Where is my order?', 'It should have asked for the order number first.', rule('order'), [/order number/i, /\?/]),
  c('rule-order-2', 'My order has not arrived yet, where is it?', 'The agent must ask the customer for their order number before anything else.', rule('order'), [/order number/i, /\?/]),
  c('rule-parcel', 'I want to track my parcel', 'It should have asked for the parcel number first.', rule('parcel'), [/parcel number/i, /\?/]),
  c('rule-cancel', 'I want to cancel my subscription', 'It should have asked for the reason for cancelling first.', rule('cancel'), [/reason/i, /\?/]),
  c('rule-cancel-2', 'Please cancel my subscription now', 'The agent should ask for the account e-mail address first.', rule('cancel'), [/e-?mail/i, /\?/]),
  c('rule-address', 'I need to change the shipping address of my order', 'It should have asked for the new address first.', rule('address'), [/address/i, /\?/]),
  c('rule-warranty', 'My device is broken and I want to make a warranty claim', 'The agent needs to ask for the serial number first.', rule('warranty'), [/serial number/i, /\?/]),

  // The article holds the fact but the answer leaves it out.
  c('omitted-invoice-vat', 'How do I download an invoice as PDF?', 'It should have mentioned that your company VAT number can be added under Billing details.', omitted(), [/VAT number/]),
  c('omitted-sso-password', 'How do I set up single sign-on with SAML?', 'The answer should say that users who sign in with SSO do not need a password.', omitted(), [/do not need a password/]),
  c('omitted-export-owner', 'How do I export all my projects as a ZIP file?', 'It should have said that only the workspace owner can start an export.', omitted(), [/Only the workspace owner can start an export/]),
  c('not-retrieved-plan-email', 'How do I upgrade or downgrade my plan?', 'It should have mentioned that plan changes are confirmed by e-mail.', notRetrieved('plans'), [/confirmed by e-mail/]),
  c('omitted-trial-projects', 'Do I need a credit card for the free trial?', 'The answer should mention that trial workspaces are limited to 5 projects.', omitted(), [/limited to 5 projects/]),
  c('omitted-delete-erased', 'How do I delete my account?', 'It should have said that after 30 days all data is erased for good.', omitted(), [/all data is erased for good/]),

  // More knowledge the agent lacks, asked the way customers write.
  c('rule-wrong-invoice-address', 'hi, can I change the address on my invoices?', 'The billing address on invoices can be changed under Billing details; it applies to every new invoice.', wrongRule('address'), [/billing address on invoices can be changed/i]),
  c('missing-referral', 'Do you have a referral program?', 'It should have said: you get one free month for every friend who subscribes with your referral link.', missing(), [/one free month for every friend/]),
];

/**
 * Cases written after the engine was finished and never used to change it: feedback as support
 * leads type it (terse, lower case, several sentences, asides). bench/refine reports them apart.
 */
export const HELD_OUT: Case[] = [
  c('held-missing-wallet', 'can I pay with apple pay?', 'nope, agent should know this: we accept Apple Pay and Google Pay on all plans.', missing(), [/Apple Pay and Google Pay/]),
  c('held-missing-hours', 'What are your support hours?', 'Support is available Monday to Friday from 8 am to 6 pm CET. The agent had no idea.', missing(), [/Monday to Friday from 8 am to 6 pm/]),
  c('held-missing-uptime', 'do you have an SLA?', 'We guarantee 99.9 percent uptime on the Enterprise plan.', missing(), [/99\.9 percent uptime/]),
  c('held-wrong-seats-price', 'How much does an extra seat cost?', 'that is outdated - each extra seat costs 10 dollars per month now', wrong('seats'), [/10 dollars per month/], [/8 dollars/]),
  c('held-wrong-export-days', 'how long is my data export available?', 'Exports are kept for 30 days, not 7.', wrong('export'), [/30 days/], [/7 days/]),
  c('held-wrong-api', 'How many API requests per minute can I make on Pro?', 'limit changed last month: the API allows 100 requests per minute on the Pro plan', wrong('api-limits'), [/100 requests per minute/], [/60 requests/]),
  c('held-rule-order', 'hey where is my package', 'should have asked for the order number first!!', rule('order'), [/order number/i, /\?/]),
  c('held-rule-cancel', 'cancel my account subscription please', 'Agent needs to ask for the reason first before cancelling anything.', rule('cancel'), [/reason/i, /\?/]),
  c('held-omitted-sso', 'Which identity providers does SSO support?', 'Answer was ok but it should mention that single sign-on is available on the Enterprise plan.', omitted(), [/available on the Enterprise plan/]),
  c('held-omitted-invoice-date', 'How do I download an invoice?', 'good answer, though it should also say invoices are issued on the first day of each month.', omitted(), [/first day of each month/]),
];
