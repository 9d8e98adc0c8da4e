import { randomUUID } from 'node:crypto';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { contextForKey, type Ports } from '../../context.js';
import type { Database } from '../../db/database.js';
import { KeyAuthenticator, requireScope } from '../../http/auth.js';
import { AppError, type ErrorBody } from '../../http/errors.js';
import { createMcpServer } from './mcp.server.js';

/** A stdio MCP server that runs until its client closes stdin (or the transport fails). */
export interface StdioSession {
  closed: Promise<void>;
}

/** Closes when stdin ends: an MCP client ends a stdio server by closing its input. */
function untilStdinEnds(close: () => void): void {
  process.stdin.once('end', close);
  process.stdin.once('close', close);
}

/**
 * `parley mcp` on the database: the MCP server over stdin/stdout, acting with `apiKey` in its
 * workspace. The key is verified as the API verifies it (auth.ts, with its `read` scope, as POST
 * /mcp requires) before anything is served, and again at each call, so a revoked or expired key
 * stops working within PARLEY_AUTH_CACHE_MS. Throws the API's 401/403 when it is refused at start.
 */
export async function serveMcpOverStdio(ports: Ports, database: Database, apiKey: string): Promise<StdioSession> {
  const authenticator = new KeyAuthenticator({ ports, database });
  const admitted = async () => {
    const principal = await authenticator.authenticate(apiKey);
    requireScope(principal, 'read');
    return principal;
  };
  await admitted();
  const server = createMcpServer(
    { context: async () => contextForKey(ports, await admitted(), randomUUID()) },
    (error) => ports.log.error({ err: error }, 'MCP call failed'),
  );
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  await server.connect(new StdioServerTransport());
  untilStdinEnds(() => void server.close());
  return { closed };
}

/** The JSON-RPC error answering `message` when the server refused it over HTTP (only requests get one). */
function refusal(message: JSONRPCMessage, text: string): JSONRPCMessage | undefined {
  if (!('method' in message) || !('id' in message)) return undefined;
  return { jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InternalError, message: text } };
}

/** Sends one message to the server's POST /mcp; its answers (none for a notification), or the API's error. */
async function post(url: string, apiKey: string, message: JSONRPCMessage): Promise<JSONRPCMessage[]> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(message),
  });
  const text = await response.text();
  if (response.status === 202) return [];
  const body = text ? (JSON.parse(text) as unknown) : undefined;
  if (!response.ok && body && typeof body === 'object' && 'statusCode' in body) {
    const error = body as ErrorBody;
    throw new AppError(error.statusCode === 401 ? 'unauthorized' : error.statusCode === 403 ? 'forbidden' : 'bad_gateway', error.message);
  }
  if (body === undefined) return [];
  return (Array.isArray(body) ? body : [body]) as JSONRPCMessage[];
}

/**
 * `parley mcp` beside a running embedded server: PGlite allows one process per data folder, so
 * this process relays each message between stdin/stdout and that server's POST /mcp (found in the
 * folder's lock file, as the operator's CLI finds its admin API). The same tools answer, from the
 * process that holds the database. The key is tried once first, so a refused key fails at start.
 */
export async function relayMcpOverStdio(serverUrl: string, apiKey: string, log: Logger): Promise<StdioSession> {
  const url = `${serverUrl}/mcp`;
  await post(url, apiKey, { jsonrpc: '2.0', id: 0, method: 'ping' });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  // Answers go out in the order their messages came in, as one server would send them.
  let queue = Promise.resolve();
  transport.onmessage = (message) => {
    queue = queue.then(async () => {
      try {
        for (const answer of await post(url, apiKey, message)) await transport.send(answer);
      } catch (error) {
        log.warn({ err: error }, 'the MCP message could not be relayed to the server');
        const answer = refusal(message, error instanceof Error ? error.message : String(error));
        if (answer) await transport.send(answer);
      }
    });
  };
  transport.onerror = (error) => log.warn({ err: error }, 'MCP stdio transport error');
  await transport.start();
  untilStdinEnds(() => void queue.then(() => transport.close()));
  return { closed };
}
