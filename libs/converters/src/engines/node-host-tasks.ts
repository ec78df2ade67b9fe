import { runNodeHost } from '../platform/node-host/node-host.main.js';
import { HOST_TASKS } from './host-tasks.js';

// The Node host's program (esbuild bundles it into dist/node-host/node-host.mjs): the platform's host, running the
// engines' tasks.
await runNodeHost(HOST_TASKS);
