import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { queryRows } from '../../db/sql.js';
import { vectorLiteral } from '../../db/vector.js';
import { type FolderScope, scopeFoldersCte } from './folders.repository.js';

/**
 * Ranked full-text search over articles, in the database (PGlite and PostgreSQL alike).
 *
 * `article_search` holds each article's `english` tsvector with the title as weight A, questions B,
 * keywords C and body D, and the token count of each field (migration 0003); `article_terms` is its
 * inverted index, one row per article and lexeme with the lexeme's count in each field (migration
 * 0009, kept by a trigger). A query is reduced to its lexemes (stemmed, stopwords dropped); the rows
 * of those lexemes for the articles in scope are read from the inverted index (so the cost grows
 * with how many articles hold them, not with how long those articles are), and each article is
 * scored by BM25 computed per field and summed with field weights:
 *
 *   score = Σ_term idf(term) · Σ_field weight_f · tf_f·(k1+1) / (tf_f + k1·(1 − b + b·len_f/avglen_f))
 *
 * with idf = ln(1 + (N − df + 0.5)/(df + 0.5)) over the articles in scope. Saturating each field on
 * its own, rather than pooling the fields first (BM25F), lets a short title that matches the
 * question count fully next to a long body (docs/ai.md has the measurements).
 */
export const BM25 = { k1: 1.2, b: 0.75 } as const;
/** Weights of title, questions, keywords and body. */
export const FIELD_WEIGHTS = [3, 3, 2, 1] as const;
/** A word the search adds to a question (a synonym, text/thesaurus.ts) counts this much of a word it says. */
export const EXPANSION_WEIGHT = 0.5;


/**
 * Drafts searched as if live, in place of the live articles they replace (Refine with AI replays an
 * answer with its drafts): `include` is searched whatever its state, `exclude` is left out.
 */
export interface SearchOverlay {
  include: readonly string[];
  exclude: readonly string[];
}

export const NO_OVERLAY: SearchOverlay = { include: [], exclude: [] };

