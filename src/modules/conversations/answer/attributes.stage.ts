import type { WorkspaceContext } from '../../../context.js';
import { attributesForAgent } from '../../tools/index.js';
import type { ConversationRow } from '../conversations.repository.js';
import type { AnswerContext } from './input.stage.js';
import { errorText, stageSignal, type StageTrace } from './trace.js';
import type { ExecutedAttributeTrace } from './trace.schemas.js';

/**
 * Stage 2: the agent's attributes, in parallel within the stage budget. Each one's output lands in
 * `context.attributes.<name>`; a failed one is recorded and the agent answers without it.
 */
export async function runAttributes(
  ctx: WorkspaceContext,
  trace: StageTrace,
  agentId: string,
  conversation: ConversationRow,
  context: AnswerContext,
): Promise<ExecutedAttributeTrace[]> {
  const attributes = await attributesForAgent(ctx, agentId);
  const signal = stageSignal(ctx);
  return Promise.all(
    attributes.map(async (attribute) => {
      const inputs: Record<string, unknown> = {};
      for (const field of attribute.inputFields) {
        const value = conversation.userAttributes[field.name] ?? (field.name === 'externalId' ? conversation.externalId : undefined);
        if (value !== undefined && value !== null) inputs[field.name] = value;
      }
      try {
        const result = await Promise.race([
          attribute.run({ ...ctx, signal }, inputs),
          new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error(`the attribute took longer than ${ctx.config.answerStageTimeoutMs} ms`)), { once: true })),
        ]);
        if (result.success) context.attributes[attribute.name] = result.output;
        else trace.errors.push({ stage: 'attributes', message: `${attribute.name}: ${result.error?.message ?? 'failed'}` });
        return {
          id: attribute.id,
          name: attribute.name,
          success: result.success,
          extractedData: result.success ? result.output : null,
          results: result.steps.map((s) => ({ id: s.stepId, name: s.name, success: s.error === null, data: s.error ? { error: s.error.message, status: s.status } : s.responseBody })),
        };
      } catch (error) {
        trace.errors.push({ stage: 'attributes', message: `${attribute.name}: ${errorText(error)}` });
        return { id: attribute.id, name: attribute.name, success: false, extractedData: null, results: [{ id: attribute.id, name: attribute.name, success: false, data: { error: errorText(error) } }] };
      }
    }),
  );
}
