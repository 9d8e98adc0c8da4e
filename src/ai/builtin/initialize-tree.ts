import type { TreeArticle, TreeFolder } from '../contracts/initialize-tree.js';
import { draftArticle } from './article.js';
import { lowerPhrase } from './questions.js';
import { capitalize, normalizeText, splitSentences, squash, stripMarkdown as plain, truncateAtWord } from '../../text/sentences.js';
import { STOPWORDS, terms, words } from '../../text/terms.js';

/**
 * The built-in engine's help-centre template: the structure of an initialization prompt becomes
 * folders and articles.
 * - `#` headings nest by level; list items nest by indentation; `A > B` paths (and standalone
 *   `A / B` lines, or `Folder: A > B`) are nested folders. A node with children is a folder, a
 *   leaf is an article. Top-level headings and `Folder:` lines stay folders even as leaves (they
 *   get one article of the same title); top-level leaf items gather in one folder named after
 *   the prompt's main topic ("we sell e-bikes" → "E-bikes") or "General".
 * - An item's own text is what follows a colon, a dash or its question mark, plus indented or
 *   continuation lines. `Topics: a, b and c` and prose like "customers ask about a, b and c" add a,
 *   b and c as articles; the node's other sentences go to the article sharing most terms with them.
 * - A folder's description is the first sentence of its own text, else "Articles about <title>.";
 *   more text than that becomes an article of the folder's title. An article with no text gets an
 *   authoring brief for an editor.
 * - Limits: MAX_DEPTH folder levels (deeper items are folded into their article), MAX_ARTICLES
 *   articles, path segments of at most MAX_SEGMENT characters; equal paths and equal titles in one
 *   folder merge. Folders without articles are kept only above folders that have some.
 */
export type TemplateArticle = TreeArticle;
export type TemplateFolder = TreeFolder;

export const MAX_DEPTH = 5;
export const MAX_ARTICLES = 200;
export const MAX_SEGMENT = 120;
const GENERAL = 'General';
/** Deepest nesting the outline keeps while parsing (folders are cut at MAX_DEPTH later). */
const MAX_NESTING = 12;

type Kind = 'root' | 'heading' | 'folder' | 'item';
interface Node {
  title: string;
  text: string[];
  children: Node[];
  kind: Kind;
  /** Children by lower-cased title. */
  index: Map<string, Node>;
}

/** Folders and articles for the help centre an initialization prompt describes; [] for a blank prompt. */
export function treeTemplate(initPrompt: string): TemplateFolder[] {
  const root = parseOutline(initPrompt);
  expandEnumerations(root);
  return buildFolders(root, mainTopic(initPrompt));
}

// ---------------------------------------------------------------------------------------------
// Outline

const HEADING = /^(#{1,6})\s+(.*?)[\s#]*$/;
const ITEM = /^([-*+•◦▪‣·–]|\d{1,3}[.)]|[a-zA-Z][.)])\s+(.+)$/;
const PATH_LABEL = /^(?:folder|category|section|path)\s*:\s*(.+)$/i;
const NEST = /\s+[>›»]\s+/;
const GENERIC_LABELS = /^(?:main )?(?:topics?|categories|sections|subjects|areas|themes|articles|faqs?|questions|pages)$/i;

