import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { finishDocument } from './openapi-document.js';
import { UPLOAD_BODY_KEY } from './route.js';

/** The zod transform, plus the multipart body that upload routes declare outside `body`. */
const transform: typeof jsonSchemaTransform = (input) => {
  const output = jsonSchemaTransform(input);
  const schema = output.schema as Record<string, unknown>;
  if (schema[UPLOAD_BODY_KEY]) {
    schema.body = schema[UPLOAD_BODY_KEY];
    delete schema[UPLOAD_BODY_KEY];
  }
  return output;
};

/**
 * The license object of package.json's `license`: an SPDX expression, or npm's `UNLICENSED` (no
 * license granted), which SPDX spells as a custom reference.
 */
function licenseOf(license: string): { name: string; identifier: string } {
  return { name: license, identifier: license === 'UNLICENSED' ? 'LicenseRef-UNLICENSED' : license };
}

const DESCRIPTION = `Parley's HTTP API. Every workspace route takes \`Authorization: Bearer parley_...\`,
a workspace API key with scope \`read\` or \`write\`; the widget's visitor routes (\`/v2/widget/...\`) a widget
key (\`pk_...\`); admin routes take the operator's admin token.
Every error answers \`{ statusCode, message, error }\`; every answer carries \`X-Request-Id\`.`;

/**
 * OpenAPI 3.1 generated from the same zod schemas that validate requests (finished by
 * openapi-document.ts), and a UI at /docs.
 */
export async function registerOpenApi(app: FastifyInstance, about: { version: string; license: string; publicUrl: string | undefined }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Parley API', version: about.version, description: DESCRIPTION, license: licenseOf(about.license) },
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'Workspace API key (`parley_...`).' },
          widgetKey: { type: 'http', scheme: 'bearer', description: 'Widget key (`pk_...`) of one agent, from one of its allowed origins (docs/widget.md).' },
          adminToken: { type: 'http', scheme: 'bearer', description: 'Operator admin token (`PARLEY_ADMIN_TOKEN`).' },
        },
      },
    },
    transform,
    transformObject: (input) => finishDocument(jsonSchemaTransformObject(input) as Record<string, unknown>, { publicUrl: about.publicUrl }) as ReturnType<typeof jsonSchemaTransformObject>,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true } });
}
