import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseCsv, parseTreeFile, splitFolderPath, TreeFileError, type TreeRow, writeTreeFile } from '../../src/modules/knowledge/tree-csv.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeKey, makeTenant, type Tenant } from '../support/factories.js';
import { assertError, securitySuite } from '../support/security.js';

interface Folder {
  id: string; title: string; description: string; parentFolderId: string | null; active: boolean;
  botIds: string[]; companyId: string; createdAt: string; updatedAt: string;
}
interface Article {
  id: string; title: string; mainKnowledge: string; agentInstruction: string; questions: string[]; keywords: string[];
  escalation: boolean; misc: Record<string, unknown>; active: boolean; public: boolean; parentFolderId: string; companyId: string;
  createdAt: string; updatedAt: string; version: number; isDraft: boolean; isDraftPublished: boolean; originalArticleId: string | null;
  originalArticleVersion: number | null; createdBy: string | null; updatedBy: string | null; origin: string;
}
interface Persisted { status: string; message: string; folders: Folder[]; articles: Article[] }
interface SnapFolder extends Folder { articles: { id: string; title: string; isDraft: boolean }[]; subfolders: SnapFolder[] }
interface Snapshot { snapshotObjV2: SnapFolder[] }

const PERSIST = '/v2/knowledge/public/tree/persist';
const HEADER = 'folder_path,folder_description,title,main_knowledge,agent_instruction,questions,keywords,escalation,is_draft,active,public';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const crlf = (...lines: string[]) => lines.join('\r\n') + '\r\n';
/** Sibling folders imported together share a timestamp, so shapes are compared with siblings by title. */
type Shape = [string, string, string[], Shape[]];
const shape = (nodes: SnapFolder[]): Shape[] =>
  [...nodes].sort((a, b) => a.title.localeCompare(b.title)).map((n) => [n.title, n.description, n.articles.map((a) => a.title), shape(n.subfolders)]);

/** BOM, CRLF, a folder-only row, quoted commas, doubled quotes and newlines, lists and every flag spelling. */
const TREE = '\uFEFF' + crlf(
  HEADER,
  'Billing,Money matters,,,,,,,,,',
  'Billing / Refunds,Refund rules,Refund window,"Refunds within 30 days, no questions asked.","Say ""sorry"" first",' +
    'How long do refunds take? | Can I get my money back?,refund|money| ,yes,no,1,0',
  'Billing/Refunds,,Multi-line answer,"Line one\nLine two",,,,false,true,,TRUE',
  'Shipping,,Delivery times,  Ships in 2 days  ,,,,0,0,no,Yes',
);