function parseOutline(prompt: string): Node {
  const root: Node = { title: '', text: [], children: [], kind: 'root', index: new Map() };
  let headings: { level: number; node: Node }[] = [{ level: 0, node: root }];
  let items: { indent: number; node: Node }[] = [];
  let blank = false;
  const text = normalizeText(prompt.replace(/^[ \t]+/gm, (ws) => ws.replace(/\t/g, '    ')));
  for (const raw of text.split('\n')) {
    const line = squash(raw);
    const indent = raw.length - raw.trimStart().length;
    const context = headings[headings.length - 1]?.node ?? root;
    if (!line) {
      blank = true;
      continue;
    }
    const heading = HEADING.exec(line);
    const item = heading ? null : ITEM.exec(line);
    const path = heading || item ? null : pathLine(line);
    if (heading || path) {
      const level = heading ? (heading[1]?.length ?? 1) : 1;
      headings = headings.filter((h) => h.level < level);
      const parent = headings[headings.length - 1]?.node ?? root;
      const node = heading
        ? addChain(parent, plain(heading[2] ?? '').split(NEST), 'heading')
        : addChain(root, path?.segments ?? [], path?.labelled ? 'folder' : 'heading');
      headings.push({ level, node });
      items = [];
    } else if (item) {
      items = items.filter((i) => i.indent < indent).slice(0, MAX_NESTING);
      const parent = items[items.length - 1]?.node ?? context;
      const [title, body] = splitItem(item[2] ?? '');
      const node = addChain(parent, title.split(NEST), 'item');
      if (body) node.text.push(body);
      items.push({ indent, node });
    } else {
      const list = labelledList(line);
      // "Online shoe store. Topics: a, b" is labelled by its last sentence ("Topics").
      const label = (line.slice(0, line.indexOf(':')).split(/[.!?]\s+/).pop() ?? '').trim();
      const generic = list !== null && GENERIC_LABELS.test(label);
      const last = items[items.length - 1];
      if (last && !generic && (!blank || indent > last.indent)) last.node.text.push(line);
      else {
        items = [];
        if (list && generic) for (const entry of list) addChain(context, [entry], 'item');
        else if (list && context === root) for (const entry of list) addChain(addChain(root, [label], 'heading'), [entry], 'item');
        else context.text.push(line);
      }
    }
    blank = false;
  }
  // A prompt that is only a few title lines ("Accounts", "Cards", "Transfers") lists its topics.
  if (root.children.length === 0 && root.text.length >= 2 && root.text.every(isTitleLine)) {
    for (const line of root.text.splice(0)) addChain(root, [line], 'item');
  }
  return root;
}

/** Segments of a path line ("Folder: Account > Security", "Account / Security"), or null. */
function pathLine(line: string): { segments: string[]; labelled: boolean } | null {
  const labelled = PATH_LABEL.exec(line);
  const body = labelled?.[1] ?? line;
  if (labelled && !NEST.test(body) && /,/.test(body)) return null;
  const separator = NEST.test(body) ? NEST : /\s+\/\s+/;
  const segments = body.split(separator).map((s) => plain(s).replace(/[.:;]+$/, ''));
  if (!labelled && (segments.length < 2 || /[.!?]$/.test(body))) return null;
  return segments.every((s) => s && words(s).length <= 8) ? { segments, labelled: labelled !== null } : null;
}

function addChain(parent: Node, titles: string[], kind: Kind): Node {
  let node = parent;
  titles.slice(0, MAX_NESTING).forEach((raw, i, list) => {
    const title = truncateAtWord(capitalize(plain(raw).replace(/[\s:;,]+$/, '')), MAX_SEGMENT);
    if (!title) return;
    const key = title.toLowerCase();
    let child = node.index.get(key);
    if (!child) {
      child = { title, text: [], children: [], kind: i === list.length - 1 ? kind : 'folder', index: new Map() };
      node.children.push(child);
      node.index.set(key, child);
    }
    node = child;
  });
  return node;
}

/** An item's title and its own text: "Refunds: within 14 days", "How long? 14 days.", "Returns — free". */
function splitItem(raw: string): [string, string] {
  const text = plain(raw);
  const question = /^(.{3,120}?\?)\s+(.+)$/.exec(text);
  const colon = /^([^:]{1,80}):\s+(.+)$/.exec(text);
  const dash = /^(.{2,80}?)\s+[–—-]\s+(.+)$/.exec(text);
  for (const m of [question, colon, dash]) {
    if (m && words(m[1] ?? '').length <= 10) return [m[1] ?? '', capitalize(m[2] ?? '')];
  }
  if (words(text).length <= 12) return [text.replace(/[.;:]+$/, ''), ''];
  const keyword = draftArticle({ text }).keywords[0];
  return [keyword ? capitalize(keyword) : truncateAtWord(text, 60), text];
}

/** A line that could name a topic: a few capitalised words without closing punctuation ("Cards"). */
function isTitleLine(line: string): boolean {
  const count = words(line).length;
  return count >= 1 && count <= 5 && !/[.!?:;,]$/.test(line) && /^\p{Lu}/u.test(line);
}

