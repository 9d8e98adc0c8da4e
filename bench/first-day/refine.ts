// The Refine with AI half of the first-day set: per case a fresh agent with its own copy of the help
// center (so a published fix cannot touch another case), the customer's question through Generate
// Answer, the lead's note through the fix-review routes, the proposed drafts read back, the replay
// scored, the fix published, and the question re-asked in other words.
import { sleep } from '../support.js';
import { type Call, type CaseResult, type Finding, clip, decide, firstMatch, messageOf, readWarnings } from './common.js';
import { ARTICLES, type RefineCase } from './refine-cases.js';

/** A lead's words that must never reach customers (an article body or title, an answer). */
const NOTE_WORDS = [
  /\bthis is wrong\b/i,
  /\b(that'?s|it'?s|answer (is|was)) wrong\b/i,
  /\btell (the )?customers?\b/i,
  /\btell them\b/i,
  /\b(the )?(article|answer|info|number) (is|was) (outdated|wrong|incorrect)\b/i,
  /\bpls\b|\bplz\b/i,
  /\bthe answer should\b/i,
  /\b(it|answer|agent) (should|needs to) (have )?(say|said|mention|know)/i,
  /\bshould (also )?(say|mention)\b/i,
  /\bthe agent\b/i,
  /\b(good|great|nice|fine|correct) answer\b/i,
  /^\s*(wrong|correction|heads up|fyi|also|nice|good|fine|correct)\b\s*[:,-]/im,
  /\bheads up\b/i,
  /\bneeds to say\b/i,
];

interface Article {
  id: string;
  title: string;
  mainKnowledge: string;
  originalArticleId: string | null;
}

interface Section {
  id: string;
  title: string;
  content: string;
}

type Prompts = Record<'hcPlanningPrompt' | 'hcGuidelinePrompt' | 'hcChannelPrompt', Section[]>;

interface Change {
  rootCause: { failureStage: string; failureMode: string; target: { kind: string; operation?: string; articleId?: string } };
  changeType: string;
  draftPromptVersionId: string | null;
  draftArticleId: string | null;
  draftRuleVersionId: string | null;
}

interface Iteration {
  id: string;
  status: string;
  error: string | null;
  summary: string | null;
  newAnswerSnapshot: { content: string | null } | null;
  changes: Change[];
}

interface Session {
  id: string;
  latestIteration: Iteration | null;
  iterations: Iteration[];
}

interface Event {
  id: string;
  role: string;
  message: string;
  interactionId: string;
  handover?: boolean;
}

/** The case's own agent and folder with the help center. */
async function buildHelpCenter(call: Call, id: string): Promise<{ botId: string; articleIds: Map<string, string> }> {
  const agent = await call<{ id: string }>('POST', '/v2/bots/public', { name: `Alder & Pine support (${id})` });
  const folder = await call<{ id: string }>('POST', '/v2/hc-folders/public', { title: `Help center (${id})`, description: 'Alder & Pine customer help' });
  await call('POST', '/v2/hc-bot-folder-junctions/public', { junctions: [{ folderId: folder.id, botId: agent.id, action: 'ADD' }] });
  const articleIds = new Map<string, string>();
  for (const a of ARTICLES) {
    const created = await call<{ id: string }>('POST', '/v2/hc-articles/public', {
      title: a.title, mainKnowledge: a.body, agentInstruction: '', questions: [], keywords: [], escalation: false, parentFolderId: folder.id,
    });
    articleIds.set(a.key, created.id);
  }
  return { botId: agent.id, articleIds };
}

/** The agent's reply to a customer message in a new conversation. */
async function ask(call: Call, botId: string, content: string): Promise<Event> {
  const events = await call<Event[]>('POST', '/v2/hc-interactions/events/public', { content, botId });
  const reply = events.find((e) => e.role === 'parleybot');
  if (!reply) throw new Error(`no reply to "${content}"`);
  return reply;
}

/** Polls the reply's session until the iteration leaves the running states (at most 120 s). */
async function waitForIteration(call: Call, reply: Event, iterationId: string): Promise<{ session: Session | null; iteration: Iteration | null }> {
  const deadline = Date.now() + 120_000;
  let session: Session | null = null;
  while (Date.now() < deadline) {
    session = await call<Session | null>('GET', `/v2/fix-review/interactions/${reply.interactionId}/events/${reply.id}/session/public`);
    const iteration = session?.iterations.find((i) => i.id === iterationId) ?? null;
    if (iteration && !['queued', 'generating_changes', 'replaying'].includes(iteration.status)) return { session, iteration };
    await sleep(150);
  }
  return { session, iteration: null };
}

