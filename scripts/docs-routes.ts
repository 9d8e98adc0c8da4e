// `npm run docs:routes`: writes docs/routes.md (every route: method, path as the docs write it and as
// the code declares it, scope, module, declaration file:line, doc page) and docs/glossary.md (each
// wire name: what the product and the code call it, module, tables, doc page), from the
// `defineRoute({ ... })` declarations under src/. `--check` writes nothing and exits 1 when either
// committed file differs. test/platform/route-map.test.ts fails when they are stale.
//
// Routes are found by parsing every .ts file under src/ with the TypeScript compiler (no file list):
// each `defineRoute({ method, url, auth, ... })` call is a row, its line the line of the call. A
// declaration whose method, url or auth is not a string literal stops the script naming it, so the
// map never guesses. The test compares the rows with the OpenAPI document of a running app, so a
// route served but not declared this way (or the reverse) fails there.
//
// The two reviewed tables below say what the parse cannot: which doc page describes a module, and
// what each wire name means. The script exits 1 naming what is missing: a module absent from
// DOC_PAGES, a doc page that does not exist, a route whose wire name has no GLOSSARY entry, an
// entry no route uses, or a table that src/db/schema does not define.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { getTableName, is, Table } from 'drizzle-orm';
import ts from 'typescript';
import * as schema from '../src/db/schema/index.js';
import { operationIdOf } from '../src/http/operation-ids.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');
const ROUTES_FILE = 'docs/routes.md';
const GLOSSARY_FILE = 'docs/glossary.md';

/**
 * The doc page (in docs/) of each module's routes; `null`: the module has no page. A key
 * `<module>/<file>` (the file's name before `.routes.ts`) overrides the module's page for the routes
 * of that file. Every module with routes must be listed, so a new module is a reviewed line here.
 */
const DOC_PAGES: Record<string, string | null> = {
  admin: null, // README.md "API conventions" lists the admin routes; /docs has their bodies
  agents: 'knowledge.md', // "Agents (`/v2/bots`) and prompts"
  conversations: 'conversations.md',
  'conversations/analytics': 'analytics.md',
  generation: 'ai.md', // "Knowledge generation"
  guardrails: 'guardrails.md',
  knowledge: 'knowledge.md',
  'knowledge/search': 'ai.md', // "Knowledge search"
  mcp: 'mcp.md',
  providers: 'providers.md',
  refine: 'refine.md',
  'reply-rules': 'reply-rules.md',
  rules: 'rules.md',
  sources: 'sources.md',
  system: null, // README.md "Operating"
  tags: 'tags.md',
  tools: 'actions.md',
  widget: 'widget.md',
  webhooks: 'webhooks.md',
  testing: 'testing.md',
  audit: 'audit.md',
  workspaces: null, // README.md "API conventions"
};

interface GlossaryEntry {
  /** The product's name for it (the docs' headings). */
  term: string;
  /** What it is, in a line. */
  meaning: string;
  /** The code's names for it (module, types, docs) where they differ from the wire name. */
  codeNames?: string[];
  /** The database tables behind it (checked against src/db/schema). */
  tables: string[];
}

/**
 * Each wire name: the first path segment after `/v2` (the whole first segment of an unversioned
 * operations path), or a later `hc-` segment naming a resource nested in another
 * (`/v2/bots/{id}/hc-prompt`). Modules, paths and doc pages of an entry come from its routes.
 */
