// The plain BM25 reference of the shared bench data's READMEs (k1 1.2, b 0.75, over lower-cased \w+
// tokens of a document's title and answers), used by bench/retrieval and bench/answers.

export interface ReferenceDocument {
  id: string;
  title: string;
  answers: string[];
}

/** A scorer over `documents`: for a query, every document with a positive score, in document order. */
export function plainBm25(documents: readonly ReferenceDocument[]): (query: string) => { id: string; score: number }[] {
  const tokens = (text: string) => text.toLowerCase().match(/\w+/g) ?? [];
  const docs = documents.map((d) => {
    const tf = new Map<string, number>();
    const words = tokens(`${d.title}\n${d.answers.join('\n\n')}`);
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    return { id: d.id, tf, length: words.length };
  });
  const avg = docs.reduce((s, d) => s + d.length, 0) / docs.length;
  const df = new Map<string, number>();
  for (const d of docs) for (const w of d.tf.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  const idf = (w: string) => Math.log(1 + (docs.length - (df.get(w) ?? 0) + 0.5) / ((df.get(w) ?? 0) + 0.5));
  return (query: string) => {
    const terms = tokens(query);
    return docs
      .map((d) => ({
        id: d.id,
        score: terms.reduce((sum, w) => {
          const f = d.tf.get(w) ?? 0;
          return sum + (f ? (idf(w) * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.length) / avg)) : 0);
        }, 0),
      }))
      .filter((d) => d.score > 0);
  };
}
