import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { createBuiltinProvider, LlmError } from '../../src/ai/index.js';
import { loadConfig } from '../../src/config/config.js';
import { UnsupportedContentError } from '../../src/ingest/extract/index.js';
import type { GenerationInput } from '../../src/ai/contracts/generate-knowledge.js';
import { generateKnowledgeTask, initializeTreeTask } from '../../src/modules/generation/generation.tasks.js';
import { fromWireError, toWireError } from '../../src/workers/errors.js';
import { type CpuPool, cpuWorkerFile, createCpuPool, inlineCpuPool, threadExecArgv } from '../../src/workers/pool.js';
import { builtinTasks } from '../../src/workers/tasks.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

const PAGE = utf8(`<!doctype html><html><head><title>Returns | Acme Help</title></head><body>
<nav><a href="/">Home</a> <a href="/returns">Returns</a></nav>
<main><h1>Returns</h1><p>You can return any item within 30 days of delivery for a full refund.</p>
<p>Start a return from your order page and print the label.</p></main></body></html>`);

const GENERATION: GenerationInput = {
  text: 'Returns\n\nYou can return any item within 30 days of delivery for a full refund. Start a return from your order page.',
  titleHint: 'Returns | Acme Help',
  instructions: '',
  allowed: ['ADD_ARTICLE_TO_FOLDER', 'UPDATE_ARTICLE', 'DO_NOTHING'],
  candidates: [{ id: 'a1', title: 'Shipping', mainKnowledge: 'Orders ship within 2 days.', questions: ['When does my order ship?'], keywords: ['shipping'], parentFolderId: 'f1' }],
  folders: [{ id: 'f1', path: ['Orders'], description: 'Orders, shipping and returns', articleTitles: ['Shipping'] }],
  linkedArticleId: null,
};

/** A page of `depth` nested elements: about a second of parsing, long enough to abort midway. */
function nestedPage(depth: number): Uint8Array {
  return utf8(`<!doctype html><html><body>${'<div><span>text'.repeat(depth)}${'</span></div>'.repeat(depth)}</body></html>`);
}

