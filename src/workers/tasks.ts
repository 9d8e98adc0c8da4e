import type { LlmTask } from '../ai/provider.js';
import { generateKnowledgeTask, initializeTreeTask } from '../modules/generation/generation.tasks.js';
import { answerTask, evaluateTask, planTask, selectTagsTask } from '../modules/conversations/conversations.tasks.js';
import { diagnoseTask } from '../modules/refine/refine.tasks.js';
import { draftRuleTask, matchRuleTask, refineRuleTask } from '../modules/rules/rules.tasks.js';

/**
 * Every LlmTask whose built-in method may run in the CPU pool. Functions cannot cross threads, so
 * the main thread sends a task's name and the worker looks the task up here. Adding a task is one
 * line in this list (test/workers/pool.test.ts checks that every `*.tasks.ts` task is listed).
 */
const TASKS: readonly LlmTask<never, unknown>[] = [
  generateKnowledgeTask,
  initializeTreeTask,
  draftRuleTask,
  refineRuleTask,
  matchRuleTask,
  planTask,
  answerTask,
  selectTagsTask,
  evaluateTask,
  diagnoseTask,
];

/** The tasks by name (test/platform/layering.test.ts keeps src/ free of import cycles, so the list is whole at load). */
const byName: ReadonlyMap<string, LlmTask<never, unknown>> = (() => {
  const map = new Map<string, LlmTask<never, unknown>>();
  for (const task of TASKS) {
    if (map.has(task.name)) throw new Error(`two built-in tasks are named ${task.name}`);
    map.set(task.name, task);
  }
  return map;
})();

/** The tasks by name. */
export function builtinTasks(): ReadonlyMap<string, LlmTask<never, unknown>> {
  return byName;
}

/** Runs a registered task's built-in method: what the worker does with `{ task, input }`. */
export function runBuiltinTask(name: string, input: unknown): unknown {
  const task = builtinTasks().get(name);
  if (!task) throw new Error(`the built-in task ${name} is not registered in src/workers/tasks.ts`);
  return (task as LlmTask<unknown, unknown>).builtin(input);
}
