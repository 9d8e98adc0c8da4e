export { mcpRoutes } from './mcp.routes.js';
export { createMcpServer, type McpSession } from './mcp.server.js';
export { relayMcpOverStdio, serveMcpOverStdio, type StdioSession } from './mcp.stdio.js';
