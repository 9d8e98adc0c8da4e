import { type LinkScan, scanPageLinks } from '../ingest/crawl/links.js';
import { type Extracted, type ExtractInput, extractContent } from '../ingest/extract/index.js';
import { encodeTexts } from '../ai/encoder.js';
import { runBuiltinTask } from './tasks.js';

export type { LinkScan } from '../ingest/crawl/links.js';

/** A call of a built-in task's method: its name (see tasks.ts) and a structured-cloneable input. */
export interface BuiltinCall {
  task: string;
  input: unknown;
}

/** The CPU-bound work the pool runs, by kind: its input and its output (both structured-cloneable). */
export interface CpuWork {
  extract: { input: ExtractInput; output: Extracted };
  links: { input: LinkScan; output: string[] };
  builtin: { input: BuiltinCall; output: unknown };
  /** The built-in sentence encoder's unit vectors of some texts (ai/encoder.ts). */
  encode: { input: { texts: string[] }; output: Float32Array[] };
}

export type CpuWorkKind = keyof CpuWork;

type Handlers = { readonly [K in CpuWorkKind]: (input: CpuWork[K]['input']) => CpuWork[K]['output'] | Promise<CpuWork[K]['output']> };

/** What each kind does; the same functions run in a worker thread or inline (PARLEY_CPU_THREADS=0). */
export const CPU_WORK: Handlers = {
  extract: (input) => extractContent(input),
  links: (input) => scanPageLinks(input),
  builtin: (call) => runBuiltinTask(call.task, call.input),
  encode: (input) => encodeTexts(input.texts),
};

/** Runs one piece of work of any kind (the worker's dispatch, typed once here). */
export function runCpuWork<K extends CpuWorkKind>(kind: K, input: CpuWork[K]['input']): CpuWork[K]['output'] | Promise<CpuWork[K]['output']> {
  const handler = CPU_WORK[kind] as (input: CpuWork[K]['input']) => CpuWork[K]['output'] | Promise<CpuWork[K]['output']>;
  return handler(input);
}
