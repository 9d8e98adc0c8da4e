// The layering rules of docs/architecture.md, checked on the source: module doors, tenant scoping
// of repository functions, and the ports (no module looks a port up by itself).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = path.join(ROOT, 'src');
const MODULES = path.join(SRC, 'modules');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return filesUnder(file);
    return name.endsWith('.ts') ? [file] : [];
  });
}

const rel = (file: string) => path.relative(ROOT, file);
const parse = (file: string) => ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);

interface Import {
  file: string;
  specifier: string;
  typeOnly: boolean;
}

function importsOf(file: string): Import[] {
  const source = parse(file);
  const found: Import[] = [];
  for (const statement of source.statements) {
    if ((ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
      const typeOnly = ts.isImportDeclaration(statement) ? Boolean(statement.importClause?.isTypeOnly) : statement.isTypeOnly;
      found.push({ file, specifier: statement.moduleSpecifier.text, typeOnly });
    }
  }
  return found;
}

/** `<file> imports <specifier>` for each import of these files that `bad` flags (given its resolved target). */
function offendingImports(files: string[], bad: (i: Import, target: string, file: string) => boolean): string[] {
  return files.flatMap((file) =>
    importsOf(file)
      .filter((i) => bad(i, path.resolve(path.dirname(file), i.specifier), file))
      .map((i) => `${rel(file)} imports ${i.specifier}`),
  );
}

/**
 * The runtime import cycles among these files: each strongly connected component of the graph of
 * relative imports that survive compilation (`import type` and `export type` do not; under
 * verbatimModuleSyntax `import { type X }` does), shown as one cycle through it.
 */
function importCycles(files: string[]): string[][] {
  const known = new Set(files);
  const edges = new Map(
    files.map((file) => [
      file,
      importsOf(file)
        .filter((i) => !i.typeOnly && i.specifier.startsWith('.'))
        .map((i) => path.resolve(path.dirname(file), i.specifier).replace(/\.js$/, '.ts'))
        .filter((target) => known.has(target)),
    ]),
  );
  // Tarjan's algorithm, iterative so a deep import chain cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  for (const root of files) {
    if (index.has(root)) continue;
    const work: { file: string; next: number }[] = [{ file: root, next: 0 }];
    index.set(root, index.size);
    low.set(root, index.get(root)!);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = edges.get(frame.file)!;
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!index.has(target)) {
          index.set(target, index.size);
          low.set(target, index.get(target)!);
          stack.push(target);
          onStack.add(target);
          work.push({ file: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.file, Math.min(low.get(frame.file)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(frame.file)!));
      if (low.get(frame.file) !== index.get(frame.file)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.file);
      if (component.length > 1 || targets.includes(frame.file)) components.push(cycleThrough(component, edges));
    }
  }
  return components;
}

/** A closed path through a strongly connected component, from its first file back to it. */
function cycleThrough(component: string[], edges: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0]!;
  // Breadth-first from start's successors back to start, inside the component.
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const target of edges.get(file)!) {
      if (!members.has(target) || previous.has(target)) continue;
      previous.set(target, file);
      if (target === start) {
        const cycle = [start];
        for (let at = file; at !== start; at = previous.get(at)!) cycle.unshift(at);
        return [start, ...cycle];
      }
      queue.push(target);
    }
  }
  return component;
}

/** The module folder a source file lies in (`knowledge` for src/modules/knowledge/x.ts). */
const moduleOf = (file: string) => (file.startsWith(MODULES + path.sep) ? path.relative(MODULES, file).split(path.sep)[0] : undefined);

const moduleFiles = filesUnder(MODULES);
const srcFiles = filesUnder(SRC);

/**
 * Repository functions that are not scoped by a workspace on purpose. Each is named `unscoped...`
 * and listed here, so a new one is a deliberate, reviewed change.
 */
