export { createHttpApp, createWorkerContext } from './bootstrap.js';
export { loadConfig, type AppConfig } from './config/app-config.js';
