import { hostedEngine } from '../../platform/node-host/hosted-engine.task.js';
import { SHARP_DESCRIPTOR } from './sharp.descriptor.js';

/** The tasks sharp runs in the Node host (see node-host-tasks.ts): its conversions. */
export const SHARP_HOST_TASKS = [
  // One libvips thread: the pool runs one host per core.
  hostedEngine(SHARP_DESCRIPTOR.id, async () => new (await import('./sharp.runtime.js')).SharpImageRuntime(1)),
];