const UNSCOPED = [
  'api-keys.repository.ts unscopedDeleteDeadApiKeys (hourly purge of every workspace)',
  'conversations.repository.ts unscopedPurgeDeletedConversations (hourly purge of deleted conversations of every workspace)',
  'conversations.repository.ts unscopedChangedConversations (the widget streams\' poller: which of a process\'s open conversations changed, ids and versions only)',
  'audit.repository.ts unscopedListAuditEntries (the operator\'s audit log of every workspace: GET /v2/admin/audit-log, parley audit export)',
  'audit.repository.ts unscopedPurgeAuditEntries (hourly purge of old audit log entries of every workspace)',
  'webhooks.repository.ts unscopedPurgeFinishedDeliveries (hourly purge of old webhook deliveries of every workspace)',
  'api-keys.repository.ts unscopedFindApiKeyByHash (authentication: the workspace is not known yet)',
  'api-keys.repository.ts unscopedRevokeApiKey (operator revocation by key id)',
  'agents.repository.ts unscopedAgentExists (the 406 answer: an agent of another workspace)',
  'embeddings.repository.ts unscopedPendingEmbeddings (the embedding job of every workspace)',
  'generation.repository.ts unscopedStaleJobs (orphan sweep of every workspace)',
  'sources.repository.ts unscopedStaleJobs (orphan sweep of every workspace)',
  'refine.repository.ts unscopedStaleIterations (orphan sweep of Refine with AI iterations of every workspace)',
  'testing.repository.ts unscopedStaleRuns (orphan sweep of test runs of every workspace)',
  'providers.repository.ts unscopedConnections (secret key rotation re-seals every workspace)',
  'steps.repository.ts unscopedStepsWithSecrets (secret key rotation re-seals every workspace)',
  'visitors.repository.ts unscopedPurgeUnstartedWidgetConversations (hourly purge of widget conversations never written in, of every workspace)',
  'widget-keys.repository.ts unscopedFindWidgetKey (authentication of a widget key: the workspace is not known yet)',
  'widget-keys.repository.ts unscopedOriginAllowed (a CORS preflight carries no key: is the origin allowed by any widget key)',
  'workspaces.repository.ts unscopedCountWorkspaces (first start)',
  'workspaces.repository.ts unscopedInsertWorkspace (a new tenant)',
  'workspaces.repository.ts unscopedListWorkspaces (operator listing)',
];

