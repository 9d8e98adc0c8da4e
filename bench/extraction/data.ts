// Loading the extraction benchmark data sets (see /work/shared/bench-data/extraction/*/README.md).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The shared bench-data folder: `../shared/bench-data` next to the repo, or PARLEY_BENCH_DATA. */
export function benchDataDir(): string {
  return process.env.PARLEY_BENCH_DATA ?? path.resolve(REPO_ROOT, '../shared/bench-data');
}

export interface AebCase { id: string; url: string; html: string; gold: string }
export interface WcxbCase { id: string; url: string; html: string; gold: string; with: string[]; without: string[] }
export interface ReferenceSystem { name: string; bodies: Record<string, string> }

const readGz = (file: string) => gunzipSync(readFileSync(file)).toString('utf8');

export function loadAeb(): AebCase[] {
  const dir = path.join(benchDataDir(), 'extraction/scrapinghub-aeb');
  const truth = JSON.parse(readFileSync(path.join(dir, 'ground-truth.json'), 'utf8')) as Record<string, { articleBody: string; url: string }>;
  return Object.entries(truth).map(([id, value]) => ({
    id,
    url: value.url,
    gold: value.articleBody,
    html: readGz(path.join(dir, 'html', `${id}.html.gz`)),
  }));
}

/** Published systems' outputs, either `{id: {articleBody}}` or wrapped as `{version, output: {...}}`. */
export function loadAebReferences(): ReferenceSystem[] {
  const dir = path.join(benchDataDir(), 'extraction/scrapinghub-aeb/reference-outputs');
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((file) => {
    const raw = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Record<string, unknown>;
    const entries = (raw.output && typeof raw.output === 'object' ? raw.output : raw) as Record<string, { articleBody?: string } | undefined>;
    const bodies: Record<string, string> = {};
    for (const [id, value] of Object.entries(entries)) {
      if (value && typeof value === 'object' && typeof value.articleBody === 'string') bodies[id] = value.articleBody;
    }
    return { name: file.replace(/\.json$/, ''), bodies };
  });
}

interface WcxbTruth { url: string; ground_truth: { main_content?: string; with?: string[]; without?: string[] } }

/** A WCXB set: `wcxb-dev-docs` (documentation) or `wcxb-dev-mixed` (six other page types, with their type). */
export function loadWcxb(set: 'wcxb-dev-docs' | 'wcxb-dev-mixed' = 'wcxb-dev-docs'): (WcxbCase & { pageType: string })[] {
  const dir = path.join(benchDataDir(), 'extraction', set);
  const types = set === 'wcxb-dev-mixed' ? (JSON.parse(readFileSync(path.join(dir, 'page-types.json'), 'utf8')) as Record<string, { page_type: string }>) : {};
  return readdirSync(path.join(dir, 'ground-truth')).filter((f) => f.endsWith('.json')).sort().map((file) => {
    const id = file.replace(/\.json$/, '');
    const truth = JSON.parse(readFileSync(path.join(dir, 'ground-truth', file), 'utf8')) as WcxbTruth;
    return {
      id,
      url: truth.url,
      gold: truth.ground_truth.main_content ?? '',
      with: truth.ground_truth.with ?? [],
      without: truth.ground_truth.without ?? [],
      html: readGz(path.join(dir, 'html', `${id}.html.gz`)),
      pageType: types[id]?.page_type ?? 'documentation',
    };
  });
}
