import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WorkspaceContext } from '../../context.js';
import { createMcpServer } from './mcp.server.js';

/**
 * Answers one POST /mcp with the SDK's Streamable HTTP transport, stateless: a server and a
 * transport of this request only (no session id, no server-sent stream), in JSON response mode.
 * So any API process of a deployment answers any request, as every other route. The route has
 * verified the key (and its `read` scope) already; the request's context is the session's.
 */
export async function serveMcpRequest(ctx: WorkspaceContext, request: FastifyRequest, reply: FastifyReply, body: unknown): Promise<void> {
  const server = createMcpServer({ context: async () => ctx }, (error) => ctx.log.error({ err: error, reqId: ctx.requestId }, 'MCP request failed'));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  // Headers set before the handler (X-Request-Id, the rate limit's) go out with the transport's answer.
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
  reply.hijack();
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request.raw, reply.raw, body);
}