const uuidArray = (ids: readonly string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;

/** `live`: an in-scope live article is not replaced; `byId`: the article is one of the overlay's drafts. */
function overlayConditions(overlay: SearchOverlay): { live: SQL; byId: SQL } {
  return {
    live: overlay.exclude.length ? sql`NOT (a.id = ANY (${uuidArray(overlay.exclude)}))` : sql`true`,
    byId: overlay.include.length ? sql`a.id = ANY (${uuidArray(overlay.include)})` : sql`false`,
  };
}

export interface LexicalHit {
  articleId: string;
  score: number;
}

/**
 * A query's lexemes: at most MAX_QUERY_TERMS distinct ones, in the order the query says them (a
 * long pasted text searches by its beginning; every term costs a pass over its articles).
 */
export const MAX_QUERY_TERMS = 32;

/**
 * Lexical ranking of the articles in scope for `query`; the best `limit`, best first. The scope is
 * the workspace's active folders, or the agent's, or a folder's subtree (see scopeFoldersCte).
 */
export async function searchLexical(
  db: Db,
  workspaceId: string,
  scope: FolderScope,
  query: string,
  limit: number,
  overlay: SearchOverlay = NO_OVERLAY,
  expansion = '',
): Promise<LexicalHit[]> {
  const { k1, b } = BM25;
  const { live, byId } = overlayConditions(overlay);
  const field = (i: number) =>
    sql.raw(
      `CASE WHEN f${i} = 0 THEN 0 ELSE ${FIELD_WEIGHTS[i - 1]} * f${i} * ${k1 + 1} / ` +
        `(f${i} + ${k1} * (1 - ${b} + ${b} * lengths[${i}] / s.l${i})) END`,
    );
  const rows = await queryRows<{ articleId: string; score: number | string }>(
    db,
    sql`WITH RECURSIVE ${scopeFoldersCte(workspaceId, scope)},
      said AS (
        SELECT lexeme FROM unnest(to_tsvector('english', ${query}))
        ORDER BY positions[1], lexeme LIMIT ${MAX_QUERY_TERMS}
      ),
      ql AS (
        SELECT lexeme, 1::float8 AS weight FROM said
        UNION ALL
        SELECT lexeme, ${EXPANSION_WEIGHT}::float8 FROM unnest(to_tsvector('english', ${expansion}))
        WHERE lexeme NOT IN (SELECT lexeme FROM said)
      ),
      scope AS MATERIALIZED (
        SELECT s.article_id, s.lengths
        FROM article_search s
        JOIN articles a ON a.workspace_id = s.workspace_id AND a.id = s.article_id
        WHERE s.workspace_id = ${workspaceId}
          AND ((a.is_draft = false AND a.active AND a.parent_folder_id IN (SELECT id FROM scope_folders) AND ${live}) OR ${byId})
      ),
      stats AS MATERIALIZED (
        SELECT count(*)::float8 AS n, avg(lengths[1])::float8 AS l1, avg(lengths[2])::float8 AS l2,
               avg(lengths[3])::float8 AS l3, avg(lengths[4])::float8 AS l4
        FROM scope
      ),
      -- A query's postings, read from article_terms' primary key alone (its leaves hold the counts,
      -- migration 0023), then joined to the scope read above: one pass over each, whatever the
      -- statistics say (PGlite never analyses, and a bulk load outruns PostgreSQL's autovacuum).
      hits AS MATERIALIZED (
        SELECT t.article_id, t.lexeme, t.counts
        FROM article_terms t
        WHERE t.workspace_id = ${workspaceId} AND t.lexeme = ANY (ARRAY(SELECT lexeme FROM ql))
      ),
      tf AS MATERIALIZED (
        SELECT h.article_id, h.lexeme, sc.lengths, h.counts[1]::float8 AS f1, h.counts[2]::float8 AS f2, h.counts[3]::float8 AS f3, h.counts[4]::float8 AS f4
        FROM hits h JOIN scope sc ON sc.article_id = h.article_id
      ),
      df AS MATERIALIZED (SELECT lexeme, count(*)::float8 AS df FROM tf GROUP BY lexeme)
    SELECT tf.article_id AS "articleId",
      sum(ql.weight * ln(1 + (s.n - df.df + 0.5) / (df.df + 0.5)) * (${field(1)} + ${field(2)} + ${field(3)} + ${field(4)})) AS score
    FROM tf JOIN df USING (lexeme) JOIN ql USING (lexeme) CROSS JOIN stats s
    GROUP BY tf.article_id
    ORDER BY score DESC, tf.article_id
    LIMIT ${limit}`,
  );
  return rows.map((r) => ({ articleId: r.articleId, score: Number(r.score) }));
}

export interface VectorHit {
  articleId: string;
  /** Cosine distance, 0 (same direction) to 2. */
  distance: number;
}

/**
 * The `limit` articles in scope nearest to `embedding` by cosine distance, among the embeddings of
 * `model` with as many dimensions (another size cannot be compared). Needs the `vector` extension.
 */
export async function searchVector(
  db: Db,
  workspaceId: string,
  scope: FolderScope,
  model: string,
  embedding: number[],
  limit: number,
  overlay: SearchOverlay = NO_OVERLAY,
): Promise<VectorHit[]> {
  const { live, byId } = overlayConditions(overlay);
  const rows = await queryRows<{ articleId: string; distance: number | string | null }>(
    db,
    sql`WITH RECURSIVE ${scopeFoldersCte(workspaceId, scope)},
      candidates AS MATERIALIZED (
        SELECT e.article_id, e.embedding
        FROM article_embeddings e
        JOIN articles a ON a.workspace_id = e.workspace_id AND a.id = e.article_id
        WHERE e.workspace_id = ${workspaceId} AND e.model = ${model} AND array_length(e.embedding, 1) = ${embedding.length}
          AND ((a.is_draft = false AND a.active AND a.parent_folder_id IN (SELECT id FROM scope_folders) AND ${live}) OR ${byId})
      ),
      ranked AS (
        SELECT article_id, embedding::vector <=> ${vectorLiteral(embedding)}::vector AS distance FROM candidates
      )
    SELECT article_id AS "articleId", distance FROM ranked
    WHERE distance < 'NaN'::float8
    ORDER BY distance, article_id
    LIMIT ${limit}`,
  );
  return rows.map((r) => ({ articleId: r.articleId, distance: Number(r.distance) }));
}

export interface Highlight {
  field: 'title' | 'questions' | 'keywords' | 'mainKnowledge';
  snippet: string;
}

const MARK = 'StartSel=<mark>, StopSel=</mark>';
/** Article text as HTML text: a snippet's only markup is Parley's own `<mark>`. */
const escaped = (column: SQL) => sql`replace(replace(replace(${column}, '&', '&amp;'), '<', '&lt;'), '>', '&gt;')`;

/** Where each article matches `query`: the matching title, questions, keywords and body passages. */
export async function highlights(db: Db, workspaceId: string, articleIds: string[], query: string): Promise<Map<string, Highlight[]>> {
  if (articleIds.length === 0) return new Map();
  const ids = sql.join(
    articleIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const rows = await queryRows<{ id: string; title: string | null; questions: string[]; keywords: string[]; body: string | null }>(
    db,
    sql`WITH ql AS (SELECT DISTINCT lexeme FROM unnest(to_tsvector('english', ${query}))),
      tq AS (SELECT string_agg(quote_literal(lexeme), ' | ')::tsquery AS q FROM ql)
    SELECT a.id,
      CASE WHEN to_tsvector('english', a.title) @@ tq.q
        THEN ts_headline('english', ${escaped(sql`a.title`)}, tq.q, ${`HighlightAll=true, ${MARK}`}) END AS title,
      ARRAY(SELECT ts_headline('english', ${escaped(sql`x`)}, tq.q, ${`HighlightAll=true, ${MARK}`})
            FROM unnest(a.questions) x WHERE to_tsvector('english', x) @@ tq.q LIMIT 3) AS questions,
      ARRAY(SELECT ts_headline('english', ${escaped(sql`x`)}, tq.q, ${`HighlightAll=true, ${MARK}`})
            FROM unnest(a.keywords) x WHERE to_tsvector('english', x) @@ tq.q LIMIT 5) AS keywords,
      CASE WHEN to_tsvector('english', a.main_knowledge) @@ tq.q
        THEN ts_headline('english', ${escaped(sql`a.main_knowledge`)}, tq.q,
          ${`MaxFragments=2, MaxWords=30, MinWords=12, FragmentDelimiter=" … ", ${MARK}`}) END AS body
    FROM articles a, tq
    WHERE a.workspace_id = ${workspaceId} AND a.id IN (${ids})`,
  );
  const out = new Map<string, Highlight[]>();
  for (const row of rows) {
    const list: Highlight[] = [];
    if (row.title) list.push({ field: 'title', snippet: row.title });
    for (const snippet of row.questions) list.push({ field: 'questions', snippet });
    for (const snippet of row.keywords) list.push({ field: 'keywords', snippet });
    if (row.body) list.push({ field: 'mainKnowledge', snippet: row.body });
    out.set(row.id, list);
  }
  return out;
}
