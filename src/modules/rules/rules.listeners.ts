import { defineListener, registeredListener } from '../../events/bus.js';
import { AppError } from '../../http/errors.js';
import { listRulesNamingTool } from './rules.repository.js';

/**
 * An action that a rule flow calls cannot be deleted: the delete's transaction fails with a 409
 * that names the rules (change or delete them first).
 */
export const ruleListeners = [
  registeredListener(
    defineListener({
      name: 'rules.keep-called-actions',
      event: 'action.deleted',
      phase: 'transaction',
      handle: async (ctx, { toolId, name }) => {
        const naming = await listRulesNamingTool(ctx.db, ctx.workspaceId, toolId);
        if (naming.length) {
          throw new AppError('conflict', `"${name}" is called by the flow of ${naming.map((r) => `rule "${r.name}" (${r.id})`).join(', ')}; change those rules first`);
        }
      },
    }),
  ),
];
