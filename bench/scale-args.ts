// The command line of `npm run bench:scale` (bench/scale.ts): sizes as arguments, or as BENCH_*
// variables like the other benchmarks; the arguments win.

export interface Size {
  /** Conversations of the big workspace (5 events each on average). */
  conversations: number;
  /** Articles of the big workspace. */
  articles: number;
  /** Small workspaces beside it, each with a thousandth of the big one's conversations and articles. */
  workspaces: number;
}

export interface ScaleSettings {
  size: Size;
  /** The reference run's divisor (10: a run of a tenth of every size before the full one); 0: none. */
  reference: number;
  /** Timed requests per case (after 2 warm-ups), spread over both API processes. */
  iterations: number;
  /** Pages ingested per ingestion run (one run with 1 worker, one with 2). */
  pages: number;
  /** Keep the scratch databases (their names are printed, and bench/results/scale-state-<name>.json says what is in them). */
  keep: boolean;
  /** Reuse databases kept by an earlier run (their state files), instead of seeding. */
  reuse: string[];
  /** Another built Parley checkout whose API and worker processes serve the databases (an earlier commit timed on the same data). */
  serveFrom: string | undefined;
}

const USAGE = `usage: npm run bench:scale -- [--conversations N] [--articles N] [--workspaces N] [--reference D|0]
       [--iterations N] [--pages N] [--keep] [--reuse scale_a,scale_b] [--serve-from CHECKOUT]
defaults: 1000000 conversations, 100000 articles, 200 workspaces, a reference run of a tenth (10),
20 iterations, 300 pages; the BENCH_CONVERSATIONS, BENCH_ARTICLES, BENCH_WORKSPACES, BENCH_REFERENCE,
BENCH_ITERATIONS and BENCH_PAGES variables set the same. --serve-from runs the API and worker
processes of another built checkout (a git worktree of an earlier commit) on the same databases.`;

/** An error in the command line, with the usage. */
export class UsageError extends Error {
  constructor(message: string) {
    super(`${message}\n${USAGE}`);
  }
}

const NUMBERS = {
  conversations: { env: 'BENCH_CONVERSATIONS', fallback: 1_000_000, min: 10 },
  articles: { env: 'BENCH_ARTICLES', fallback: 100_000, min: 10 },
  workspaces: { env: 'BENCH_WORKSPACES', fallback: 200, min: 0 },
  reference: { env: 'BENCH_REFERENCE', fallback: 10, min: 0 },
  iterations: { env: 'BENCH_ITERATIONS', fallback: 20, min: 1 },
  pages: { env: 'BENCH_PAGES', fallback: 300, min: 1 },
} as const;

type NumberName = keyof typeof NUMBERS;

function integer(name: string, raw: string, min: number): number {
  const value = Number(raw.replace(/_/g, ''));
  if (!/^\d[\d_]*$/.test(raw) || !Number.isSafeInteger(value) || value < min) throw new UsageError(`${name} must be an integer of at least ${min}, got "${raw}"`);
  return value;
}

/** Reads the settings from the arguments after `--` and the environment. */
export function parseScaleArgs(argv: readonly string[], env: Record<string, string | undefined> = {}): ScaleSettings {
  const given: Partial<Record<NumberName, number>> = {};
  let keep = false;
  let reuse: string[] = [];
  let serveFrom: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    const name = flag.replace(/^--/, '') as NumberName;
    if (flag === '--keep') keep = true;
    else if (flag === '--reuse') reuse = value().split(',').map((s) => s.trim()).filter(Boolean);
    else if (flag === '--serve-from') serveFrom = value();
    else if (flag.startsWith('--') && name in NUMBERS) given[name] = integer(flag, value(), NUMBERS[name].min);
    else throw new UsageError(`unknown argument "${arg}"`);
  }
  const read = (name: NumberName) => {
    const spec = NUMBERS[name];
    const raw = env[spec.env];
    return given[name] ?? (raw ? integer(spec.env, raw, spec.min) : spec.fallback);
  };
  if (reuse.some((name) => !/^scale_[a-z0-9_]+$/.test(name))) throw new UsageError('--reuse names databases scale_*');
  return {
    size: { conversations: read('conversations'), articles: read('articles'), workspaces: read('workspaces') },
    reference: read('reference'),
    iterations: read('iterations'),
    pages: read('pages'),
    keep,
    reuse,
    serveFrom,
  };
}

/** The sizes to run: the reference (every size divided by `reference`) first when asked, then the full one. */
export function sizesOf(settings: Pick<ScaleSettings, 'size' | 'reference'>): Size[] {
  const { size, reference } = settings;
  if (reference <= 1) return [size];
  const part = (n: number, min: number) => Math.max(min, Math.round(n / reference));
  return [{ conversations: part(size.conversations, 10), articles: part(size.articles, 10), workspaces: part(size.workspaces, 0) }, size];
}
