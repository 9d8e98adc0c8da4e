// Shared pieces of the MCP tests: calling a tool through the SDK's client and reading its result.
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

export const TOOL_NAMES = ['search_knowledge', 'get_article', 'ask_agent', 'list_conversations', 'get_conversation', 'create_article_draft', 'propose_fix'] as const;

export type CallResult = Awaited<ReturnType<Client['callTool']>>;

export interface Article {
  id: string; title: string; mainKnowledge: string; agentInstruction: string; questions: string[]; keywords: string[]; isDraft: boolean;
  originalArticleId: string | null; originalArticleVersion: number | null; parentFolderId: string; origin: string;
}

export interface ProposeFixResult {
  sessionId: string; iterationId: string; status: string; finished: boolean; poll: { resource: string; route: string };
  session: { id: string; interactionId: string; targetEventId: string; latestIteration: { id: string; status: string } | null };
}

/**
 * Calls a tool that must succeed: its structured result, which its text content repeats as JSON,
 * and the resource links it sent.
 */
export async function callTool<T>(client: Client, name: string, args: Record<string, unknown>): Promise<{ structured: T; links: unknown[] }> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text?: string }[];
  assert.notEqual(result.isError, true, `${name} failed: ${content[0]?.text}`);
  assert.equal(content[0]?.type, 'text');
  assert.deepEqual(JSON.parse(content[0]!.text!), result.structuredContent, 'the text content is the structured result as JSON');
  return { structured: result.structuredContent as T, links: content.slice(1) };
}

/** Calls a tool that must fail: a tool result with isError and the API's message as its one text. */
export async function expectToolError(client: Client, name: string, args: Record<string, unknown>, message: string | RegExp): Promise<void> {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, true, `${name} should fail: ${JSON.stringify(result.content)}`);
  const content = result.content as { type: string; text: string }[];
  assert.equal(content.length, 1);
  if (typeof message === 'string') assert.equal(content[0]?.text, message);
  else assert.match(content[0]?.text ?? '', message);
  assert.equal(result.structuredContent, undefined);
}

/** An article's Markdown, read as its MCP resource. */
export async function markdownOf(client: Client, id: string): Promise<string> {
  const { contents } = await client.readResource({ uri: `parley://articles/${id}` });
  const [content] = contents;
  assert.ok(content && 'text' in content && contents.length === 1, JSON.stringify(contents));
  return content.text;
}
