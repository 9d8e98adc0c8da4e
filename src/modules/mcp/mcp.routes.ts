import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { errorBody, errorBodySchema } from '../../http/errors.js';
import { defineRoute } from '../../http/route.js';
import { serveMcpRequest } from './mcp.http.js';

const tags = ['MCP'];

const jsonRpcMessageSchema = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number().int()]).optional().describe('a request\'s id; absent in a notification'),
    method: z.string().optional().describe('a request\'s or notification\'s method (initialize, tools/list, tools/call, resources/read...)'),
  })
  .meta({ id: 'JsonRpcMessage', description: 'A JSON-RPC 2.0 message of the Model Context Protocol.' });

const jsonRpcResponseSchema = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number().int(), z.null()]),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .meta({ id: 'JsonRpcResponse', description: 'The JSON-RPC 2.0 answer of a request (a tool error is a result with `isError: true`).' });

const NO_STREAM = 'this MCP endpoint is stateless: send each JSON-RPC message with POST /mcp (no session, no server-sent stream)';

/** What GET and DELETE answer: the transport's verbs a stateless server does not offer (405, `Allow: POST`). */
const notOffered = {
  tags,
  description: 'Always 405 with `Allow: POST`: MCP clients then use POST alone. docs/mcp.md describes the endpoint.',
  status: 405,
  response: errorBodySchema,
  handler: async ({ reply }: { reply: FastifyReply }) => {
    reply.header('allow', 'POST');
    return errorBody(405, NO_STREAM);
  },
};

export function mcpRoutes() {
  return [
    defineRoute({
      method: 'POST',
      url: '/mcp',
      auth: 'read',
      tags,
      summary: 'The MCP server (Streamable HTTP)',
      description:
        "Parley's Model Context Protocol server for AI assistants (docs/mcp.md): tools search_knowledge, get_article, ask_agent, " +
        'list_conversations, get_conversation, create_article_draft and propose_fix, and the resources parley://articles/{id} ' +
        '(Markdown) and parley://fix-sessions/{id}, in the workspace of the key. Streamable HTTP, stateless: every message is one ' +
        'POST (`Accept: application/json, text/event-stream`), answered with JSON (202 with no body for a notification); no ' +
        'session id. Tools that write need the `write` scope: with a read-only key they answer a tool error (`isError: true`) with ' +
        "the API's 403 message. Tool errors carry the API's message; another workspace's ids read as not found. Errors of the " +
        'protocol itself (406 without that Accept header) are JSON-RPC error bodies.',
      body: z.union([jsonRpcMessageSchema, z.array(jsonRpcMessageSchema).min(1)]),
      response: jsonRpcResponseSchema,
      errors: [406],
      handler: async ({ ctx, body, request, reply }) => {
        await serveMcpRequest(ctx, request, reply, body);
        // The transport has answered on the raw response (the reply is hijacked): nothing more to send.
        return undefined as never;
      },
    }),
    defineRoute({ method: 'GET', url: '/mcp', auth: 'none', summary: 'The MCP server: no server-sent stream (405)', ...notOffered }),
    defineRoute({ method: 'DELETE', url: '/mcp', auth: 'none', summary: 'The MCP server: no session to end (405)', ...notOffered }),
  ];
}