describe('knowledge tree import', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  securitySuite(() => t, { method: 'POST', scope: 'write', request: async () => ({ path: PERSIST }) });

  const post = async (app: TestApp, key: string, form: FormData, headers: Record<string, string> = {}) => {
    const res = await fetch(`${app.url}${PERSIST}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, ...headers }, body: form });
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) as unknown, text };
  };
  const form = (...files: [string, string | Uint8Array][]) => {
    const data = new FormData();
    for (const [field, content] of files) data.append(field, new Blob([content]), 'tree.csv');
    return data;
  };
  const upload = (key: string, csv: string | Uint8Array, app = t) => post(app, key, form(['file', csv]));
  const persist = async (key: string, csv: string) => {
    const res = await upload(key, csv);
    assert.equal(res.status, 200, res.text);
    return res.body as Persisted;
  };
  const snapshot = async (w: Tenant, app = t) => {
    const res = await app.request<Snapshot>('GET', '/v2/hc-folders/public', { key: w.readKey });
    assert.equal(res.status, 200, res.text);
    return res.body.snapshotObjV2;
  };
  const apiFolder = async (w: Tenant, title: string, parentFolderId?: string, description = '') => {
    const res = await t.request<Folder>('POST', '/v2/hc-folders/public', { key: w.writeKey, body: { title, description, parentFolderId } });
    assert.equal(res.status, 201, res.text);
    return res.body;
  };

  it('imports nested folders and articles with exact values', async () => {
    const w = await makeTenant(t);
    const key = await makeKey(t, w.workspaceId, { scopes: ['write'] });
    const res = await persist(key.key, TREE);
    assert.deepEqual(Object.keys(res).sort(), ['articles', 'folders', 'message', 'status']);
    assert.equal(res.status, 'success');
    assert.equal(res.message, 'imported 3 article(s) into 3 folder(s) (3 created, 0 existing)');
    const [billing, refunds, shipping] = res.folders;
    assert.ok(billing && refunds && shipping && res.folders.length === 3);
    const folder = (f: Folder, title: string, description: string, parentFolderId: string | null) => {
      assert.match(f.createdAt, ISO);
      assert.deepEqual(f, { id: f.id, title, description, parentFolderId, active: true, botIds: [], companyId: w.workspaceId, createdAt: f.createdAt, updatedAt: f.createdAt });
    };
    folder(billing, 'Billing', 'Money matters', null);
    folder(refunds, 'Refunds', 'Refund rules', billing.id);
    folder(shipping, 'Shipping', '', null);

    const base = {
      agentInstruction: '', questions: [], keywords: [], escalation: false, misc: {}, active: true, public: false, companyId: w.workspaceId,
      version: 1, isDraft: false, isDraftPublished: false, originalArticleId: null, originalArticleVersion: null,
      createdBy: key.id, updatedBy: key.id, origin: 'API_CREATED',
    };
    const expected = [
      {
        ...base, title: 'Refund window', mainKnowledge: 'Refunds within 30 days, no questions asked.', agentInstruction: 'Say "sorry" first',
        questions: ['How long do refunds take?', 'Can I get my money back?'], keywords: ['refund', 'money'], escalation: true, parentFolderId: refunds.id,
      },
      { ...base, title: 'Multi-line answer', mainKnowledge: 'Line one\nLine two', isDraft: true, public: true, parentFolderId: refunds.id },
      { ...base, title: 'Delivery times', mainKnowledge: 'Ships in 2 days', active: false, public: true, parentFolderId: shipping.id },
    ];
    assert.deepEqual(res.articles.map(({ id: _id, createdAt: _c, updatedAt: _u, ...rest }) => rest), expected);
    for (const a of res.articles) assert.equal(a.updatedAt, a.createdAt);

    const history = await t.request<{ versions: { version: number }[] }>('GET', `/v2/hc-articles/${res.articles[0]?.id}/history/public`, { key: w.readKey });
    assert.deepEqual(history.body.versions.map((v) => v.version), [1]);
    const snap = await snapshot(w);
    assert.deepEqual(shape(snap), [
      ['Billing', 'Money matters', [], [['Refunds', 'Refund rules', ['Multi-line answer', 'Refund window'], []]]],
      ['Shipping', '', ['Delivery times'], []],
    ]);
    const refundsNode = snap.find((f) => f.title === 'Billing')?.subfolders[0];
    assert.deepEqual(refundsNode?.articles.map((a) => [a.id, a.isDraft]), [[res.articles[1]?.id, true], [res.articles[0]?.id, false]]);
  });

  it('reuses folders by path: a second import duplicates articles, not folders', async () => {
    const w = await makeTenant(t);
    const first = await persist(w.writeKey, TREE);
    const second = await persist(w.writeKey, TREE.replace('Money matters', 'Other description'));
    assert.equal(second.message, 'imported 3 article(s) into 3 folder(s) (0 created, 3 existing)');
    assert.deepEqual(second.folders, first.folders, 'existing folders keep their description');
    assert.equal(new Set([...first.articles, ...second.articles].map((a) => a.id)).size, 6);
    assert.deepEqual(shape(await snapshot(w)), [
      ['Billing', 'Money matters', [], [['Refunds', 'Refund rules', ['Multi-line answer', 'Multi-line answer', 'Refund window', 'Refund window'], []]]],
      ['Shipping', '', ['Delivery times', 'Delivery times'], []],
    ]);
  });

  it('reuses the oldest folder of a path made through the API, with its agents', async () => {
    const w = await makeTenant(t);
    const billing = await apiFolder(w, 'Billing', undefined, 'Original');
    const twin = await apiFolder(w, 'Billing');
    const archive = await apiFolder(w, 'Archive');
    await apiFolder(w, 'Refunds', archive.id);
    const bot = await t.request<{ id: string }>('POST', '/v2/bots/public', { key: w.writeKey, body: { name: 'Bot' } });
    const linked = await t.request('POST', '/v2/hc-bot-folder-junctions/public', {
      key: w.writeKey, body: { junctions: [{ folderId: billing.id, botId: bot.body.id, action: 'ADD' }] },
    });
    assert.equal(linked.status, 200, linked.text);
    // Column order and case are free; absent optional columns take their defaults (LF line ends here).
    const res = await persist(w.writeKey, 'Title,FOLDER_PATH,main_knowledge,folder_description\nFee,Billing / Refunds,Body,New\nDeep,Top / Middle / Leaf,Body 2,\n');
    assert.equal(res.message, 'imported 2 article(s) into 5 folder(s) (4 created, 1 existing)');
    assert.deepEqual(res.folders[0], { ...billing, botIds: [bot.body.id] });
    assert.deepEqual(res.folders.map((f) => [f.title, f.description]), [['Billing', 'Original'], ['Refunds', 'New'], ['Top', ''], ['Middle', ''], ['Leaf', '']]);
    const [, refunds, top, middle, leaf] = res.folders;
    assert.deepEqual([refunds?.parentFolderId, top?.parentFolderId, middle?.parentFolderId, leaf?.parentFolderId], [billing.id, null, top?.id, middle?.id]);
    assert.deepEqual(res.articles.map((a) => [a.title, a.parentFolderId, a.escalation, a.isDraft, a.active, a.public]), [
      ['Fee', refunds?.id, false, false, true, false],
      ['Deep', leaf?.id, false, false, true, false],
    ]);
    const snap = await snapshot(w);
    assert.deepEqual(snap.find((f) => f.id === twin.id)?.subfolders, []);
    assert.deepEqual(shape(snap.filter((f) => f.title === 'Archive')), [['Archive', '', [], [['Refunds', '', [], []]]]]);
  });

  describe('file errors create nothing', () => {
    const row = 'Existing,,Kept,Kept body';
    const badRow = (cells: string) => crlf(HEADER, row, cells);
    const longTitle = 'x'.repeat(501);
    const cases: [string, string | Uint8Array, string][] = [
      ['unknown column', crlf('folder_path,title,main_knowledge,colour', 'A,T,B,red'),
        'line 1, column 4 (colour): unknown column; expected folder_path, folder_description, title, main_knowledge, agent_instruction, questions, keywords, escalation, is_draft, active, public'],
      ['duplicate column', crlf('folder_path,title,main_knowledge, TITLE ', 'A,T,B,C'), 'line 1, column 4 (title): column named twice'],
      ['missing folder_path column', crlf('title,main_knowledge', 'T,B'), 'line 1: missing column folder_path'],
      ['missing title column', crlf('folder_path,main_knowledge', 'A,B'), 'line 1: missing column title'],
      ['empty file', '', 'line 1: the file is empty; it needs a header row'],
      ['blank lines only', '\uFEFF\r\n , \r\n\r\n', 'line 1: the file is empty; it needs a header row'],
      ['header only', crlf(HEADER, '', ' ,,'), 'the file has a header but no rows'],
      ['missing folder path', badRow('  ,,Title,Body'), 'line 3, column 1 (folder_path): a folder path is required'],
      ['empty path segment', badRow('Billing / / Refunds,,T,B'), 'line 3, column 1 (folder_path): Too small: expected string to have >=1 characters'],
      ['folder title too long', badRow(`${'f'.repeat(201)},,T,B`), 'line 3, column 1 (folder_path): Too big: expected string to have <=200 characters'],
      ['unterminated quote', badRow('New,"never closed,T,B'), 'line 3, column 2: unterminated quoted cell'],
      ['text after closing quote', badRow('New,"desc"x,T,B'), 'line 3, column 2: unexpected text after a closing quote'],
      ['quote in an unquoted cell', badRow('New,say "hi",T,B'), 'line 3, column 2: a quote inside an unquoted cell (quote the whole cell and double the quote)'],
      ['too many cells', badRow('New,,T,B,,,,,,,,extra'), 'line 3, column 12: row has 12 cells but the header 11'],
      ['title too long', badRow(`New,,${longTitle},B`), 'line 3, column 3 (title): Too big: expected string to have <=500 characters'],
      ['empty main_knowledge', badRow('New,,Title,   '), 'line 3, column 4 (main_knowledge): Too small: expected string to have >=1 characters'],
      ['bad boolean', badRow('New,,T,B,,,,maybe'), 'line 3, column 8 (escalation): expected true or false, got "maybe"'],
      ['bad boolean after a multi-line cell', crlf(HEADER, 'A,,T,"one\ntwo\nthree"', 'New,,T,B,,,,,,,nope'), 'line 5, column 11 (public): expected true or false, got "nope"'],
      ['article fields without a title', badRow('New,,,Body'), 'line 3, column 4 (main_knowledge): a row without a title only declares its folder; give the article a title'],
      ['questions without a title', badRow('New,,,,,Why?'), 'line 3, column 6 (questions): a row without a title only declares its folder; give the article a title'],
      ['a flag without a title', badRow('New,,,,,,,maybe'), 'line 3, column 8 (escalation): a row without a title only declares its folder; give the article a title'],
      ['conflicting folder_description', crlf(HEADER, row, 'New / Sub,one', 'New / Sub,,T,B', 'New / Sub,two'),
        'line 5: folder_description differs from the one given on line 3 for the same folder'],
      ['binary content', new Uint8Array([...Buffer.from(`${HEADER}\r\n${row}\r\n`), 0, 1, 2]), 'not a text (CSV) file'],
    ];
    let w: Tenant;
    let before: SnapFolder[];
    it('prepares a workspace with one imported row', async () => {
      w = await makeTenant(t);
      await persist(w.writeKey, crlf(HEADER, row));
      before = await snapshot(w);
      assert.equal(before.length, 1);
    });
    for (const [name, csv, message] of cases) {
      it(`answers 400 for ${name}`, async () => {
        assertError(await upload(w.writeKey, csv), 400, `body.file: ${message}`);
        assert.deepEqual(await snapshot(w), before);
      });
    }
  });

  describe('upload errors', () => {
    let w: Tenant;
    let small: TestApp | undefined;
    before(async () => {
      w = await makeTenant(t);
    });
    after(() => small?.close());
    const valid = crlf(HEADER, 'Billing,,T,B');

    it('needs a file in the field "file", exactly once, and no other fields', async () => {
      const noFile = new FormData();
      noFile.append('note', 'hello');
      assertError(await post(t, w.writeKey, noFile), 400, 'body.file: a file is required');
      const textFile = new FormData();
      textFile.append('file', valid);
      assertError(await post(t, w.writeKey, textFile), 400, 'body.file: a file is required');
      assertError(await post(t, w.writeKey, form(['file', valid], ['file', valid])), 400, 'body.file: send exactly one file');
      assertError(await post(t, w.writeKey, form(['upload', valid])), 400, 'body.upload: unexpected file field; send the file as "file"');
      const extra = form(['file', valid]);
      extra.append('note', 'hello');
      assertError(await post(t, w.writeKey, extra), 400, /^body\.note: /);
      const crowded = form(['file', valid]);
      for (let i = 0; i < 25; i += 1) crowded.append(`f${i}`, 'x');
      assertError(await post(t, w.writeKey, crowded), 400, 'body: too many form fields');
      assert.deepEqual(await snapshot(w), []);
    });

    it('answers 415 for JSON and 400 for a broken form', async () => {
      const json = await t.request('POST', PERSIST, { key: w.writeKey, body: { file: valid } });
      assertError(json, 415, 'Content-Type must be multipart/form-data');
      const raw = await t.request('POST', PERSIST, { key: w.writeKey, raw: valid, headers: { 'content-type': 'text/csv' } });
      assertError(raw, 415, 'Content-Type must be multipart/form-data');
      const broken = await t.request('POST', PERSIST, {
        key: w.writeKey, raw: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nabc', headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      });
      assertError(broken, 400, /^malformed multipart body: /);
      assert.deepEqual(await snapshot(w), []);
    });

    it('answers 413 for a file over the upload limit', async () => {
      small = await startTestApp({ env: { PARLEY_UPLOAD_LIMIT_BYTES: '1000' } });
      const tenant = await makeTenant(small);
      const big = crlf(HEADER, ...Array.from({ length: 40 }, (_, i) => `Billing,,Title ${i},Body ${i}`));
      assert.ok(Buffer.byteLength(big) > 1000);
      assertError(await upload(tenant.writeKey, big, small), 413, 'the file is larger than the upload limit of 1000 bytes');
      assert.deepEqual(await snapshot(tenant, small), []);
      const fits = crlf(HEADER, ...Array.from({ length: 10 }, (_, i) => `Billing,,Title ${i},Body ${i}`));
      assert.ok(Buffer.byteLength(fits) < 1000);
      const res = await upload(tenant.writeKey, fits, small);
      assert.equal(res.status, 200, res.text);
      assert.equal((res.body as Persisted).articles.length, 10);
    });
  });

  describe('tree-csv', () => {
    it('parses RFC 4180 records with the line each starts on', () => {
      const text = '\uFEFFa,b\r\n"x, y","He said ""hi"""\n"multi\r\nline",\r\n\r\n , \rlast,"" \n';
      assert.throws(() => parseCsv(text), (e: unknown) => e instanceof TreeFileError && e.line === 7 && e.column === 2);
      assert.deepEqual(parseCsv('\uFEFFa,b\r\n"x, y","He said ""hi"""\n"multi\r\nline",\r\n\r\n , \rlast,""\nno newline'), [
        { line: 1, cells: ['a', 'b'] },
        { line: 2, cells: ['x, y', 'He said "hi"'] },
        { line: 3, cells: ['multi\r\nline', ''] },
        { line: 7, cells: ['last', ''] },
        { line: 8, cells: ['no newline'] },
      ]);
      assert.deepEqual(parseCsv(''), []);
      assert.deepEqual(parseCsv('"",""'), [], 'a record of empty cells is skipped');
      const unterminated = (() => {
        try {
          parseCsv('a,b\nc,"d\ne');
        } catch (error) {
          return error;
        }
      })();
      assert.ok(unterminated instanceof TreeFileError);
      assert.deepEqual([unterminated.line, unterminated.column, unterminated.message], [2, 2, 'line 2, column 2: unterminated quoted cell']);
    });

    it('splits folder paths on unescaped slashes', () => {
      assert.deepEqual(splitFolderPath('Billing / Refunds'), ['Billing', 'Refunds']);
      assert.deepEqual(splitFolderPath(' Billing/Refunds /Cards '), ['Billing', 'Refunds', 'Cards']);
      assert.deepEqual(splitFolderPath('A\\/B tests / Results'), ['A/B tests', 'Results']);
      assert.deepEqual(splitFolderPath('Solo'), ['Solo']);
      assert.deepEqual(splitFolderPath('A//B'), ['A', '', 'B']);
    });

    it('writes a file that reads back to the same rows and imports to the same tree', async () => {
      const rows: TreeRow[] = [
        { line: 2, folderPath: ['Legal'], folderDescription: 'Terms, policies and "fine print"' },
        {
          line: 3,
          folderPath: ['Legal', 'A/B tests'],
          article: {
            title: 'Opt-out, explained', mainKnowledge: 'Line 1\nLine "2", quoted', agentInstruction: 'Be brief, "kind"',
            questions: ['How, exactly?', 'Why "opt"?'], keywords: ['privacy', 'opt-out'], escalation: true, isDraft: false, active: false, public: true,
          },
        },
        {
          line: 5,
          folderPath: ['Legal', 'A/B tests'],
          article: { title: 'Defaults', mainKnowledge: 'Plain', agentInstruction: '', questions: [], keywords: [], escalation: false, isDraft: true },
        },
        { line: 6, folderPath: ['Other\\Dept'], folderDescription: 'Back\\slash' },
      ];
      const written = writeTreeFile(rows);
      assert.ok(written.startsWith(`${HEADER}\r\n`));
      const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
      assert.deepEqual(plain(parseTreeFile(written)), plain(rows));

      const w = await makeTenant(t);
      const res = await persist(w.writeKey, written);
      assert.equal(res.message, 'imported 2 article(s) into 3 folder(s) (3 created, 0 existing)');
      assert.deepEqual(shape(await snapshot(w)), [
        ['Legal', 'Terms, policies and "fine print"', [], [['A/B tests', '', ['Defaults', 'Opt-out, explained'], []]]],
        ['Other\\Dept', 'Back\\slash', [], []],
      ]);
      const fields = (a: Article) => {
        const { title, mainKnowledge, agentInstruction, questions, keywords, escalation, isDraft, active, public: isPublic } = a;
        return { title, mainKnowledge, agentInstruction, questions, keywords, escalation, isDraft, active, public: isPublic };
      };
      assert.deepEqual(res.articles.map(fields), [
        { ...rows[1]?.article },
        { ...rows[2]?.article, active: true, public: false },
      ]);
    });
  });
});