const GLOSSARY: Record<string, GlossaryEntry> = {
  admin: { term: 'Admin API', meaning: "Operator routes: workspaces and their API keys, with the operator's admin token", tables: ['workspaces', 'api_keys'] },
  'api-function-configs': { term: 'External API call steps', meaning: 'The HTTP calls of an action or attribute, run as a chain', codeNames: ['steps', 'data steps'], tables: ['data_steps'] },
  bots: { term: 'Agents', meaning: 'What answers customers, from the folders and the prompt it is given', codeNames: ['agents'], tables: ['agents'] },
  documents: { term: 'Sources', meaning: 'Web pages, uploaded files and provider items, with their ingestion jobs', codeNames: ['sources'], tables: ['sources', 'source_files', 'source_jobs'] },
  'fix-review': { term: 'Refine with AI', meaning: 'Feedback on one reply: diagnosed, fixed with drafts, the message replayed', codeNames: ['refine'], tables: ['fix_review_sessions', 'fix_iterations', 'fix_changes', 'rule_drafts'] },
  guardrails: { term: 'Guardrails', meaning: "Checks on the customer's message or the agent's answer", tables: ['guardrails', 'guardrail_agents'] },
  'hc-analytics': { term: 'Agent analytics', meaning: "An agent's volumes, resolutions, hand-overs and ratings over a window", codeNames: ['analytics'], tables: ['conversations'] },
  'hc-articles': { term: 'Articles', meaning: 'The knowledge agents answer from: live and draft, with an append-only version history', codeNames: ['articles'], tables: ['articles', 'article_versions'] },
  'hc-bot-folder-junctions': { term: 'Folder assignment', meaning: 'Which folders an agent answers from', codeNames: ['agent folders'], tables: ['agent_folders'] },
  'hc-events': { term: 'Events', meaning: "A conversation's messages and replies: a reply's trace (metadata), feedback", codeNames: ['conversation events'], tables: ['conversation_events'] },
  'hc-folders': { term: 'Folders', meaning: 'The knowledge tree', codeNames: ['folders'], tables: ['folders'] },
  'hc-interactions': { term: 'Conversations, Generate Answer', meaning: "Conversations, and Generate Answer: a customer message in, the agent's reply out", codeNames: ['conversations'], tables: ['conversations', 'conversation_events'] },
  'hc-prompt': { term: 'Prompt', meaning: "An agent's prompt: its versions and drafts", codeNames: ['prompts'], tables: ['prompt_versions', 'prompt_drafts'] },
  'hc-rules': { term: 'Intent and business rules', meaning: 'Flows and policies of an agent, with versions, drafts from instructions and a dry run', codeNames: ['rules'], tables: ['rules', 'rule_versions', 'rule_agents'] },
  'hc-tools': { term: 'Actions and attributes', meaning: "Calls to a team's own systems: from a rule flow (actions) or for every conversation (attributes)", codeNames: ['tools'], tables: ['tools', 'tool_agents'] },
  healthz: { term: 'Liveness', meaning: 'The process is up', tables: [] },
  knowledge: { term: 'Knowledge generation, knowledge search, tree import', meaning: 'Generation jobs (drafts from text or sources), search as an agent sees it, CSV tree import and tree initialization', codeNames: ['generation', 'search', 'tree'], tables: ['knowledge_jobs', 'article_search', 'article_terms', 'article_embeddings'] },
  mcp: { term: 'MCP server', meaning: 'The Model Context Protocol server for AI assistants (Streamable HTTP; `parley mcp` on stdio)', tables: [] },
  metrics: { term: 'Metrics', meaning: 'Prometheus metrics', tables: [] },
  'openapi.json': { term: 'OpenAPI document', meaning: 'The OpenAPI 3 document of the API (browsable at /docs)', tables: [] },
  providers: { term: 'Provider connections', meaning: 'Credentials for Notion, Zendesk, Confluence and Google Drive, sealed at rest', codeNames: ['connections'], tables: ['provider_connections'] },
  readyz: { term: 'Readiness', meaning: 'Database reachable and every migration applied', tables: [] },
  'reply-behavior': { term: 'Reply rules', meaning: 'Whether the agent answers, leaves an internal note or stays silent', codeNames: ['reply rules'], tables: ['reply_rules'] },
  'tag-groups': { term: 'Tag groups', meaning: 'Groups of tags (a topic, a priority), with their tags', tables: ['tag_groups', 'tags'] },
  tags: { term: 'Tags', meaning: 'Labels the agent puts on conversations', tables: ['tags'] },
  widget: { term: 'Visitor routes', meaning: "What a chat widget's visitor does with a widget key: start a conversation, write, read and stream it, rate replies", codeNames: ['visitors', 'widget conversations'], tables: ['widget_conversations', 'conversations', 'conversation_events'] },
  'widget-keys': { term: 'Widget keys', meaning: 'Publishable keys (pk_...) of one agent, working only from their allowed origins', tables: ['widget_keys'] },
  webhooks: { term: 'Webhooks', meaning: 'Endpoints that receive signed events (conversations, articles, sources, Refine), with their deliveries', codeNames: ['webhook endpoints', 'deliveries'], tables: ['webhook_endpoints', 'webhook_deliveries'] },
  'test-cases': { term: 'Test cases', meaning: "Customer turns and what an agent's replies must meet, run to prove a change before customers see it", codeNames: ['test cases'], tables: ['test_cases'] },
  'test-runs': { term: 'Test runs', meaning: "Runs of an agent's test cases, k times each (pass@1, pass^k), from the API, a schedule or a publish's gate", codeNames: ['test runs', 'gate runs'], tables: ['test_runs', 'test_run_results', 'test_schedules'] },
  'audit-log': { term: 'Audit log', meaning: 'Who wrote what and when: every write through the API, a job, the MCP server or the CLI', codeNames: ['audit entries'], tables: ['audit_log'] },
  workspace: { term: 'Workspace', meaning: 'The workspace of the calling API key', codeNames: ['workspaces'], tables: ['workspaces'] },
};

