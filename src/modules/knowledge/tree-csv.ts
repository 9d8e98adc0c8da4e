import type { z } from 'zod';
import { articleFieldSchemas } from './articles.schemas.js';
import type { ArticleContent } from './articles.service.js';
import { folderDescriptionSchema, folderTitleSchema } from './folders.schemas.js';

/**
 * The knowledge tree file: CSV (RFC 4180) with a header row and one row per article. Documented in
 * docs/knowledge.md; `tree/persist` reads it, and the AI layer's `tree/initialize` writes it.
 */
export const TREE_COLUMNS = [
  'folder_path',
  'folder_description',
  'title',
  'main_knowledge',
  'agent_instruction',
  'questions',
  'keywords',
  'escalation',
  'is_draft',
  'active',
  'public',
] as const;
export type TreeColumn = (typeof TREE_COLUMNS)[number];

export const MAX_TREE_ROWS = 20_000;
const MAX_DEPTH = 20;

export class TreeFileError extends Error {
  constructor(
    readonly line: number,
    readonly column: number | undefined,
    readonly columnName: string | undefined,
    reason: string,
  ) {
    super(
      column === undefined
        ? `line ${line}: ${reason}`
        : `line ${line}, column ${column}${columnName ? ` (${columnName})` : ''}: ${reason}`,
    );
    this.name = 'TreeFileError';
  }
}

interface CsvRecord {
  line: number;
  cells: string[];
}

