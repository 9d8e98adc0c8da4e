// The main module of Parley's own worker threads (the embedded database's): it loads the thread's
// module named by `workerData.entry`. A thread's main module has to be plain JavaScript: under tsx
// (tests, benches) a thread gets tsx's require hook but not its ESM hooks, so a .ts module is
// required; from dist/ the module is ES JavaScript, so it is imported. piscina's own entry does the
// same for the CPU pool's threads. A process that reads TypeScript through a transform of its own
// (Playwright's test runner) passes no hook to its threads at all: there tsx's require hook is
// registered first.
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS entry: require is how it loads */
'use strict';
const { pathToFileURL } = require('node:url');
const { workerData } = require('node:worker_threads');

const entry = workerData.entry;
if (/\.[cm]?ts$/.test(entry)) {
  if (!require.extensions['.ts']) require('tsx/cjs/api').register();
  require(entry);
} else import(pathToFileURL(entry).href);
