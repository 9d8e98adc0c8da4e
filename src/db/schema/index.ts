/** Every table of Parley. drizzle-kit generates `migrations/` from this module. */
export * from './workspaces.js';
export * from './agents.js';
export * from './knowledge.js';
export * from './sources.js';
export * from './ai.js';
export * from './rules.js';
export * from './tools.js';
export * from './conversations.js';
export * from './refine.js';
export * from './workers.js';
export * from './limits.js';
export * from './widget.js';
export * from './webhooks.js';
export * from './testing.js';
export * from './audit.js';
