// Every AI task's output schema (src/ai/contracts/) is one a model with strict structured output
// accepts: the AI SDK sends its JSON schema as the schema's input side, and a strict provider
// (OpenAI's default) refuses a schema with a property left out of `required`. So contracts say
// "nullable", never "optional" or a default, at every depth.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { builtinTasks } from '../../src/workers/tasks.js';

/** The paths of properties a strict provider would refuse: present in `properties`, absent from `required`. */
function optionalPaths(node: unknown, path: string): string[] {
  if (!node || typeof node !== 'object') return [];
  const n = node as { type?: unknown; properties?: Record<string, unknown>; required?: string[] } & Record<string, unknown>;
  const out: string[] = [];
  if (n.properties) {
    const required = new Set(n.required ?? []);
    for (const [key, child] of Object.entries(n.properties)) {
      if (!required.has(key)) out.push(`${path}.${key}`);
      out.push(...optionalPaths(child, `${path}.${key}`));
    }
  }
  for (const key of ['items', 'anyOf', 'oneOf', 'allOf']) {
    const child = n[key];
    if (Array.isArray(child)) child.forEach((c, i) => out.push(...optionalPaths(c, `${path}.${key}[${i}]`)));
    else if (child) out.push(...optionalPaths(child, `${path}.${key}`));
  }
  return out;
}

describe('AI task contracts', () => {
  it('every output property is required at every depth (nullable, never optional or defaulted)', () => {
    const found = [...builtinTasks()].flatMap(([name, task]) => optionalPaths(z.toJSONSchema(task.schema as z.ZodType, { target: 'draft-7', io: 'input' }), name));
    assert.deepEqual(found, []);
  });
});
