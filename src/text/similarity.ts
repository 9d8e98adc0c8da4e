import { terms } from './terms.js';

/** Term vectors and cosine similarity of texts (stems of non-stopwords). Pure and deterministic. */

/** Term counts of a text (stems of non-stopwords). */
export function termVector(text: string): Map<string, number> {
  return countTerms(terms(text));
}

/** Counts of a list of terms. */
export function countTerms(list: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of list) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

/** Cosine of two term vectors, in [0, 1]; 0 when either is empty. */
export function cosineSimilarity(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [term, weight] of small) dot += weight * (large.get(term) ?? 0);
  if (dot === 0) return 0;
  return Math.min(1, Math.max(0, dot / Math.sqrt(squares(a) * squares(b))));
}

function squares(vector: ReadonlyMap<string, number>): number {
  let sum = 0;
  for (const weight of vector.values()) sum += weight * weight;
  return sum;
}

/** Cosine similarity of the term vectors of two texts. */
export function similarity(a: string, b: string): number {
  return cosineSimilarity(termVector(a), termVector(b));
}
