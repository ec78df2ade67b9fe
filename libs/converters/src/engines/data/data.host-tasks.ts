import { hostedEngine } from '../../platform/node-host/hosted-engine.task.js';
import { DATA_DESCRIPTOR } from './data.descriptor.js';

/** The tasks the data engine runs in the Node host (see node-host-tasks.ts): its conversions. */
export const DATA_HOST_TASKS = [hostedEngine(DATA_DESCRIPTOR.id, async () => new (await import('./data.runtime.js')).DataFormatsRuntime())];