/**
 * Findings on customer-facing text: the note's own words in it (lead-ins, "tell customers", "pls",
 * asides, typos). A note that is plain help-center text may stand as it is.
 */
function leaks(text: string, kase: RefineCase, what: string): Finding[] {
  const word = firstMatch(text, [...NOTE_WORDS, ...(kase.leaks ?? [])]);
  return word ? [{ kind: 'note-words-to-customers', detail: `${what} has /${word}/: "${clip(text, 70)}"`, harm: 'active' }] : [];
}

/** Findings on a text that must state the case's facts and not the old ones. */
function facts(text: string, kase: RefineCase, kind: string, what: string): Finding[] {
  const missing = kase.states.find((p) => !p.test(text));
  if (missing) return [{ kind: `${kind}-missing-fact`, detail: `${what} lacks /${missing.source}/: "${clip(text, 70)}"`, fragment: kase.note }];
  const old = firstMatch(text, kase.notStates ?? []);
  if (old) return [{ kind: `${kind}-keeps-old-fact`, detail: `${what} still says /${old}/: "${clip(text, 70)}"`, fragment: kase.note }];
  return [];
}

const states = (text: string, kase: RefineCase) => facts(text, kase, 'x', '').length === 0;

/** The prompt sections a draft adds or changes, against the agent's current prompts. */
function changedSections(current: Prompts, draft: Prompts): Section[] {
  const out: Section[] = [];
  for (const key of ['hcPlanningPrompt', 'hcGuidelinePrompt', 'hcChannelPrompt'] as const) {
    for (const section of draft[key] ?? []) {
      const before = (current[key] ?? []).find((s) => s.id === section.id);
      if (!before || before.title !== section.title || before.content !== section.content) out.push(section);
    }
  }
  return out;
}