describe('CPU pool (one real worker thread)', () => {
  let pool: CpuPool;
  before(() => {
    pool = createCpuPool({ cpuThreads: 1 });
  });
  after(() => pool.close());

  it('gives its threads the loader flags but not preloaded .ts files (which a thread cannot load)', () => {
    const guard = 'file:///repo/test/support/network-guard.ts';
    assert.deepEqual(threadExecArgv(['--import', 'tsx', '--import', guard, '--enable-source-maps']), ['--import', 'tsx', '--enable-source-maps']);
    assert.deepEqual(threadExecArgv(['--import=tsx', `--import=${guard}`, '--import', 'x.mts']), ['--import=tsx']);
    assert.deepEqual(threadExecArgv([]), []);
  });

  it('finds its worker entry next to itself (.ts under tsx)', () => {
    assert.ok(existsSync(cpuWorkerFile()), cpuWorkerFile());
    assert.equal(path.extname(cpuWorkerFile()), '.ts');
    assert.equal(pool.threads, 1);
  });

  it('runs built-in tasks in a thread with the same result as inline', async () => {
    const inThread = await pool.run('builtin', { task: generateKnowledgeTask.name, input: GENERATION });
    assert.deepEqual(inThread, generateKnowledgeTask.builtin(GENERATION));
    assert.deepEqual(await pool.run('builtin', { task: generateKnowledgeTask.name, input: GENERATION }), await inlineCpuPool.run('builtin', { task: generateKnowledgeTask.name, input: GENERATION }));
    const tree = { initPrompt: '# Orders\n- Shipping: within 2 business days\n- Returns: 30 days, free\n# Account\n- Password reset' };
    const provider = createBuiltinProvider(pool);
    const { output, usage } = await provider.run(initializeTreeTask, tree);
    assert.deepEqual(output, initializeTreeTask.builtin(tree));
    assert.equal(usage.totalTokens, 0);
  });

  it('extracts and scans links in a thread with the same result as inline', async () => {
    const input = { body: PAGE, contentType: 'text/html', url: 'https://help.example.com/returns' };
    const extracted = await pool.run('extract', input);
    assert.deepEqual(extracted, await inlineCpuPool.run('extract', input));
    assert.equal(extracted.title, 'Returns');
    const page = { body: PAGE, charset: null, url: 'https://help.example.com/returns' };
    assert.deepEqual(await pool.run('links', page), ['https://help.example.com/', 'https://help.example.com/returns']);
  });

  it('rethrows errors of the worker with their class and message', async () => {
    for (const [input, message] of [
      [{ body: utf8('\u0089PNG'), contentType: 'image/png' }, 'unsupported content type: image/png'],
      [{ body: utf8('<html><body><nav><a href="/">Home</a></nav></body></html>'), contentType: 'text/html' }, 'no extractable text'],
      [{ body: utf8('%PDF-1.7 this is no PDF'), contentType: 'application/pdf' }, /^could not read pdf document: /],
    ] as const) {
      const inline = await inlineCpuPool.run('extract', input).then(() => null, (error: unknown) => error);
      await assert.rejects(pool.run('extract', input), (error: unknown) => {
        assert.ok(error instanceof UnsupportedContentError, String(error));
        assert.equal(error.name, 'UnsupportedContentError');
        if (typeof message === 'string') assert.equal(error.message, message);
        else assert.match(error.message, message);
        assert.equal(error.message, (inline as Error).message);
        return true;
      });
    }
    await assert.rejects(pool.run('builtin', { task: 'no_such_task', input: {} }), {
      name: 'Error',
      message: 'the built-in task no_such_task is not registered in src/workers/tasks.ts',
    });
  });

  it('keeps LlmError fields across the thread boundary', () => {
    const usage = { inputTokens: 3, outputTokens: 4, totalTokens: 7 };
    const rebuilt = fromWireError(structuredClone(toWireError(new LlmError('the model answered HTTP 429', true, usage, true))));
    assert.ok(rebuilt instanceof LlmError);
    assert.deepEqual([rebuilt.message, rebuilt.retryable, rebuilt.usage, rebuilt.transient], ['the model answered HTTP 429', true, usage, true]);
    const plain = fromWireError(structuredClone(toWireError(new TypeError('x is not a function'))));
    assert.deepEqual([plain.name, plain.message], ['TypeError', 'x is not a function']);
  });

  it('stops work when its signal aborts, and keeps working afterwards', async () => {
    const aborted = AbortSignal.abort(new Error('lease expired'));
    await assert.rejects(pool.run('extract', { body: PAGE, contentType: 'text/html' }, { signal: aborted }), { message: 'lease expired' });

    const controller = new AbortController();
    const running = pool.run('extract', { body: nestedPage(50_000), contentType: 'text/html' }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('worker stopping')), 100);
    await assert.rejects(running, { message: 'worker stopping' });

    assert.equal((await pool.run('extract', { body: PAGE, contentType: 'text/html' })).title, 'Returns');
  });

  it('fails the tasks of a thread that cannot start, instead of leaving them waiting, and tries afresh for the next', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-pool-'));
    const entry = path.join(dir, 'broken-entry.mjs');
    writeFileSync(entry, 'throw new Error("this entry cannot load");\n');
    const broken = createCpuPool({ cpuThreads: 1 }, undefined, entry);
    try {
      const both = await Promise.allSettled([broken.run('extract', { body: PAGE, contentType: 'text/html' }), broken.run('extract', { body: PAGE, contentType: 'text/html' })]);
      assert.deepEqual(
        both.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : 'resolved')),
        ['a CPU pool thread failed: this entry cannot load', 'a CPU pool thread failed: this entry cannot load'],
      );
      await assert.rejects(broken.run('extract', { body: PAGE, contentType: 'text/html' }), { message: 'a CPU pool thread failed: this entry cannot load' }, 'the next task gets a new thread, which fails the same way');
    } finally {
      await broken.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves the event loop free while a thread works', async () => {
    const ticks: number[] = [];
    const timer = setInterval(() => ticks.push(performance.now()), 10);
    const started = performance.now();
    await pool.run('extract', { body: nestedPage(20_000), contentType: 'text/html' });
    clearInterval(timer);
    // The event loop kept running timers while the thread parsed (inline, none would run until the
    // parse ended). How long each gap was depends on the machine's load, so it is not asserted.
    assert.ok(ticks.length > 5, `${ticks.length} ticks in ${performance.now() - started} ms`);
  });
});

describe('PARLEY_CPU_THREADS', () => {
  it('defaults to the cores but one, and 0 runs the work inline', async () => {
    assert.equal(loadConfig({}).cpuThreads, Math.max(1, (await import('node:os')).availableParallelism() - 1));
    const config = loadConfig({ PARLEY_CPU_THREADS: '0' });
    assert.equal(config.cpuThreads, 0);
    const pool = createCpuPool(config);
    assert.equal(pool, inlineCpuPool);
    assert.deepEqual(await pool.run('builtin', { task: generateKnowledgeTask.name, input: GENERATION }), generateKnowledgeTask.builtin(GENERATION));
    await assert.rejects(pool.run('extract', { body: utf8('x'), contentType: 'image/png' }), UnsupportedContentError);
    await assert.rejects(pool.run('extract', { body: PAGE, contentType: 'text/html' }, { signal: AbortSignal.abort(new Error('stop')) }), { message: 'stop' });
    assert.throws(() => loadConfig({ PARLEY_CPU_THREADS: '-1' }), /PARLEY_CPU_THREADS/);
  });
});

describe('task registry', () => {
  it('lists every task of src/modules/*/*.tasks.ts under its own name', async () => {
    const modules = path.resolve(import.meta.dirname, '../../src/modules');
    const files = readdirSync(modules).flatMap((dir) =>
      existsSync(path.join(modules, dir)) ? readdirSync(path.join(modules, dir)).filter((f) => f.endsWith('.tasks.ts')).map((f) => path.join(modules, dir, f)) : [],
    );
    assert.ok(files.length > 0);
    const registered = builtinTasks();
    let found = 0;
    for (const file of files) {
      const exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      for (const [exported, value] of Object.entries(exports)) {
        if (typeof value !== 'object' || value === null || !('builtin' in value) || !('name' in value) || !('schema' in value)) continue;
        found++;
        assert.equal(registered.get(String(value.name)), value, `${exported} of ${path.basename(file)} is in src/workers/tasks.ts`);
      }
    }
    assert.equal(found, registered.size);
  });
});
