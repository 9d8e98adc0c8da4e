import { createHash } from 'node:crypto';
import { LlmError } from '../../ai/index.js';
import type { Config } from '../../config/config.js';
import { similarity } from '../../ai/encoder.js';
import type { ProcessContext, WorkspaceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import { hasVectorSupport, isStorableVector } from '../../db/vector.js';
import {
  type EmbeddingSource,
  findEmbeddings,
  findEmbeddingSources,
  unscopedPendingEmbeddings,
  markEmbeddingsCurrent,
  type NewEmbedding,
  upsertEmbeddings,
} from './embeddings.repository.js';

/**
 * Article embeddings, of two kinds, in one table (`article_embeddings`, one vector per article):
 *
 * - A configured embedding model's, for vector similarity in knowledge search (search.service.ts).
 *   They exist only when an embedding model is configured and the database has the `vector`
 *   extension (db/vector.ts).
 * - The built-in engine's sentence encoder's (ai/encoder.ts, model
 *   BUILTIN_ENCODER_MODEL), the semantic signal of its answers (`articleSimilarities`). They need
 *   no extension: the answer compares the few articles its search found, in JavaScript.
 *
 * `knowledge.embed` keeps the one in use current every minute; the answer encodes an article it
 * finds without a current vector on the spot, and stores it.
 */

/** Characters of an article (or a query) sent to the embedding model. */
export const EMBEDDING_TEXT_MAX = 8_000;
/** Articles checked per run of `knowledge.embed`. */
export const EMBED_RUN_LIMIT = 256;
/** Articles per embedding request (and per write). */
const EMBED_BATCH = 64;

/** The first `max` characters of a text, never ending inside a surrogate pair. */
export function capText(text: string, max = EMBEDDING_TEXT_MAX): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** What an article's embedding is made of: title, questions, keywords and body, capped. */
export function embeddingText(article: Pick<EmbeddingSource, 'title' | 'questions' | 'keywords' | 'mainKnowledge'>): string {
  const parts = [article.title, article.questions.join('\n'), article.keywords.join(', '), article.mainKnowledge];
  return capText(parts.map((p) => p.trim()).filter((p) => p !== '').join('\n\n'));
}

/** SHA-256 of the embedded text: an unchanged article is not embedded again. */
export function contentHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Whether knowledge search and the embedding job may use embeddings with this configuration and database. */
export function embeddingsEnabled(config: Config, db: Db): boolean {
  return Boolean(config.llm.embeddingModel) && hasVectorSupport(db);
}

/** What embedding needs: a process's (or a workspace's) database, model, clock, log and configuration. */
export type EmbeddingContext = Pick<ProcessContext, 'db' | 'llm' | 'config' | 'clock' | 'log' | 'signal'>;

export interface EmbedRunResult {
  /** Articles embedded (new, changed, or of another model). */
  embedded: number;
  /** Articles changed in other ways than their embedded text; their embedding stays. */
  unchanged: number;
  /** Articles left for the next run because the model or the database failed. */
  failed: number;
}

/**
 * Embeds up to `limit` live articles (of one workspace, or of all, one workspace at a time) whose
 * embedding is missing, of another model, or made from other text. Failures are logged and the
 * articles are left for the next run. Does nothing without an embedding model or `vector`.
 */
export async function embedPendingArticles(ctx: EmbeddingContext, workspaceId?: string, limit = EMBED_RUN_LIMIT): Promise<EmbedRunResult> {
  const result: EmbedRunResult = { embedded: 0, unchanged: 0, failed: 0 };
  const embedder = embedderOf(ctx);
  if (!embedder) return result;
  const { model, embed } = embedder;

  const pending = await unscopedPendingEmbeddings(ctx.db, model, limit, workspaceId);
  const byWorkspace = new Map<string, string[]>();
  for (const p of pending) byWorkspace.set(p.workspaceId, [...(byWorkspace.get(p.workspaceId) ?? []), p.articleId]);

  type Pending = { workspaceId: string; source: EmbeddingSource; text: string; hash: string };
  /** Embeds and stores; returns how many were stored (unusable vectors are counted failed). */
  const embedAndStore = async (items: Pending[]): Promise<number> => {
    const { embeddings } = await embed(
      items.map((c) => c.text),
      { signal: ctx.signal },
    );
    const rows: NewEmbedding[] = [];
    items.forEach((c, i) => {
      const embedding = embeddings[i];
      if (embedding && isStorableVector(embedding)) {
        rows.push({ articleId: c.source.articleId, version: c.source.version, contentHash: c.hash, embedding });
      } else {
        result.failed += 1;
        ctx.log.warn({ workspaceId: c.workspaceId, articleId: c.source.articleId }, 'the embedding model returned an unusable vector; skipped');
      }
    });
    if (rows.length) await upsertEmbeddings(ctx.db, items[0]!.workspaceId, model, rows, ctx.clock.now());
    return rows.length;
  };

  for (const [workspace, ids] of byWorkspace) {
    for (let start = 0; start < ids.length; start += EMBED_BATCH) {
      if (ctx.signal?.aborted) return result;
      const batch = ids.slice(start, start + EMBED_BATCH);
      try {
        const sources = await findEmbeddingSources(ctx.db, workspace, batch);
        const current: { articleId: string; version: number }[] = [];
        const changed: Pending[] = [];
        for (const source of sources) {
          const text = embeddingText(source);
          const hash = contentHash(text);
          if (source.model === model && source.contentHash === hash) current.push({ articleId: source.articleId, version: source.version });
          else changed.push({ workspaceId: workspace, source, text, hash });
        }
        await markEmbeddingsCurrent(ctx.db, workspace, current, ctx.clock.now());
        result.unchanged += current.length;
        if (changed.length === 0) continue;

        // A batch the model refuses (one text over its context, say) is tried one article at a
        // time, so one bad article does not hold back the others; an outage waits for the next run.
        try {
          result.embedded += await embedAndStore(changed);
        } catch (error) {
          if (changed.length === 1 || !(error instanceof LlmError) || error.transient) throw error;
          for (const one of changed) {
            try {
              result.embedded += await embedAndStore([one]);
            } catch (single) {
              result.failed += 1;
              ctx.log.warn({ err: single, workspaceId: workspace, articleId: one.source.articleId }, 'embedding an article failed; tried again on the next run');
            }
          }
        }
      } catch (error) {
        result.failed += batch.length;
        ctx.log.error({ err: error, workspaceId: workspace, articles: batch.length }, 'embedding articles failed; they are tried again on the next run');
      }
    }
  }
  return result;
}

/**
 * What writes the vectors: the configured embedding model (with `vector`), else the built-in
 * engine's sentence encoder when it has one, else nothing.
 */
function embedderOf(ctx: EmbeddingContext): { model: string; embed: (texts: string[], options: { signal?: AbortSignal }) => Promise<{ embeddings: number[][] }> } | undefined {
  const provider = ctx.llm;
  const model = ctx.config.llm.embeddingModel;
  if (model && provider.embed && hasVectorSupport(ctx.db)) return { model, embed: provider.embed.bind(provider) };
  if (provider.encode && provider.encoderModel) {
    const encode = oneByOne(provider.encode.bind(provider));
    return { model: provider.encoderModel, embed: async (texts, options) => ({ embeddings: (await encode(texts, options)).map((v) => Array.from(v)) }) };
  }
  return undefined;
}

/** One run of the `knowledge.embed` job: embeds what is pending, logs what it did; failures wait for the next run. */
export async function runEmbedJob(ctx: EmbeddingContext): Promise<void> {
  if (!embedderOf(ctx)) return;
  try {
    const result = await embedPendingArticles(ctx);
    if (result.embedded || result.failed) ctx.log.info(result, 'embedded articles');
  } catch (error) {
    ctx.log.error({ err: error }, 'embedding articles failed; trying again on the next run');
  }
}

/** What the semantic signal reads of an article (a knowledge hit's article, or a draft standing in for one). */
export type SimilaritySource = Pick<EmbeddingSource, 'title' | 'questions' | 'keywords' | 'mainKnowledge' | 'version'> & { id: string };

export interface SemanticScorer {
  /**
   * The encoder's cosine similarity of the question to each article, by id, or undefined when the
   * encoder is off or failed (the answer then reads words alone). Vectors are read from
   * `article_embeddings` when one was made from the article's current text, else encoded now and,
   * with `store`, stored (live articles; not Refine's drafts).
   */
  similarities(articles: readonly SimilaritySource[], options: { store: boolean }): Promise<Map<string, number> | undefined>;
}

let warnedEncoder = false;

/** Built-in vectors recently read or made, by workspace, article and text hash: a steady answer reads no vector from the database. */
const RECENT_VECTORS_MAX = 10_000;
const recentVectors = new Map<string, ArrayLike<number>>();

function rememberVector(key: string, vector: ArrayLike<number>): void {
  recentVectors.delete(key);
  recentVectors.set(key, vector);
  if (recentVectors.size > RECENT_VECTORS_MAX) recentVectors.delete(recentVectors.keys().next().value!);
}

type Encode = NonNullable<WorkspaceContext['llm']['encode']>;

/**
 * The encoder's texts sent to the CPU pool one at a time: the pool's threads are shared with every
 * built-in task (planning, answers) in the order they come, so a batch of 64 articles in one piece
 * of work would hold an answer back for seconds; one text holds it back for one encoding.
 */
function oneByOne(encode: Encode): Encode {
  return async (texts, options) => {
    const out: Float32Array[] = [];
    for (const text of texts) out.push(...(await encode([text], options)));
    return out;
  };
}

/**
 * Starts encoding a question with the built-in sentence encoder (while the caller searches), and
 * compares it with articles afterwards. Without the encoder (a configured model, or
 * PARLEY_BUILTIN_ENCODER=off) every answer is undefined.
 */
export function semanticScorer(ctx: Pick<WorkspaceContext, 'db' | 'workspaceId' | 'llm' | 'clock' | 'log' | 'signal'>, question: string): SemanticScorer {
  const provider = ctx.llm;
  const model = provider.encoderModel;
  if (!provider.encode || !model) return { similarities: async () => undefined };
  const encode = oneByOne(provider.encode.bind(provider));
  const signal = ctx.signal;
  const failed = (error: unknown) => {
    if (signal?.aborted) return undefined;
    if (!warnedEncoder) ctx.log.warn({ err: error }, 'the built-in sentence encoder failed; answers read words alone');
    warnedEncoder = true;
    return undefined;
  };
  const asked = encode([question], signal ? { signal } : {}).then((v) => v[0], failed);
  return {
    async similarities(articles, { store }) {
      const query = await asked;
      if (!query || articles.length === 0) return query ? new Map() : undefined;
      try {
        const texts = articles.map((a) => embeddingText(a));
        const hashes = texts.map(contentHash);
        const keys = articles.map((a, i) => `${ctx.workspaceId}/${a.id}/${hashes[i]}`);
        const vectors: (ArrayLike<number> | undefined)[] = keys.map((k) => recentVectors.get(k));
        const unread = articles.filter((_, i) => !vectors[i]);
        if (unread.length) {
          const stored = await findEmbeddings(ctx.db, ctx.workspaceId, model, unread.map((a) => a.id));
          articles.forEach((a, i) => {
            const row = stored.get(a.id);
            if (!vectors[i] && row && row.contentHash === hashes[i]) vectors[i] = row.embedding;
          });
        }
        const missing = vectors.flatMap((v, i) => (v ? [] : [i]));
        if (missing.length) {
          const made = await encode(missing.map((i) => texts[i]!), signal ? { signal } : {});
          missing.forEach((i, k) => (vectors[i] = made[k]));
          if (store) {
            const rows = missing.flatMap((i, k) => (made[k] ? [{ articleId: articles[i]!.id, version: articles[i]!.version, contentHash: hashes[i]!, embedding: Array.from(made[k]!) }] : []));
            await upsertEmbeddings(ctx.db, ctx.workspaceId, model, rows, ctx.clock.now());
          }
        }
        vectors.forEach((v, i) => v && rememberVector(keys[i]!, v));
        return new Map(articles.flatMap((a, i) => (vectors[i] ? [[a.id, similarity(query, vectors[i]!)] as const] : [])));
      } catch (error) {
        return failed(error);
      }
    },
  };
}
