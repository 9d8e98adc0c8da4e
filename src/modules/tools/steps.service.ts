import { randomUUID } from 'node:crypto';
import { authorOf, inTransaction, type WorkspaceContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { SecretBox } from '../../secrets.js';
import { runStep, type StepRecord } from './engine.service.js';
import { MASK } from './tools.presenter.js';
import type { DataStepRow } from './tools.repository.js';
import { findTool } from './tools.repository.js';
import { deleteStep as deleteStepRow, findStep, insertStep, listSteps as listStepRows, stepCount, type StepValues, updateStep as updateStepRow } from './steps.repository.js';
import { STEP_LIMITS } from './steps.schemas.js';

type Ctx = WorkspaceContext;

const notFound = () => new AppError('not_found', 'external API call step not found');

/** A stored sensitive value: `{ hide: true, sealed }` (never the clear value). */
interface SealedValue {
  hide: true;
  sealed: string;
}
const isSealedValue = (v: unknown): v is SealedValue =>
  v !== null && typeof v === 'object' && (v as { hide?: unknown }).hide === true && typeof (v as { sealed?: unknown }).sealed === 'string';

/**
 * What to store for a header or body value sent by a client, next to what is stored at the same
 * place: `{ hide: true, value }` is sealed; `********` (alone or as the value) keeps the stored
 * sealed value; a new plain string where a sealed value was replaces it and stays sealed. Throws a
 * 400 naming the field for a `hide` object without a string `value`.
 */
export function sealValues(box: SecretBox, next: unknown, stored: unknown, field: string): unknown {
  if (next !== null && typeof next === 'object' && !Array.isArray(next) && (next as { hide?: unknown }).hide === true) {
    const value = (next as { value?: unknown }).value;
    if (typeof value !== 'string' || Object.keys(next).some((k) => k !== 'hide' && k !== 'value')) {
      throw new AppError('bad_request', `${field}: a sensitive value is { "hide": true, "value": "<secret>" }`);
    }
    if (value === MASK && isSealedValue(stored)) return stored;
    return { hide: true, sealed: box.seal(value) };
  }
  if (typeof next === 'string' && isSealedValue(stored)) return next === MASK ? stored : { hide: true, sealed: box.seal(next) };
  if (Array.isArray(next)) return next.map((v, i) => sealValues(box, v, Array.isArray(stored) ? stored[i] : undefined, `${field}.${i}`));
  if (next !== null && typeof next === 'object') {
    const before = stored !== null && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
    return Object.fromEntries(Object.entries(next).map(([k, v]) => [k, sealValues(box, v, before[k], `${field}.${k}`)]));
  }
  return next;
}

async function requireToolOf(ctx: Pick<Ctx, 'db' | 'workspaceId'>, toolId: string): Promise<void> {
  if (!(await findTool(ctx.db, ctx.workspaceId, toolId, { lock: true }))) throw new AppError('not_found', 'action or attribute not found');
}

/** 400 when a tool would have more than 10 steps; answers the next step number. */
async function checkRoom(ctx: Pick<Ctx, 'db' | 'workspaceId'>, toolId: string, exceptId?: string): Promise<number> {
  const { count, last } = await stepCount(ctx.db, ctx.workspaceId, toolId, exceptId);
  if (count >= STEP_LIMITS.stepsPerTool) throw new AppError('bad_request', `body.toolId: an action or attribute has at most ${STEP_LIMITS.stepsPerTool} steps`);
  return last + 1;
}

export async function listSteps(ctx: Ctx, toolId?: string): Promise<DataStepRow[]> {
  if (toolId && !(await findTool(ctx.db, ctx.workspaceId, toolId))) throw new AppError('not_found', 'action or attribute not found');
  return listStepRows(ctx.db, ctx.workspaceId, toolId);
}

export async function getStep(ctx: Ctx, id: string): Promise<DataStepRow> {
  const step = await findStep(ctx.db, ctx.workspaceId, id);
  if (!step) throw notFound();
  return step;
}

export interface StepInput {
  id?: string;
  name?: string;
  requestUrl?: string;
  requestMethod?: string;
  toolId?: string | null;
  stepNumber?: number;
  requestHeaders?: Record<string, unknown>;
  requestBody?: unknown;
  responseMapping?: Record<string, string>;
}

export async function createStep(ctx: Ctx, input: StepInput & { name: string; requestUrl: string; requestMethod: string }): Promise<DataStepRow> {
  return inTransaction(ctx, async (tx) => {
    let stepNumber = input.stepNumber ?? 1;
    if (input.toolId) {
      await requireToolOf(tx, input.toolId);
      const next = await checkRoom(tx, input.toolId);
      stepNumber = input.stepNumber ?? next;
    }
    const values: StepValues & { id?: string } = {
      ...(input.id ? { id: input.id } : {}),
      toolId: input.toolId ?? null,
      name: input.name,
      stepNumber,
      requestMethod: input.requestMethod,
      requestUrl: input.requestUrl,
      requestHeaders: sealValues(ctx.secrets, input.requestHeaders ?? {}, undefined, 'body.requestHeaders') as Record<string, unknown>,
      requestBody: input.requestBody === undefined ? null : sealValues(ctx.secrets, input.requestBody, undefined, 'body.requestBody'),
      responseMapping: input.responseMapping ?? {},
    };
    const row = await insertStep(tx.db, ctx.workspaceId, values, authorOf(ctx), ctx.clock.now());
    if (!row) throw new AppError('conflict', `body.id: a step ${input.id} already exists`);
    return row;
  });
}

/** Changes the fields given; sensitive values follow `sealValues` against the stored ones. */
export async function updateStep(ctx: Ctx, id: string, input: StepInput): Promise<DataStepRow> {
  return inTransaction(ctx, async (tx) => {
    const step = await findStep(tx.db, ctx.workspaceId, id, { lock: true });
    if (!step) throw notFound();
    const changes: Partial<StepValues> = {};
    if (input.toolId !== undefined && input.toolId !== step.toolId) {
      if (input.toolId) {
        await requireToolOf(tx, input.toolId);
        const next = await checkRoom(tx, input.toolId, id);
        changes.stepNumber = input.stepNumber ?? next;
      }
      changes.toolId = input.toolId;
    }
    if (input.stepNumber !== undefined) changes.stepNumber = input.stepNumber;
    if (input.name !== undefined) changes.name = input.name;
    if (input.requestUrl !== undefined) changes.requestUrl = input.requestUrl;
    if (input.requestMethod !== undefined) changes.requestMethod = input.requestMethod;
    if (input.responseMapping !== undefined) changes.responseMapping = input.responseMapping;
    if (input.requestHeaders !== undefined) {
      changes.requestHeaders = sealValues(ctx.secrets, input.requestHeaders, step.requestHeaders, 'body.requestHeaders') as Record<string, unknown>;
    }
    if (input.requestBody !== undefined) changes.requestBody = sealValues(ctx.secrets, input.requestBody, step.requestBody, 'body.requestBody');
    return updateStepRow(tx.db, ctx.workspaceId, id, changes, authorOf(ctx), ctx.clock.now());
  });
}

export async function deleteStep(ctx: Ctx, id: string): Promise<DataStepRow> {
  return inTransaction(ctx, async (tx) => {
    const step = await findStep(tx.db, ctx.workspaceId, id, { lock: true });
    if (!step) throw notFound();
    await deleteStepRow(tx.db, ctx.workspaceId, id);
    return step;
  });
}

// ---------------------------------------------------------------------------------------------
// Running

/**
 * Tests one step alone with `inputs` and, for the `${stepId.key}` it names, `previous` outputs of
 * earlier steps (by step id or name). Calls the real API; the record masks secrets.
 */
export async function testStep(ctx: Ctx, id: string, input: { inputs: Record<string, unknown>; previous?: Record<string, Record<string, unknown>> }): Promise<StepRecord> {
  const step = await getStep(ctx, id);
  return runStep(ctx, step, input.inputs, input.previous ?? {}, randomUUID());
}
