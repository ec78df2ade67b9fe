import { hostedEngine } from '../../platform/node-host/hosted-engine.task.js';
import { OFFICE_MARKDOWN_DESCRIPTOR } from './office-markdown.descriptor.js';

/** The tasks office-markdown runs in the Node host (see node-host-tasks.ts): its conversions. */
export const OFFICE_MARKDOWN_HOST_TASKS = [hostedEngine(OFFICE_MARKDOWN_DESCRIPTOR.id, async () => new (await import('./office-markdown.runtime.js')).OfficeMarkdownRuntime())];