/** "Label: a, b and c" where every entry is a short phrase; the entries, or null. */
function labelledList(line: string): string[] | null {
  const m = /^([^:]{1,40}):\s*(.+)$/.exec(line);
  if (!m || splitSentences(m[2] ?? '').length > 1) return null;
  const entries = listEntries(m[2] ?? '');
  return entries && entries.every((e) => words(e).length <= 6) ? entries : null;
}

/** Entries of "a, b and c" (at least two, each at most six words), or null. */
function listEntries(text: string): string[] | null {
  const entries = text
    .replace(/[.!;:]+$/, '')
    .split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+/)
    .map((e) => e.replace(/^(?:the|their|our|your|its|a|an)\s+/i, '').trim())
    .filter((e) => e && !/^(?:etc|more|so on|other things|others|much more)$/i.test(e));
  const odd = (e: string): boolean =>
    words(e).length === 0 || words(e).length > 6 || !/\p{L}/u.test(e) || STOPWORDS.has((e.split(' ')[0] ?? '').toLowerCase());
  if (entries.length < 2 || entries.some(odd)) return null;
  return entries;
}

// ---------------------------------------------------------------------------------------------
// Prose enumerations

/** What introduces an enumeration of topics in prose: "customers ask about a, b and c". */
const TRIGGERS = [
  String.raw`\bask(?:s|ed|ing)?\s+(?:us\s+|me\s+)?(?:mostly\s+|often\s+|usually\s+|mainly\s+)?(?:about|for)`,
  String.raw`\bquestions?\s+(?:about|on|regarding)`,
  String.raw`\b(?:need|want|get)\s+help\s+with`,
  String.raw`\b(?:want|like)\s+to\s+know\s+about`,
  String.raw`\bcontact\s+us\s+about`,
  String.raw`\b(?:topics?|categories|sections|subjects|areas|themes)\s+(?:are|include)\s*:?`,
];
const ENUMERATION = new RegExp(String.raw`(?:${TRIGGERS.join('|')})\s+(.+)$`, 'i');

/** Turns "customers ask about a, b and c" sentences into articles a, b and c of the node. */
function expandEnumerations(node: Node): void {
  const created: Node[] = [];
  const rest: string[] = [];
  for (const sentence of node.text.flatMap((line) => splitSentences(line))) {
    const entries = listEntries(ENUMERATION.exec(sentence)?.[1] ?? '');
    if (entries) for (const entry of entries) created.push(addChain(node, [entry], 'item'));
    else rest.push(sentence);
  }
  if (created.length) {
    node.text = [];
    const titles = created.map((c) => new Set(terms(c.title)));
    for (const sentence of rest) {
      const own = new Set(terms(sentence));
      const overlap = titles.map((t) => [...t].filter((term) => own.has(term)).length);
      const best = overlap.indexOf(Math.max(...overlap));
      const target = (overlap[best] ?? 0) > 0 ? created[best] : undefined;
      (target ?? node).text.push(sentence);
    }
  }
  for (const child of node.children) expandEnumerations(child);
}

