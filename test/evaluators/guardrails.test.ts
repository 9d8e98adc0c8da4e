// The guardrail checks of src/evaluators/guardrails.ts: detectors with true negatives, topics, phrases,
// redaction, order and the kind rules.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectPii, findTopics, type Guardrail, guardrailDefinitionSchema, PII_TYPES, type PiiType, REDACTED, runGuardrails } from '../../src/evaluators/guardrails.js';

const g = (over: Partial<Guardrail> & Pick<Guardrail, 'kind' | 'config'>): Guardrail => ({ id: over.kind, name: over.kind, stage: 'input', action: 'flag', isEnabled: true, ...over });
const types = (text: string, kinds: readonly PiiType[] = PII_TYPES) => detectPii(text, kinds).map((s) => [s.type, s.value]);

describe('PII detectors', () => {
  it('finds emails', () => {
    assert.deepEqual(types('write to Jane.Doe+support@mail.example.co.uk today'), [['email', 'Jane.Doe+support@mail.example.co.uk']]);
    assert.deepEqual(types('an @mention or user@localhost'), []);
  });
  it('finds phone numbers, not order numbers or dates', () => {
    assert.deepEqual(types('call +44 20 7946 0958 or (555) 123-4567 or 030 1234 5678'), [
      ['phone', '+44 20 7946 0958'],
      ['phone', '(555) 123-4567'],
      ['phone', '030 1234 5678'],
    ]);
    assert.deepEqual(types('order 12345678 placed on 2026-11-24, total 1 299'), []);
  });
  it('finds card numbers that pass the Luhn check only', () => {
    assert.deepEqual(types('card 4111 1111 1111 1111 and 5500-0000-0000-0004'), [
      ['card', '4111 1111 1111 1111'],
      ['card', '5500-0000-0000-0004'],
    ]);
    assert.deepEqual(types('not a card: 4111 1111 1111 1112'), []);
  });
  it('finds IBANs with valid check digits only', () => {
    assert.deepEqual(types('IBAN DE89 3704 0044 0532 0130 00 or GB82WEST12345698765432'), [
      ['iban', 'DE89 3704 0044 0532 0130 00'],
      ['iban', 'GB82WEST12345698765432'],
    ]);
    assert.deepEqual(types('DE00 3704 0044 0532 0130 00'), []);
  });
  it('finds US social security numbers, not invalid areas', () => {
    assert.deepEqual(types('SSN 123-45-6789'), [['ssn', '123-45-6789']]);
    assert.deepEqual(types('000-12-3456 666-12-3456 900-12-3456 123-00-6789'), []);
  });
  it('detects only the types asked for', () => {
    assert.deepEqual(types('a@b.io 4111 1111 1111 1111', ['email']), [['email', 'a@b.io']]);
  });
});

describe('topics and phrases', () => {
  it('matches a topic when all words of an alternative appear, by stem', () => {
    assert.deepEqual(findTopics('Who should I vote for?', ['politics, elections, voting']), [{ topic: 'voting', terms: ['vote'] }]);
    assert.deepEqual(findTopics('What is your refund policy for crypto?', ['politics']), []);
    assert.deepEqual(findTopics('my card was charged twice', ['credit card fraud']), []);
    assert.deepEqual(findTopics('I think this is credit card fraud', ['credit card fraud']).map((f) => f.topic), ['credit card fraud']);
  });
  it('matches phrases on word boundaries, case-insensitively unless asked', () => {
    const rail = g({ kind: 'blocked_phrases', action: 'redact', config: { phrases: ['free money'] } });
    assert.equal(runGuardrails([rail], { stage: 'input', text: 'Get FREE MONEY now, freemoney no' }).text, `Get ${REDACTED} now, freemoney no`);
    const strict = g({ kind: 'blocked_phrases', action: 'redact', config: { phrases: ['free money'], caseSensitive: true } });
    assert.equal(runGuardrails([strict], { stage: 'input', text: 'FREE MONEY' }).results[0]!.matched, false);
  });
});

