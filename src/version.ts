import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../package.json'), 'utf8')) as {
  version: string;
  license: string;
};

/** Package version, read once from package.json (one level above src/ and dist/). */
export const version: string = pkg.version;
/** Package license (package.json `license`), named in the OpenAPI document. */
export const license: string = pkg.license;
