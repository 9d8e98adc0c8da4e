import type { Config } from '../config/config.js';
import { type CpuPool, inlineCpuPool } from './pool.js';

/*
 * The process's CPU pool, found from its configuration like llmProvider(config) and
 * ingestRuntime(config) find theirs. runtime.ts and the test harness attach the pool they create;
 * once ports are built in one place, the pool is one of them and this file goes away.
 */
const pools = new WeakMap<Config, CpuPool>();

/** Makes `pool` the one the built-in engine and the extractors use under this configuration. */
export function attachCpuPool(config: Config, pool: CpuPool): void {
  pools.set(config, pool);
}

/** The pool attached to a configuration; inline when none is (the CLI, direct calls in tests). */
export function cpuPoolOf(config: Config): CpuPool {
  return pools.get(config) ?? inlineCpuPool;
}