/** A section title as a person would write one: short, and none of the note's words or quotes. */
function titleProblem(title: string, kase: RefineCase): string | null {
  if (title.length > 60 || title.trim().split(/\s+/).length > 8) return 'too long';
  if (/["“”]/.test(title)) return 'quotes';
  if (firstMatch(title, [...NOTE_WORDS, ...(kase.leaks ?? [])])) return "the note's words";
  return null;
}

/** Runs one note through Refine with AI and scores it (see the file's head). */
export async function runRefineCase(call: Call, kase: RefineCase): Promise<CaseResult> {
  const started = performance.now();
  const findings: Finding[] = [];
  const detail: Record<string, unknown> = { question: kase.question, note: kase.note };
  let warnings: string[] = [];
  let session: Session | null = null;
  let published = false;
  try {
    const { botId, articleIds } = await buildHelpCenter(call, kase.id);
    const keyOf = new Map([...articleIds].map(([k, v]) => [v, k]));
    const reply = await ask(call, botId, kase.question);
    detail.original = reply.message;
    detail.originalAlreadyRight = states(reply.message, kase);
    const current = await call<Prompts>('GET', `/v2/bots/${botId}/hc-prompt/public`);
    const { iterationId } = await call<{ iterationId: string }>(
      'POST',
      `/v2/fix-review/interactions/${reply.interactionId}/events/${reply.id}/sessions/iterations/public`,
      { feedbackNote: kase.note },
    );
    const waited = await waitForIteration(call, reply, iterationId);
    session = waited.session;
    const iteration = waited.iteration;
    warnings = readWarnings(iteration, ...(iteration?.changes ?? []), session);
    detail.status = iteration?.status ?? 'still running after 120 s';
    detail.summary = iteration?.summary;
    if (iteration?.status === 'no_change' && detail.originalAlreadyRight) {
      // The note's premise does not hold for this engine: its answer already stated the fact. Nothing
      // to fix, as long as the answer holds for the question in other words.
      const again = await ask(call, botId, kase.paraphrase);
      detail.paraphrased = again.message;
      findings.push(...facts(again.message, kase, 'paraphrase', `"${clip(kase.paraphrase, 40)}"`), ...leaks(again.message, kase, 'the paraphrase answer'));
    } else if (!iteration || iteration.status !== 'ready') {
      const why = iteration?.status === 'no_change' ? 'no-change' : 'iteration-not-ready';
      findings.push({ kind: why, detail: `${iteration?.status ?? 'still running'}${iteration?.error ? `: ${iteration.error}` : ''}${iteration?.summary ? ` (${clip(iteration.summary, 80)})` : ''}`, fragment: kase.note });
    } else {
      // The proposed drafts.
      const articles: (Article & { key: string | null })[] = [];
      const sections: Section[] = [];
      const described: string[] = [];
      for (const change of iteration.changes) {
        const t = change.rootCause.target;
        if (change.draftArticleId) {
          // (There is no GET of one article, whatever docs/refine.md says: the ids route reads drafts too.)
          const [a] = await call<Article[]>('POST', '/v2/hc-articles/ids/public', { articleIds: [change.draftArticleId] });
          if (!a) throw new Error(`the draft article ${change.draftArticleId} of a change does not exist`);
          const key = a.originalArticleId ? (keyOf.get(a.originalArticleId) ?? 'another article') : null;
          articles.push({ ...a, key });
          described.push(key ? `update ${key}` : 'new article');
        } else if (change.draftPromptVersionId) {
          const draft = await call<Prompts>('GET', `/v2/bots/${botId}/hc-prompt/drafts/${change.draftPromptVersionId}/public`);
          const changed = changedSections(current, draft);
          sections.push(...changed);
          described.push(`prompt (${changed.map((s) => s.title).join('; ') || 'nothing changed'})`);
        } else {
          described.push(`${t.kind}${t.operation ? ` ${t.operation}` : ''} without a draft`);
        }
      }
      detail.changes = described;
      detail.articles = articles.map((a) => ({ key: a.key, title: a.title, body: a.mainKnowledge }));
      detail.sections = sections;
      const expected = kase.expected;
      const created = articles.filter((a) => a.key === null);
      const updated = articles.filter((a) => a.key !== null);
      const summary = described.join(', ') || 'no change';
      if (expected.kind === 'article_update') {
        const target = updated.find((a) => a.key === expected.article);
        if (!target) findings.push({ kind: 'wrong-change', detail: `expected an update of ${expected.article}, got ${summary}`, fragment: kase.note });
        else findings.push(...facts(target.mainKnowledge, kase, 'article', `the ${expected.article} draft`));
      } else if (expected.kind === 'answer_or_prompt') {
        if (articles.length) findings.push({ kind: 'changed-knowledge', detail: `the article holds the fact; expected an answer change, got ${summary}`, fragment: kase.note });
        else if (sections.length === 0) findings.push({ kind: 'wrong-change', detail: `expected an answer or prompt change, got ${summary}`, fragment: kase.note });
      } else {
        if (created.length === 0) findings.push({ kind: 'wrong-change', detail: `expected a new article, got ${summary}`, fragment: kase.note });
        else findings.push(...facts(created[0]!.mainKnowledge, kase, 'article', 'the new article'));
      }
      for (const s of sections) {
        const problem = titleProblem(s.title, kase);
        if (problem) findings.push({ kind: 'section-title', detail: `prompt section titled "${clip(s.title, 60)}" (${problem})` });
      }
      for (const a of articles) findings.push(...leaks(`${a.title}\n${a.mainKnowledge}`, kase, a.key ? `the ${a.key} draft` : 'the new article'));

      const replayed = iteration.newAnswerSnapshot?.content ?? '';
      detail.replayed = replayed;
      findings.push(...facts(replayed, kase, 'replay', 'the replay'), ...leaks(replayed, kase, 'the replay'));

      // Publish, then: is a wrong article left live beside a new one; does the fix hold for other words?
      await call('POST', `/v2/fix-review/sessions/${session!.id}/iterations/${iteration.id}/publish/public`);
      published = true;
      const wrong = expected.kind === 'article_update' ? articleIds.get(expected.article) : undefined;
      if (created.length && wrong && kase.notStates) {
        const live = await call<Article[]>('POST', '/v2/hc-articles/ids/public', { articleIds: [wrong] });
        const stale = live.find((a) => firstMatch(a.mainKnowledge, kase.notStates ?? []));
        if (stale) findings.push({ kind: 'duplicate-beside-wrong', detail: `a new article went live while "${stale.title}" still says the old fact`, harm: 'active' });
      }
      const again = await ask(call, botId, kase.paraphrase);
      detail.paraphrased = again.message;
      findings.push(...facts(again.message, kase, 'paraphrase', `"${clip(kase.paraphrase, 40)}"`), ...leaks(again.message, kase, 'the paraphrase answer'));
    }
  } catch (error) {
    findings.push({ kind: 'api-error', detail: messageOf(error) });
  }
  if (session && !published) await call('POST', `/v2/fix-review/sessions/${session.id}/close/public`, { reason: 'first-day case done' }).catch(() => undefined);
  return { id: kase.id, heldOut: kase.heldOut, ...decide(findings, warnings), findings, warnings, ms: performance.now() - started, detail };
}