const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const SCOPES = ['none', 'read', 'write', 'visitor', 'admin'];

export interface RouteRow {
  method: string;
  /** As the code declares it: `/v2/hc-articles/:id/public`. */
  url: string;
  /** As the docs and OpenAPI write it: `/v2/hc-articles/{id}/public`. */
  docsPath: string;
  auth: string;
  module: string;
  /** Relative to the repository, `/` separated. */
  file: string;
  line: number;
  docPage: string | null;
  wireName: string;
  /** The path up to and including the wire name, docs form. */
  wirePath: string;
}

class RouteDocsError extends Error {}

const posix = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

function tsFilesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) return tsFilesUnder(file);
      return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [file] : [];
    });
}

function stringProperty(call: ts.ObjectLiteralExpression, name: string): string | undefined {
  for (const property of call.properties) {
    if (!ts.isPropertyAssignment(property) || property.name.getText() !== name) continue;
    const value = property.initializer;
    if (ts.isStringLiteral(value) || ts.isNoSubstitutionTemplateLiteral(value)) return value.text;
    return undefined;
  }
  return undefined;
}

/** `src/modules/<module>/...` -> module; anything else under src/ -> its folder (`http`). */
function moduleOf(file: string): string {
  const parts = path.relative(SRC, file).split(path.sep);
  return parts[0] === 'modules' && parts.length > 2 ? parts[1]! : parts.slice(0, -1).join('/') || '.';
}

function docPageOf(module: string, file: string): string | null {
  const stem = path.basename(file).replace(/\.routes\.ts$|\.ts$/, '');
  const key = `${module}/${stem}`;
  if (key in DOC_PAGES) return DOC_PAGES[key]!;
  if (module in DOC_PAGES) return DOC_PAGES[module]!;
  throw new RouteDocsError(`module '${module}' (${posix(file)}) has no line in DOC_PAGES of scripts/docs-routes.ts: add its doc page, or null`);
}

export function wireNameOf(docsPath: string): { wireName: string; wirePath: string } {
  const segments = docsPath.split('/').filter(Boolean);
  let index = segments[0] === 'v2' ? 1 : 0;
  for (let i = segments.length - 1; i > index; i--) {
    if (segments[i]!.startsWith('hc-')) {
      index = i;
      break;
    }
  }
  return { wireName: segments[index] ?? '', wirePath: `/${segments.slice(0, index + 1).join('/')}` };
}

/** Every `defineRoute({ ... })` call under src/, sorted by module, then path, then method. */
export function findRoutes(): RouteRow[] {
  const rows: RouteRow[] = [];
  for (const file of tsFilesUnder(SRC)) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes('defineRoute')) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'defineRoute') {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        const where = `${posix(file)}:${line}`;
        const declaration = node.arguments[0];
        if (!declaration || !ts.isObjectLiteralExpression(declaration)) throw new RouteDocsError(`${where}: defineRoute takes an object literal here`);
        const method = stringProperty(declaration, 'method');
        const url = stringProperty(declaration, 'url');
        const auth = stringProperty(declaration, 'auth');
        if (!method || !METHOD_ORDER.includes(method) || !url || !auth || !SCOPES.includes(auth)) {
          throw new RouteDocsError(`${where}: method, url and auth of a route must be string literals for the route map (scripts/docs-routes.ts)`);
        }
        const module = moduleOf(file);
        const docsPath = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
        rows.push({ method, url, docsPath, auth, module, file: posix(file), line, docPage: docPageOf(module, file), ...wireNameOf(docsPath) });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  const seen = new Map<string, RouteRow>();
  for (const row of rows) {
    const key = `${row.method} ${row.url}`;
    const other = seen.get(key);
    if (other) throw new RouteDocsError(`${key} is declared twice: ${other.file}:${other.line} and ${row.file}:${row.line}`);
    seen.set(key, row);
  }
  return rows.sort(
    (a, b) =>
      compare(a.module, b.module) || compare(a.docsPath, b.docsPath) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method),
  );
}

