#!/usr/bin/env node
// The `parley` command: builds dist/ when stale, then runs the CLI.
import { ensureBuild } from '../scripts/ensure-build.mjs';

ensureBuild();
await import('../dist/main.js');
