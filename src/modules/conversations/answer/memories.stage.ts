import type { WorkspaceContext } from '../../../context.js';
import { type ConversationRow, earlierConversations } from '../conversations.repository.js';

const MEMORY_LIMIT = 3;

/** Stage 9: the customer's earlier conversations (by email or external id), most recent first. */
export async function relevantMemories(ctx: WorkspaceContext, conversation: ConversationRow) {
  const email = typeof conversation.userAttributes.email === 'string' ? conversation.userAttributes.email : undefined;
  const externalId = conversation.externalId ?? undefined;
  if (!email && !externalId) return [];
  const rows = await earlierConversations(ctx.db, ctx.workspaceId, { email, externalId }, conversation.id, MEMORY_LIMIT);
  return rows.map((r) => ({ id: r.id, summary: `${r.subjectPreview} (${r.status})`, conversationEndedAt: r.lastMessageAt.toISOString() }));
}
