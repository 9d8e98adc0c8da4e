import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { KeyAuthenticator, registerAuth } from './http/auth.js';
import { registerConsole } from './http/console.js';
import { registerWidget } from './http/widget.js';
import type { AppDeps } from './http/deps.js';
import { registerErrorRenderer, renderClientError, renderFailedExpectation, renderFrameworkError } from './http/error-renderer.js';
import { Metrics } from './http/metrics.js';
import { registerOpenApi } from './http/openapi.js';
import { createRequestCounter, registerRateLimit } from './http/rate-limit.js';
import { registerRoutes } from './http/route.js';
import { registerTextGuard } from './http/text-guard.js';
import { adminRoutes } from './modules/admin/index.js';
import { auditRoutes } from './modules/audit/index.js';
import { agentRoutes, promptRoutes } from './modules/agents/index.js';
import { analyticsRoutes, conversationRoutes } from './modules/conversations/index.js';
import { providerRoutes } from './modules/providers/index.js';
import { mcpRoutes } from './modules/mcp/index.js';
import { refineRoutes } from './modules/refine/index.js';
import { testingRoutes } from './modules/testing/index.js';
import { webhookRoutes } from './modules/webhooks/index.js';
import { articleRoutes, folderRoutes, searchRoutes, treeRoutes } from './modules/knowledge/index.js';
import { generationRoutes } from './modules/generation/index.js';
import { sourceRoutes } from './modules/sources/index.js';
import { guardrailRoutes } from './modules/guardrails/index.js';
import { replyRuleRoutes } from './modules/reply-rules/index.js';
import { ruleRoutes } from './modules/rules/index.js';
import { systemRoutes } from './modules/system/index.js';
import { tagRoutes } from './modules/tags/index.js';
import { stepRoutes, toolRoutes } from './modules/tools/index.js';
import { registerWidgetCors, visitorRateLimit, visitorRoutes, VisitorStreams, widgetKeyRoutes } from './modules/widget/index.js';
import { workspaceRoutes } from './modules/workspaces/index.js';
import { license, version } from './version.js';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
/** The longest path parameter the router takes (Fastify's default); longer is a 414. */
const MAX_PARAM_LENGTH = 100;

/** Builds the HTTP app on the given dependencies; main.ts listens, tests listen on port 0. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, queue, log } = deps.ports;
  const app = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    bodyLimit: config.bodyLimitBytes,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
    },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Errors raised before a route runs get the same body as every other (src/http/error-renderer.ts).
    frameworkErrors: renderFrameworkError(MAX_PARAM_LENGTH),
    clientErrorHandler: renderClientError,
  });
  app.server.on('checkExpectation', renderFailedExpectation);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // JSON routes take JSON only: a text/plain body is a 415, not a string to validate.
  app.removeContentTypeParser('text/plain');

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  registerErrorRenderer(app, config.bodyLimitBytes);
  registerTextGuard(app);

  // Multipart forms are read by upload routes only (src/http/multipart.ts), with the upload limit.
  await app.register(multipart, { limits: { fileSize: config.uploadLimitBytes, files: 2 } });

  const metrics = new Metrics(queue);
  metrics.register(app);
  await registerOpenApi(app, { version, license, publicUrl: config.publicUrl });

  // Before authentication: a visitor's 401, 403 and 429 carry CORS headers; preflights need no key.
  await registerWidgetCors(app, deps.ports.db);
  const authenticator = new KeyAuthenticator(deps);
  registerAuth(app, deps, authenticator);
  registerRateLimit(
    app,
    { ...config.rateLimit, extra: visitorRateLimit(config.widget.visitorRateLimit) },
    createRequestCounter(deps.database, config, log),
  );
  const streams = new VisitorStreams({ pollMs: config.widget.streamPollMs, heartbeatMs: config.widget.heartbeatMs, db: deps.ports.db, log, events: deps.ports.events });
  metrics.observeStreams(() => streams.stats());
  // Open event streams would hold the server open: they end first when it closes.
  app.addHook('preClose', async () => streams.closeAll());

  registerRoutes(app, deps, [
    ...systemRoutes(app, deps.database, queue, metrics, config.jobs.workerTimeoutSeconds),
    ...workspaceRoutes(authenticator),
    ...agentRoutes(),
    ...promptRoutes(),
    ...articleRoutes(),
    ...folderRoutes(),
    ...treeRoutes(),
    ...searchRoutes(),
    ...generationRoutes(),
    ...sourceRoutes(),
    ...providerRoutes(),
    ...tagRoutes(),
    ...ruleRoutes(),
    ...replyRuleRoutes(),
    ...guardrailRoutes(),
    ...toolRoutes(),
    ...stepRoutes(),
    ...conversationRoutes(),
    ...analyticsRoutes(),
    ...widgetKeyRoutes(authenticator),
    ...visitorRoutes(streams),
    ...refineRoutes(),
    ...webhookRoutes(),
    ...testingRoutes(),
    ...mcpRoutes(),
    ...auditRoutes(),
    ...adminRoutes(authenticator),
  ]);
  await registerConsole(app, config.consoleDir);
  registerWidget(app, deps.database.db, { dir: config.widgetDir, publicUrl: config.publicUrl });
  return app;
}