/** RFC 4180 records with the line each starts on; quoted cells may hold commas, quotes and newlines. */
export function parseCsv(text: string): CsvRecord[] {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let recordLine = 1;
  let i = 0;
  const endCell = () => {
    cells.push(cell);
    cell = '';
  };
  const endRecord = () => {
    endCell();
    if (cells.some((c) => c.trim() !== '')) records.push({ line: recordLine, cells });
    cells = [];
  };
  while (i < input.length) {
    const ch = input[i] as string;
    if (ch === '"' && cell === '') {
      const openedAt = line;
      i += 1;
      for (;;) {
        if (i >= input.length) throw new TreeFileError(openedAt, cells.length + 1, undefined, 'unterminated quoted cell');
        const q = input[i] as string;
        if (q === '"') {
          if (input[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        if (q === '\n') line += 1;
        cell += q;
        i += 1;
      }
      const next = input[i];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
        throw new TreeFileError(line, cells.length + 1, undefined, 'unexpected text after a closing quote');
      }
      continue;
    }
    if (ch === ',') {
      endCell();
      i += 1;
    } else if (ch === '\r' || ch === '\n') {
      endRecord();
      i += ch === '\r' && input[i + 1] === '\n' ? 2 : 1;
      line += 1;
      recordLine = line;
    } else {
      if (ch === '"') throw new TreeFileError(line, cells.length + 1, undefined, 'a quote inside an unquoted cell (quote the whole cell and double the quote)');
      cell += ch;
      i += 1;
    }
  }
  if (cell !== '' || cells.length > 0) endRecord();
  return records;
}

function quote(value: string): string {
  return /[",\r\n]/.test(value) || value !== value.trim() ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Writes rows (header first) as CSV with CRLF line ends. */
export function serializeCsv(rows: string[][]): string {
  return rows.map((row) => row.map(quote).join(',')).join('\r\n') + '\r\n';
}

/** Splits a folder path on `/` (a literal slash in a title is written `\/`). */
export function splitFolderPath(path: string): string[] {
  return path
    .split(/(?<!\\)\//)
    .map((segment) => segment.replace(/\\\//g, '/').trim());
}

export function joinFolderPath(titles: string[]): string {
  return titles.map((t) => t.replace(/\//g, '\\/')).join(' / ');
}

export interface TreeArticle extends ArticleContent {
  isDraft: boolean;
  active?: boolean;
  public?: boolean;
}

export interface TreeRow {
  line: number;
  folderPath: string[];
  folderDescription?: string;
  article?: TreeArticle;
}

const BOOLEANS: Record<string, boolean> = { true: true, false: false, yes: true, no: false, '1': true, '0': false };

const listCell = (value: string) =>
  value
    .split('|')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Reads and validates a tree file. Every problem is a `TreeFileError` naming the line and the
 * column, checked with the same limits as the article and folder routes.
 */
export function parseTreeFile(text: string): TreeRow[] {
  const records = parseCsv(text);
  const header = records.shift();
  if (!header) throw new TreeFileError(1, undefined, undefined, 'the file is empty; it needs a header row');
  const index = new Map<TreeColumn, number>();
  header.cells.forEach((raw, i) => {
    const name = raw.trim().toLowerCase() as TreeColumn;
    if (!TREE_COLUMNS.includes(name)) {
      throw new TreeFileError(header.line, i + 1, raw.trim(), `unknown column; expected ${TREE_COLUMNS.join(', ')}`);
    }
    if (index.has(name)) throw new TreeFileError(header.line, i + 1, name, 'column named twice');
    index.set(name, i);
  });
  for (const required of ['folder_path', 'title'] as const) {
    if (!index.has(required)) throw new TreeFileError(header.line, undefined, undefined, `missing column ${required}`);
  }
  if (records.length > MAX_TREE_ROWS) {
    throw new TreeFileError(records[MAX_TREE_ROWS]?.line ?? header.line, undefined, undefined, `more than ${MAX_TREE_ROWS} rows`);
  }
  return records.map((record) => readRow(record, index, header.cells.length));
}

function readRow(record: CsvRecord, index: Map<TreeColumn, number>, width: number): TreeRow {
  if (record.cells.length > width) {
    throw new TreeFileError(record.line, width + 1, undefined, `row has ${record.cells.length} cells but the header ${width}`);
  }
  const cell = (name: TreeColumn) => {
    const i = index.get(name);
    return i === undefined ? '' : (record.cells[i] ?? '');
  };
  const fail = (name: TreeColumn, reason: string): never => {
    const i = index.get(name);
    throw new TreeFileError(record.line, i === undefined ? undefined : i + 1, name, reason);
  };
  const check = <T>(name: TreeColumn, schema: z.ZodType<T>, value: unknown): T => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) fail(name, parsed.error.issues[0]?.message ?? 'invalid');
    return (parsed as { data: T }).data;
  };
  const flag = (name: TreeColumn): boolean | undefined => {
    const value = cell(name).trim().toLowerCase();
    if (value === '') return undefined;
    const parsed = BOOLEANS[value];
    if (parsed === undefined) fail(name, `expected true or false, got "${cell(name).trim()}"`);
    return parsed;
  };

  const path = cell('folder_path').trim();
  if (!path) fail('folder_path', 'a folder path is required');
  const folderPath = splitFolderPath(path).map((title) => check('folder_path', folderTitleSchema, title));
  if (folderPath.length > MAX_DEPTH) fail('folder_path', `folders nest at most ${MAX_DEPTH} deep`);
  const description = cell('folder_description');
  const row: TreeRow = { line: record.line, folderPath };
  if (description.trim()) row.folderDescription = check('folder_description', folderDescriptionSchema, description.trim());

  const title = cell('title').trim();
  if (!title) {
    for (const name of ['main_knowledge', 'agent_instruction', 'questions', 'keywords', 'escalation', 'is_draft', 'active', 'public'] as const) {
      if (cell(name).trim()) fail(name, 'a row without a title only declares its folder; give the article a title');
    }
    return row;
  }
  row.article = {
    title: check('title', articleFieldSchemas.title, title),
    mainKnowledge: check('main_knowledge', articleFieldSchemas.mainKnowledge, cell('main_knowledge')),
    agentInstruction: check('agent_instruction', articleFieldSchemas.agentInstruction, cell('agent_instruction').trim()),
    questions: check('questions', articleFieldSchemas.questions, listCell(cell('questions'))),
    keywords: check('keywords', articleFieldSchemas.keywords, listCell(cell('keywords'))),
    escalation: flag('escalation') ?? false,
    isDraft: flag('is_draft') ?? false,
    active: flag('active'),
    public: flag('public'),
  };
  return row;
}

/** The tree file of the given rows, with every column, as `tree/persist` accepts it. */
export function writeTreeFile(rows: TreeRow[]): string {
  const flagText = (value: boolean | undefined) => (value === undefined ? '' : String(value));
  return serializeCsv([
    [...TREE_COLUMNS],
    ...rows.map((row) => [
      joinFolderPath(row.folderPath),
      row.folderDescription ?? '',
      row.article?.title ?? '',
      row.article?.mainKnowledge ?? '',
      row.article?.agentInstruction ?? '',
      (row.article?.questions ?? []).join(' | '),
      (row.article?.keywords ?? []).join(' | '),
      row.article ? String(row.article.escalation) : '',
      row.article ? String(row.article.isDraft) : '',
      flagText(row.article?.active),
      flagText(row.article?.public),
    ]),
  ]);
}
