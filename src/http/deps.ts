import type { Ports } from '../context.js';
import type { Database } from '../db/database.js';
import type { Principal } from '../modules/api-keys/index.js';
import type { RouteAuth } from './route.js';

/** Everything buildApp needs: the process's ports, and the database for readiness checks. */
export interface AppDeps {
  readonly ports: Ports;
  readonly database: Database;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    /** How the route writes its answers (RouteDeclaration.serializer); the tests' response mode reads it. */
    serializer?: 'schema' | 'presenter';
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}
