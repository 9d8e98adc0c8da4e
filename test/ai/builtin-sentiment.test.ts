// The built-in engine's sentiment scorer and planner on customers' wording (written before tuning):
// calm questions about refunds, cancellations and problems are not negative; plain complaints are
// negative but not angry; shouting, insults and swearing are angry; requests for a person in the
// words customers use (typos, indirect) are requests for a person.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planMessage } from '../../src/ai/builtin/plan.js';
import { scoreSentiment } from '../../src/ai/builtin/sentiment.js';
import { DEFAULT_PROMPTS } from '../../src/modules/agents/default-prompts.js';

const DEFAULT_PLANNING = DEFAULT_PROMPTS.hcPlanningPrompt.map((s) => s.content).join('\n\n');
const plan = (message: string, planningPrompt = DEFAULT_PLANNING) => planMessage({ message, history: [], planningPrompt, rules: [] });

describe('scoreSentiment', () => {
  const calm = [
    'How do I get a refund?',
    'When will my refund arrive?',
    'How can I cancel my subscription?',
    'i want to cancel my order pls',
    'what is ur refund policy',
    'I have a problem logging in, how do I reset my password?',
    'I was charged twice, can you refund one of the payments?',
    'can I get my money back for a damaged item?',
    'Is there a cancellation fee?',
    'My order is missing an item, what should I do?',
    'where do i report an issue with my payment',
    'How can I lodge a complaint?',
    'error changing delivery address',
    'I need to return a broken lamp',
    'Can I pay with AMEX or VISA?',
    'THANK YOU SO MUCH!!',
  ];

  const complaints = [
    "I'm really disappointed with the service, the package arrived damaged.",
    "This is the second time my order is late, I'm not happy.",
    'The app keeps crashing and it is frustrating.',
    "I'm not happy with the service, how can I lodge a complaint?",
    'im discontent with the service, submit a consumer complaint',
    'The delivery was terrible and nobody answered my emails.',
  ];

  const angry = [
    "THREE WEEKS and my order still hasn't arrived, useless company, I want my money back NOW!!",
    "This is RIDICULOUS, I've been waiting for an hour!!!",
    'you are useless, worst company ever',
    'what the hell is wrong with you people, fix my account',
    'change my fucking order',
    'This is a scam and I am going to report you. Absolutely pathetic.',
    'WHERE IS MY PACKAGE??? I paid two weeks ago!!',
    'ur support is a joke, idiots',
  ];
  const table: [string, string[], boolean, boolean][] = [
    ['calm', calm, false, false],
    ['a plain complaint is negative, not angry', complaints, true, false],
    ['angry', angry, true, true],
  ];
  for (const [kind, texts, negative, isAngry] of table) {
    for (const text of texts) {
      it(`${kind}: ${text}`, () => {
        const s = scoreSentiment(text);
        assert.equal(s.sentiment === 'negative', negative, `${s.sentiment} ${s.score}`);
        assert.equal(s.angry, isAngry, `anger ${s.anger}`);
      });
    }
  }

  it('a happy customer is positive, with or without a swear word', () => {
    assert.equal(scoreSentiment('Thanks, that worked great!').sentiment, 'positive');
    const s = scoreSentiment('that was fucking awesome, thank you so much');
    assert.equal(s.sentiment, 'positive');
    assert.equal(s.angry, false);
  });

  it('acronyms and product names in capitals are no shouting', () => {
    assert.equal(scoreSentiment('Can I pay with PayPal or by SEPA transfer from the EU?').angry, false);
    assert.equal(scoreSentiment('My PDF invoice shows the wrong VAT number').angry, false);
  });
});

describe('planMessage: a request for a person', () => {
  const now = [
    'can i talk to someone?',
    'you arent helping, how can i speak with a human agent?',
    'I need help talking to a human',
    "I can't understand you, what should I do to contact a human?",
    'can u contcat someone?',
    'human please',
    'I want to speak with someone',
    'let me talk to a real person',
    'get me a manager',
    'Agent!',
    'is there a person I can call?',
  ];
  for (const text of now) {
    it(`asks for a person: ${text}`, () => {
      const p = plan(text);
      assert.equal(p.intent, 'human_request');
      assert.equal(p.performKnowledgeSearch, false);
    });
  }

  const indirect = ['can u ask an agent how i can request a reimbursement?', 'please, could you ask an agent where to report a problem with my payment?', 'ask an agent if i could cancel a purchase'];
  for (const text of indirect) {
    it(`asks a person a question (answered when the knowledge answers it): ${text}`, () => {
      const p = plan(text);
      assert.equal(p.intent, 'human_request');
      assert.equal(p.performKnowledgeSearch, true);
    });
  }

  const not = [
    'How do I add someone to my account?',
    'someone stole my account password, what should I do?',
    'Can my agent pick up the parcel for me?',
    'How do I contact the seller about a product?',
    'is the person who delivers allowed to leave it with a neighbour?',
  ];
  for (const text of not) it(`is not a request for a person: ${text}`, () => assert.equal(plan(text).intent, 'question'));
});

describe('planMessage: anger', () => {
  it('a clearly angry message is planned for a hand-over after the answer', () => {
    const p = plan("THREE WEEKS and my order still hasn't arrived, useless company, I want my money back NOW!!");
    assert.equal(p.sentiment, 'negative');
    assert.equal(p.angry, true);
    assert.equal(p.performKnowledgeSearch, true);
    assert.match(p.reasoning, /angry/);
  });
  it('without the planning instruction to hand angry customers over, anger hands nothing over', () => {
    const p = plan('change my fucking order', 'Search the knowledge base before answering.');
    assert.equal(p.sentiment, 'negative');
    assert.equal(p.angry, false);
    assert.match(p.reasoning, /do not say to hand over/);
  });
  it('a calm refund question is not', () => {
    const p = plan('How do I get a refund?');
    assert.equal(p.angry, false);
    assert.equal(p.sentiment, 'neutral');
  });
});