describe('layering', () => {
  it('modules use each other only through index.ts', () => {
    const offending = offendingImports(moduleFiles, (i, target, file) => {
      const targetModule = moduleOf(target);
      return i.specifier.startsWith('.') && targetModule !== undefined && targetModule !== moduleOf(file) && path.basename(target) !== 'index.js';
    });
    assert.deepEqual(offending, []);
  });

  it('code outside the modules uses a module only through its index.ts', () => {
    // The CPU pool's task registry imports the `*.tasks.ts` files themselves: a thread must not load
    // the whole app through index.ts (seconds and ~190 MB per thread); tasks files import no module.
    const taskRegistry = (file: string, target: string) => rel(file) === 'src/workers/tasks.ts' && target.endsWith('.tasks.js');
    const outside = srcFiles.filter((file) => moduleOf(file) === undefined);
    const offending = offendingImports(
      outside,
      (i, target, file) =>
        i.specifier.startsWith('.') && moduleOf(target) !== undefined && path.basename(target) !== 'index.js' && !taskRegistry(file, target),
    );
    assert.deepEqual(offending, []);
  });

  it('AI task files load no module (a CPU pool thread imports them alone)', () => {
    const tasks = moduleFiles.filter((f) => f.endsWith('.tasks.ts'));
    const offending = offendingImports(tasks, (i, target) => !i.typeOnly && i.specifier.startsWith('../') && moduleOf(target) !== undefined);
    assert.deepEqual(offending, []);
  });

  it("a module's index.ts exports services and types, never repository functions", () => {
    const indexes = moduleFiles.filter((file) => path.basename(file) === 'index.ts');
    assert.deepEqual(offendingImports(indexes, (i) => i.specifier.endsWith('.repository.js') && !i.typeOnly), []);
  });

  it('every repository function takes the workspace id, unless it is a named unscoped one', () => {
    const unscoped: string[] = [];
    const unnamed: string[] = [];
    for (const file of moduleFiles.filter((f) => f.endsWith('.repository.ts'))) {
      const source = parse(file);
      for (const statement of source.statements) {
        if (!ts.isFunctionDeclaration(statement) || !statement.name) continue;
        if (!statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
        const params = statement.parameters.map((p) => p.name.getText(source));
        if (params[0] !== 'db') continue;
        const name = statement.name.text;
        if (name.startsWith('unscoped')) unscoped.push(`${path.basename(file)} ${name}`);
        else if (!params.includes('workspaceId')) unnamed.push(`${rel(file)} ${name}(${params.join(', ')})`);
      }
    }
    assert.deepEqual(unnamed, [], 'a query of every workspace must be named unscoped... and listed in this test');
    assert.deepEqual(unscoped.sort(), UNSCOPED.map((u) => u.split(' (')[0]).sort());
  });

  it('repositories hold SQL only: no HTTP, no outbound side, no language model', () => {
    const repositories = moduleFiles.filter((f) => f.endsWith('.repository.ts'));
    const offending = offendingImports(
      repositories,
      (i) => /\/(ai|ingest)\//.test(i.specifier) || /\/http\/(?!text-guard)/.test(i.specifier) || i.specifier === 'undici',
    );
    assert.deepEqual(offending, []);
  });

  it('routes write no SQL', () => {
    const routes = moduleFiles.filter((f) => f.endsWith('.routes.ts'));
    const offending = offendingImports(
      routes,
      (i) => !i.typeOnly && (i.specifier.endsWith('.repository.js') || i.specifier.includes('/db/') || i.specifier === 'drizzle-orm'),
    );
    assert.deepEqual(offending, []);
  });

  it('no code looks a port up by itself: the model and the outbound side come on the context', () => {
    const factories = ['createLlm', 'createOutbound', 'createSafeFetch', 'createAiSdkProvider'];
    const allowed = new Set(['src/runtime.ts', 'src/ai/index.ts', 'src/ingest/runtime.ts', 'src/ai/ai-sdk.ts', 'src/ingest/fetch/safe-fetch.ts']);
    const offending = srcFiles
      .filter((file) => !allowed.has(rel(file)))
      .flatMap((file) => {
        const text = readFileSync(file, 'utf8');
        return factories.filter((f) => new RegExp(`\\b${f}\\(`).test(text)).map((f) => `${rel(file)} calls ${f}`);
      });
    assert.deepEqual(offending, []);
  });

  it('no runtime import cycle among src/ files (type-only imports may go both ways)', () => {
    assert.deepEqual(importCycles(srcFiles).map((cycle) => cycle.map(rel).join(' -> ')), []);
  });

  it("only the queue reads pg-boss's tables", () => {
    const offending = srcFiles
      .filter((file) => rel(file) !== 'src/jobs/queue.ts')
      .filter((file) => /QUEUE_SCHEMA|pgboss\./.test(readFileSync(file, 'utf8')))
      .map(rel);
    assert.deepEqual(offending, []);
  });

  it('only *.tasks.ts import the built-in engine; src/evaluators and src/text import nothing from src/ai; contracts import zod and pure code', () => {
    const AI = path.join(SRC, 'ai');
    const under = (dir: string, target: string) => target.startsWith(dir + path.sep);
    const outsideAi = srcFiles.filter((file) => !under(AI, file));
    const builtin = offendingImports(outsideAi, (i, target, file) => i.specifier.startsWith('.') && under(path.join(AI, 'builtin'), target) && !file.endsWith('.tasks.ts'));
    assert.deepEqual(builtin, [], 'outside src/ai, only a module\'s *.tasks.ts wires in a built-in method');
    const pure = srcFiles.filter((file) => under(path.join(SRC, 'evaluators'), file) || under(path.join(SRC, 'text'), file));
    assert.deepEqual(offendingImports(pure, (i, target) => i.specifier.startsWith('.') && under(AI, target)), []);
    const contracts = srcFiles.filter((file) => under(path.join(AI, 'contracts'), file));
    const allowed = [path.join(AI, 'contracts'), path.join(SRC, 'evaluators'), path.join(SRC, 'text')];
    assert.deepEqual(offendingImports(contracts, (i, target) => (i.specifier.startsWith('.') ? !allowed.some((dir) => under(dir, target)) : i.specifier !== 'zod')), []);
  });
});