/** Code-unit order, the same on every machine (no locale). */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function schemaTables(): Set<string> {
  return new Set(Object.values(schema).filter((value) => is(value, Table)).map((table) => getTableName(table as Table)));
}

function checkTables(rows: RouteRow[]): void {
  const problems: string[] = [];
  const used = new Set(rows.map((r) => r.wireName));
  for (const name of used) {
    if (GLOSSARY[name]) continue;
    const own = rows.filter((r) => r.wireName === name);
    const first = own[0]!;
    problems.push(`wire name '${name}' has no GLOSSARY entry (${own.length} routes, e.g. ${first.method} ${first.docsPath} at ${first.file}:${first.line})`);
  }
  for (const name of Object.keys(GLOSSARY)) if (!used.has(name)) problems.push(`GLOSSARY entry '${name}' names no route's wire name`);
  const tables = schemaTables();
  for (const [name, entry] of Object.entries(GLOSSARY)) {
    for (const table of entry.tables) if (!tables.has(table)) problems.push(`GLOSSARY entry '${name}' names table '${table}', which src/db/schema does not define`);
  }
  for (const [key, page] of Object.entries(DOC_PAGES)) {
    if (page && !existsSync(path.join(ROOT, 'docs', page))) problems.push(`DOC_PAGES '${key}' names docs/${page}, which does not exist`);
  }
  if (problems.length) throw new RouteDocsError(`scripts/docs-routes.ts:\n  ${[...new Set(problems)].join('\n  ')}`);
}

const code = (text: string) => `\`${text}\``;
const pageLink = (page: string | null) => (page ? `[docs/${page}](${page})` : '');
const moduleLabel = (module: string) => code(`src/modules/${module}`);
const unique = <T>(values: T[]) => [...new Set(values)];

