import type { ToolInputField, ToolOutputField } from '../../db/schema/index.js';
import { iso } from '../../http/schemas.js';
import type { DataStepRow, ToolWithAgents } from './tools.repository.js';

import { MASK } from '../../secrets.js';

export { MASK };

/** The JSON Schema of declared fields: `{}` while there are none (as the specification shows at creation). */
export function fieldsSchema(fields: readonly (ToolInputField | ToolOutputField)[]): Record<string, unknown> {
  if (fields.length === 0) return {};
  const required = fields.filter((f) => 'required' in f && f.required).map((f) => f.name);
  return {
    type: 'object',
    properties: Object.fromEntries(
      fields.map((f) => [f.name, { type: f.type, ...('description' in f && f.description ? { description: f.description } : {}) }]),
    ),
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

export function presentTool(tool: ToolWithAgents) {
  return {
    id: tool.id,
    companyId: tool.workspaceId,
    name: tool.name,
    description: tool.description,
    alwaysGet: tool.alwaysGet,
    source: tool.source,
    inputFields: tool.inputFields,
    outputFields: tool.outputFields,
    inputSchema: fieldsSchema(tool.inputFields),
    outputSchema: fieldsSchema(tool.outputFields),
    botIds: tool.botIds,
    createdAt: iso(tool.createdAt),
    updatedAt: iso(tool.updatedAt),
  };
}

/** A stored value with its sensitive parts (`{ hide: true, ... }`) shown as `********`. */
export function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked);
  if (value && typeof value === 'object') {
    if ((value as { hide?: unknown }).hide === true) return MASK;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v)]));
  }
  return value;
}

export function presentDataStep(step: DataStepRow) {
  return {
    id: step.id,
    name: step.name,
    toolId: step.toolId,
    stepNumber: step.stepNumber,
    method: step.requestMethod,
    url: step.requestUrl,
    headers: masked(step.requestHeaders) as Record<string, unknown>,
    body: masked(step.requestBody ?? null),
    saveFromResponse: step.responseMapping,
    createdAt: iso(step.createdAt),
    updatedAt: iso(step.updatedAt),
  };
}