const ADVERBS = new Set('online worldwide globally locally internationally nationwide directly everywhere today now'.split(' '));
const OFFER = /\bwe(?:'re|\s+are)?\s+(?:sell|offer|provide|make|build|rent|run|develop|design|produce|repair|host|operate)\s+([^.,;:!?()]+)/i;
const RANGE_OF = /^(?:an?\s+|the\s+)?(?:(?:wide|broad|large|huge|great)\s+)?(?:range|variety|selection|lots?|kinds?|types?|number|collection)\s+of\s+/i;
const ARTICLE = /^(?:a|an|the)$/i;

/** The prompt's main topic ("We are Acme, we sell e-bikes online" → "E-bikes"), or "General". */
function mainTopic(prompt: string): string {
  const object = (OFFER.exec(normalizeText(prompt))?.[1] ?? '').replace(RANGE_OF, '');
  const phrase: string[] = [];
  for (const word of object.split(/\s+/).filter(Boolean)) {
    if (ARTICLE.test(word) && phrase.length === 0) continue;
    if (phrase.length >= 4 || ADVERBS.has(word.toLowerCase()) || STOPWORDS.has(word.toLowerCase())) break;
    phrase.push(word);
  }
  return phrase.length ? capitalize(phrase.join(' ')) : GENERAL;
}

// ---------------------------------------------------------------------------------------------
// Folders

interface Draft {
  path: string[];
  description: string;
  articles: { title: string; text: string[] }[];
}

function buildFolders(root: Node, topic: string): TemplateFolder[] {
  const folders = new Map<string, Draft>();
  let count = 0;
  const folderAt = (path: string[], node: Node | null): Draft => {
    const key = path.join('\u0000').toLowerCase();
    let folder = folders.get(key);
    if (!folder) {
      folder = { path, description: '', articles: [] };
      folders.set(key, folder);
    }
    if (!folder.description && node) folder.description = describe(node);
    return folder;
  };
  const addArticle = (folder: Draft, title: string, text: string[]): void => {
    const existing = folder.articles.find((a) => a.title.toLowerCase() === title.toLowerCase());
    if (existing) for (const line of text) if (!existing.text.includes(line)) existing.text.push(line);
    if (existing || count >= MAX_ARTICLES) return;
    folder.articles.push({ title: truncateAtWord(title, 200), text });
    count++;
  };
  const emit = (node: Node, path: string[]): void => {
    const folder = folderAt(path, node);
    const sentences = node.text.flatMap((line) => splitSentences(line));
    if (!node.children.length || sentences.length > 1) addArticle(folder, node.title, node.text);
    for (const child of node.children) {
      if ((child.children.length || child.kind === 'folder') && path.length < MAX_DEPTH) emit(child, [...path, child.title]);
      else addArticle(folder, child.title, [...child.text, ...foldDescendants(child.children, 0)]);
    }
  };
  const loose: Node[] = [];
  for (const child of root.children) {
    if (child.children.length || child.kind !== 'item') emit(child, [child.title]);
    else loose.push(child);
  }
  if (loose.length) {
    const folder = folderAt([topic], null);
    for (const child of loose) addArticle(folder, child.title, child.text);
  }
  if (!folders.size && root.text.length) {
    const draft = draftArticle({ text: root.text.join('\n') });
    addArticle(folderAt([topic], null), draft.title, [draft.mainKnowledge]);
  }
  return finish([...folders.values()]);
}

/** Items below the depth limit, as "- title: text" lines of their article. */
function foldDescendants(nodes: Node[], depth: number): string[] {
  return nodes.flatMap((n) => [
    `${'  '.repeat(depth)}- ${n.title}${n.text.length ? `: ${n.text.join(' ')}` : ''}`,
    ...foldDescendants(n.children, depth + 1),
  ]);
}

function describe(node: Node): string {
  const first = node.text.flatMap((line) => splitSentences(line))[0];
  if (first) return truncateAtWord(capitalize(first), 200).replace(/([^.!?])$/, '$1.');
  return defaultDescription(node.title);
}

const defaultDescription = (title: string): string =>
  title === GENERAL ? 'General questions and information.' : `Articles about ${lowerPhrase(title)}.`;

function finish(drafts: Draft[]): TemplateFolder[] {
  const key = (path: string[]): string => path.join('\u0000').toLowerCase();
  const needed = new Set(drafts.filter((f) => f.articles.length).flatMap((f) => f.path.map((_, i) => key(f.path.slice(0, i + 1)))));
  const kept = drafts.filter((folder) => needed.has(key(folder.path)));
  return kept.map((folder) => ({
    path: folder.path,
    description: folder.description || defaultDescription(folder.path[folder.path.length - 1] ?? ''),
    articles: folder.articles.map(({ title, text }) => templateArticle(title, text)),
  }));
}

function templateArticle(title: string, text: string[]): TemplateArticle {
  const body = text.join('\n').trim();
  const drafted = draftArticle({ text: body || title, title });
  const mainKnowledge = body ? drafted.mainKnowledge : title.endsWith('?')
    ? `Answer "${title}" for customers: the facts, any steps or conditions, and whom to contact.`
    : `Describe ${lowerPhrase(title)} for customers: what it covers, the steps or conditions, and whom to contact.`;
  return { title, mainKnowledge, questions: drafted.questions, keywords: drafted.keywords };
}
