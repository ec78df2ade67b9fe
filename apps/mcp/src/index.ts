export { loadMcpConfig, type McpConfig } from './config.js';