describe('runGuardrails', () => {
  it('redacts in turn, blocks, escalates and flags, in order, skipping disabled and other-stage ones', () => {
    const rails: Guardrail[] = [
      g({ id: 'pii', kind: 'pii_redaction', action: 'redact', config: { types: ['email', 'card'] } }),
      g({ id: 'phr', kind: 'blocked_phrases', action: 'escalate', config: { phrases: ['lawyer'] } }),
      g({ id: 'off', kind: 'blocked_topics', action: 'block', config: { topics: ['refund'] }, isEnabled: false }),
      g({ id: 'out', kind: 'answer_length', stage: 'output', action: 'block', config: { maxCharacters: 1 } }),
      g({ id: 'top', kind: 'blocked_topics', action: 'flag', config: { topics: ['refund'] } }),
    ];
    const outcome = runGuardrails(rails, { stage: 'input', text: 'Refund to a@b.io card 4111 1111 1111 1111 or my lawyer calls' });
    assert.equal(outcome.text, `Refund to ${REDACTED} card ${REDACTED} or my lawyer calls`);
    assert.equal(outcome.blocked, false);
    assert.equal(outcome.escalate, true);
    assert.deepEqual(outcome.results.map((r) => [r.id, r.matched]), [['pii', true], ['phr', true], ['top', true]]);
    assert.deepEqual(outcome.results[0]!.matches.map((m) => [m.type, m.value]), [['email', undefined], ['card', undefined]], 'PII values are never reported');
    assert.equal(outcome.results[0]!.detail, 'found 1 email, 1 card');
  });
  it('checks the answer length and citations on output', () => {
    const rails: Guardrail[] = [
      g({ id: 'len', kind: 'answer_length', stage: 'output', action: 'block', config: { maxCharacters: 10 } }),
      g({ id: 'cite', kind: 'required_citation', stage: 'output', action: 'escalate', config: {} }),
    ];
    const long = runGuardrails(rails, { stage: 'output', text: 'This answer is too long', citations: ['a1'] });
    assert.deepEqual([long.blocked, long.escalate, long.results[0]!.detail, long.results[1]!.detail], [true, false, '23 of at most 10 characters', 'cites 1 article(s)']);
    const uncited = runGuardrails(rails, { stage: 'output', text: 'Short', citations: [] });
    assert.deepEqual([uncited.blocked, uncited.escalate], [false, true]);
  });
});

describe('definitions', () => {
  const parse = (v: unknown) => guardrailDefinitionSchema.safeParse(v);
  const messages = (v: unknown) => {
    const r = parse(v);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };
  it('checks the config of each kind, naming the field', () => {
    assert.match(messages({ name: 'x', kind: 'pii_redaction', stage: 'input', action: 'redact', config: { types: ['passport'] } })[0]!, /^config\.types\.0: /);
    assert.match(messages({ name: 'x', kind: 'answer_length', stage: 'output', action: 'block', config: {} })[0]!, /^config\.maxCharacters: /);
    assert.match(messages({ name: 'x', kind: 'blocked_topics', stage: 'input', action: 'block', config: { topics: [] } })[0]!, /^config\.topics: /);
    assert.ok(parse({ name: 'x', kind: 'required_citation', stage: 'output', action: 'flag', config: {} }).success);
  });
  it('refuses actions and stages that do not fit the kind', () => {
    assert.deepEqual(messages({ name: 'x', kind: 'blocked_topics', stage: 'input', action: 'redact', config: { topics: ['a'] } }), ['action: blocked_topics cannot redact: use one of block, escalate, flag']);
    assert.deepEqual(messages({ name: 'x', kind: 'required_citation', stage: 'input', action: 'flag', config: {} }), ["stage: required_citation checks the agent's answer: stage must be output"]);
  });
});
