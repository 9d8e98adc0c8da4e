import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
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
