// include/exclude globs of a deep crawl.

/** Compiles a crawl filter glob to an anchored RegExp. */
export function compileGlob(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string;
    if (char === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (char === '*') {
      source += '[^/]*';
    } else if (char === '?') {
      source += '.';
    } else {
      source += char.replace(/[.+^${}()|[\]\\/]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}

export interface Filter {
  test(url: string): boolean;
}

/** A list of globs; each is matched against the path+query, or the whole URL when it starts with http. */
export function compileFilters(patterns: string[] | undefined): Filter | null {
  if (!patterns || patterns.length === 0) return null;
  const compiled = patterns.map((pattern) => ({ wholeUrl: /^http/i.test(pattern), regex: compileGlob(pattern) }));
  return {
    test(url: string): boolean {
      const parsed = new URL(url);
      const pathAndQuery = `${parsed.pathname}${parsed.search}`;
      return compiled.some(({ wholeUrl, regex }) => regex.test(wholeUrl ? url : pathAndQuery));
    },
  };
}
