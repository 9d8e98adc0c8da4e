import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { STATUS_CODES } from 'node:http';
import { type DatabaseUnavailableError, databaseUnavailable } from '../db/database-unavailable.js';
import { AppError, errorBody } from './errors.js';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[]; message?: string } };
}

const CONTEXT_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** "body.name: Too small: expected string to have >=1 characters" for each failing field. */
function validationMessage(error: FastifyError): string {
  const where = CONTEXT_NAMES[error.validationContext ?? ''] ?? error.validationContext ?? 'request';
  const issues = (error.validation ?? []) as ValidationIssue[];
  const parts = issues.map((issue) => {
    const segments = issue.params?.issue?.path ?? issue.instancePath?.split('/').filter(Boolean) ?? [];
    const field = [where, ...segments.map(String)].join('.');
    return `${field}: ${issue.params?.issue?.message ?? issue.message ?? 'invalid'}`;
  });
  return parts.length ? parts.join('; ') : error.message;
}

/**
 * SQLSTATEs that mean a concurrent request changed what this one relied on (a referenced row was
 * deleted, a deadlock or serialization failure): the client may retry, so 409 rather than 500.
 */
const CONCURRENCY_SQLSTATES = new Set(['23503', '40001', '40P01']);

/**
 * The embedded database's thread stopped (db/pglite-thread.ts): a transaction the request had open
 * was rolled back with it, and a folder's database restarts.
 */
function unavailableMessage(error: DatabaseUnavailableError): string {
  return error.restarting ? 'the embedded database is restarting; retry' : 'the embedded database stopped; Parley needs a restart';
}
const DATABASE_RETRY_AFTER_S = 1;

function sqlState(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * What a caller outside an HTTP route (an MCP tool call) tells its client of a service's error, as
 * the renderer below would answer it: an AppError's status and message, 409 for a concurrent
 * change, else a generic 500 naming the request id (`unexpected`: the caller logs the error).
 */
export function describeError(error: unknown, requestId: string): { statusCode: number; message: string; unexpected: boolean } {
  if (error instanceof AppError) return { statusCode: error.statusCode, message: error.message, unexpected: false };
  const unavailable = databaseUnavailable(error);
  if (unavailable) return { statusCode: 503, message: unavailableMessage(unavailable), unexpected: false };
  const state = sqlState(error);
  if (state && CONCURRENCY_SQLSTATES.has(state)) {
    return { statusCode: 409, message: 'a resource this request depends on was changed concurrently; retry', unexpected: false };
  }
  return { statusCode: 500, message: `internal server error (request id ${requestId})`, unexpected: true };
}

/**
 * The one renderer: every error becomes `{ statusCode, message, error }`. Client errors raised by
 * Fastify or its plugins keep their status; anything unexpected is logged and answered with a
 * generic 500.
 */
export function registerErrorRenderer(app: FastifyInstance, bodyLimitBytes: number): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(error.statusCode).send(errorBody(error.statusCode, error.message));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send(errorBody(400, validationMessage(error)));
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).send(errorBody(413, `request body is larger than the limit of ${bodyLimitBytes} bytes`));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send(errorBody(415, `unsupported Content-Type ${request.headers['content-type'] ?? '(none)'}`));
    }
    const unavailable = databaseUnavailable(error);
    if (unavailable) {
      request.log.warn({ err: error, reqId: request.id }, 'the embedded database is unavailable');
      if (unavailable.restarting) reply.header('retry-after', String(DATABASE_RETRY_AFTER_S));
      return reply.code(503).send(errorBody(503, unavailableMessage(unavailable)));
    }
    const state = sqlState(error);
    if (state && CONCURRENCY_SQLSTATES.has(state)) {
      request.log.warn({ err: error, reqId: request.id }, 'concurrent change');
      return reply.code(409).send(errorBody(409, 'a resource this request depends on was changed concurrently; retry'));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500 && !isResponseSerializationError(error)) {
      return reply.code(status).send(errorBody(status, error.message));
    }
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return reply.code(500).send(errorBody(500, `internal server error (request id ${request.id})`));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody(404, `route ${request.method} ${request.url.split('?')[0]} not found`));
  });
}

/**
 * Errors Fastify's router raises before any route or hook runs (Fastify's `frameworkErrors`): a
 * path that is not valid percent-encoding (400), a path parameter over the router's length limit
 * (414), a failing route constraint (500). Same body as every other error.
 */
export function renderFrameworkError(maxParamLength: number) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    reply.header('X-Request-Id', request.id);
    if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      reply.code(414).send(errorBody(414, `path: a path parameter is longer than ${maxParamLength} characters`));
    } else if (error.code === 'FST_ERR_BAD_URL') {
      const path = request.url.split('?')[0]!;
      reply.code(400).send(errorBody(400, `path: ${path.length > 200 ? `${path.slice(0, 200)}…` : path} is not valid percent-encoding`));
    } else {
      request.log.error({ err: error, reqId: request.id }, 'router error');
      reply.code(500).send(errorBody(500, `internal server error (request id ${request.id})`));
    }
  };
}

/** Node's HTTP parser errors, answered on the socket before a request exists (Fastify's `clientErrorHandler`). */
export function renderClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return void socket.destroy();
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'the request headers are larger than the server accepts']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'the request was not received in time']
        : [400, `malformed HTTP request (${error.code ?? 'parse error'})`];
  const body = JSON.stringify(errorBody(status, message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** An `Expect` header other than 100-continue (Node's `checkExpectation`): 417 with the error body. */
export function renderFailedExpectation(request: IncomingMessage, response: ServerResponse): void {
  const body = JSON.stringify(errorBody(417, `header.expect: "${String(request.headers.expect).slice(0, 100)}" is not supported; only 100-continue is`));
  response.writeHead(417, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  response.end(body);
}
