export { loadMcpConfig, type McpConfig } from './config.js';
export { createServer, SERVER_INFO } from './create-server.js';
export { FileshiftContext } from './fileshift-context.js';
export { serveHttp } from './http-transport.js';
export { openContext } from './startup.js';