function table(header: string[], body: string[][]): string[] {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '-').join(' | ')} |`, ...body.map((cells) => `| ${cells.join(' | ')} |`)];
}

const GENERATED = (what: string) =>
  `_Generated by ${code('npm run docs:routes')} (${code('scripts/docs-routes.ts')}) from the ${code('defineRoute')} declarations under ${code('src/')}; ` +
  `do not edit by hand. ${what}_`;

function renderRoutes(rows: RouteRow[]): string {
  const modules = unique(rows.map((r) => r.module));
  const lines = [
    '# Route map',
    '',
    GENERATED(`Change a route or the tables in the script, then rerun it; ${code('test/platform/route-map.test.ts')} fails while this file is stale.`),
    '',
    `Every route the API serves: ${rows.length} routes in ${modules.length} modules. Each path is written as the docs and ` +
      `${code('/openapi.json')} write it (${code('{id}')}) and as the code declares it (${code(':id')}), so a search for either finds its row. ` +
      `Scope: ${code('read')} or ${code('write')} is the workspace API key's scope, ${code('visitor')} a widget key (${code('pk_...')}) from an allowed origin, ${code('admin')} the operator's admin token, ` +
      `${code('none')} no authentication. The operationId is a generated client's name for the operation ([openapi.md](openapi.md)). ` +
      `What the names in the paths mean, and what the code calls them, is in [glossary.md](glossary.md).`,
    '',
    ...table(
      ['Module', 'Routes', 'Doc page'],
      modules.map((module) => {
        const own = rows.filter((r) => r.module === module);
        return [`[${module}](#${module})`, String(own.length), unique(own.map((r) => pageLink(r.docPage)).filter(Boolean)).join(', ')];
      }),
    ),
  ];
  for (const module of modules) {
    lines.push(
      '',
      `## ${module}`,
      '',
      ...table(
        ['Method', 'Path', 'Code path', 'operationId', 'Scope', 'Module', 'Declared at', 'Doc page'],
        rows
          .filter((r) => r.module === module)
          .map((r) => [
            r.method,
            code(r.docsPath),
            code(r.url),
            code(operationIdOf(r.method, r.url)),
            r.auth,
            moduleLabel(r.module),
            `[${r.file}:${r.line}](../${r.file}#L${r.line})`,
            pageLink(r.docPage),
          ]),
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** `Tag groups` is the wire's `tag-groups` written out. */
const sameName = (term: string, wireName: string) => term.toLowerCase() === wireName.replace(/-/g, ' ');

/** The product's and the code's names that are not the wire name; one row per name and wire name. */
function otherNames(entries: { name: string; entry: GlossaryEntry }[]): string[][] {
  const rows = new Map<string, { name: string; usedBy: string[]; wireName: string }>();
  for (const { name: wireName, entry } of entries) {
    const names = [...(sameName(entry.term, wireName) ? [] : [[entry.term, 'product']]), ...(entry.codeNames ?? []).map((n) => [n, 'code'])];
    for (const [name, usedBy] of names as [string, string][]) {
      const key = `${name.toLowerCase()}\n${wireName}`;
      const row = rows.get(key) ?? { name, usedBy: [], wireName };
      row.usedBy.push(usedBy);
      rows.set(key, row);
    }
  }
  return [...rows.entries()]
    .sort(([a], [b]) => compare(a, b))
    .map(([, row]) => [row.name, row.usedBy.join(', '), code(row.wireName)]);
}

function renderGlossary(rows: RouteRow[]): string {
  const names = Object.keys(GLOSSARY).sort(compare);
  const entries = names.map((name) => {
    const own = rows.filter((r) => r.wireName === name);
    return { name, entry: GLOSSARY[name]!, own };
  });
  const lines = [
    '# Glossary: wire names and code names',
    '',
    GENERATED(`The meanings and tables are the reviewed ${code('GLOSSARY')} of the script; modules, paths and doc pages come from the routes.`),
    '',
    `The API keeps the names of the specification it implements (the "wire" names in the paths: ${code('bots')}, ${code('documents')}, ` +
      `${code('hc-tools')}, ...); the code, the tables and the docs mostly use the product's names (agents, sources, actions, ...). ` +
      `Each wire name below is the first path segment after ${code('/v2')}, or a later ${code('hc-')} segment naming a resource ` +
      `nested in another. Every route with its declaration is in [routes.md](routes.md).`,
    '',
    ...table(
      ['Wire name', 'Product term', 'Code name', 'Meaning', 'Paths', 'Module', 'Tables', 'Doc page'],
      entries.map(({ name, entry, own }) => [
        code(name),
        entry.term,
        (entry.codeNames ?? []).join(', '),
        entry.meaning,
        unique(own.map((r) => r.wirePath)).map(code).join(', '),
        unique(own.map((r) => r.module)).map(moduleLabel).join(', '),
        entry.tables.map(code).join(', '),
        unique(own.map((r) => pageLink(r.docPage)).filter(Boolean)).join(', '),
      ]),
    ),
    '',
    '## Names that differ',
    '',
    'The product\'s and the code\'s names that are not the wire name, alphabetically, to go from either to the other:',
    '',
    ...table(['Name', 'Used by', 'Wire name'], otherNames(entries)),
    '',
    `"Refine" means two things: **Refine with AI** (the wire ${code('fix-review')}, the module ${code('refine')}, ` +
      `[refine.md](refine.md)), which turns feedback on a reply into drafts and replays the message, and ` +
      `${code('POST /v2/hc-rules/{id}/refine/public')}, which refines a rule draft's flow with more instructions ([rules.md](rules.md)).`,
  ];
  return `${lines.join('\n')}\n`;
}

/** Both generated files, in memory. */
export async function renderRouteDocs(): Promise<{ routes: string; glossary: string }> {
  const rows = findRoutes();
  checkTables(rows);
  return { routes: renderRoutes(rows), glossary: renderGlossary(rows) };
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const rendered = await renderRouteDocs();
  const outputs: [string, string][] = [
    [ROUTES_FILE, rendered.routes],
    [GLOSSARY_FILE, rendered.glossary],
  ];
  let stale = false;
  for (const [file, text] of outputs) {
    const target = path.join(ROOT, file);
    const current = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
    if (current === text) continue;
    if (check) {
      stale = true;
      console.error(`${file} is stale: run npm run docs:routes`);
    } else {
      writeFileSync(target, text);
      console.log(`wrote ${file}`);
    }
  }
  if (stale) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof RouteDocsError ? error.message : error);
    process.exitCode = 1;
  });
}
