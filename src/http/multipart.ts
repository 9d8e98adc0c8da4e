import type {} from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from './errors.js';
import { unstorableTextPath } from './text-guard.js';

/** The file of a multipart upload, read into memory (bounded by `PARLEY_UPLOAD_LIMIT_BYTES`). */
export interface UploadedFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}

export interface Upload {
  file: UploadedFile;
  /** Text fields, validated by the declaration's `fields` schema. */
  fields: Record<string, unknown>;
}

/** How a multipart route documents its form in OpenAPI (the file field and the text fields). */
export interface UploadDeclaration {
  fileField: string;
  fileDescription: string;
  fields?: z.ZodObject;
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Reads a multipart form with exactly one file in `fileField` and optional text fields. A file
 * over the limit is a 413; a broken form, a missing or second file, or a bad field is a 400.
 */
export async function readUpload(request: FastifyRequest, declaration: UploadDeclaration, limitBytes: number): Promise<Upload> {
  let file: UploadedFile | undefined;
  const raw: Record<string, string> = {};
  try {
    for await (const part of request.parts({ limits: { fileSize: limitBytes, files: 2, fields: 20, fieldSize: 64 * 1024 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== declaration.fileField) {
          await part.toBuffer().catch(() => undefined);
          throw new AppError('bad_request', `body.${part.fieldname}: unexpected file field; send the file as "${declaration.fileField}"`);
        }
        if (file) throw new AppError('bad_request', `body.${declaration.fileField}: send exactly one file`);
        file = { filename: part.filename, mimetype: part.mimetype, data: await part.toBuffer() };
      } else {
        raw[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('payload_too_large', `the file is larger than the upload limit of ${limitBytes} bytes`);
    }
    if (code === 'FST_FILES_LIMIT') throw new AppError('bad_request', `body.${declaration.fileField}: send exactly one file`);
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') throw new AppError('bad_request', 'body: too many form fields');
    const status = statusOf(error);
    if (status === 413) throw new AppError('payload_too_large', 'the form is larger than the upload limit');
    throw new AppError('bad_request', `malformed multipart body: ${(error as Error).message}`);
  }
  if (!file) throw new AppError('bad_request', `body.${declaration.fileField}: a file is required`);
  // The form is read here, after the pre-validation text guard, so its text gets the same check.
  const unstorable = unstorableTextPath(raw, 'body') ?? unstorableTextPath({ filename: file.filename }, `body.${declaration.fileField}`);
  if (unstorable) throw new AppError('bad_request', `${unstorable}: contains a NUL character or invalid Unicode, which cannot be stored`);
  const parsed = (declaration.fields ?? z.object({})).strict().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = ['body', ...(issue?.path ?? []).map(String), ...(issue?.code === 'unrecognized_keys' ? issue.keys : [])].join('.');
    throw new AppError('bad_request', `${field}: ${issue?.message ?? 'invalid'}`);
  }
  return { file, fields: parsed.data };
}

/** The OpenAPI request body of a multipart route. */
export function uploadJsonSchema(declaration: UploadDeclaration): Record<string, unknown> {
  const fields = declaration.fields ? (z.toJSONSchema(declaration.fields, { io: 'input' }) as { properties?: object }) : {};
  return {
    type: 'object',
    required: [declaration.fileField],
    properties: {
      [declaration.fileField]: { type: 'string', format: 'binary', description: declaration.fileDescription },
      ...(fields.properties ?? {}),
    },
  };
}
