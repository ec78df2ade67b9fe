import { afterAll } from 'vitest';
import type { EngineDescriptor } from '../../src/platform/engine-descriptor.js';
import { NodeHostPool } from '../../src/platform/node-host/node-host.pool.js';
import { NodeHostedRuntime } from '../../src/platform/node-host/node-hosted.runtime.js';

/**
 * An engine as the worker runs it: in the Node host (a sandboxed process of a pool of its own), stopped after
 * the file's tests. The host runs the package's built bundle (`nx run converters:build`, a dependency of `test`).
 */
export function nodeHostedRuntime(descriptor: EngineDescriptor, engine: string): NodeHostedRuntime {
  const pool = new NodeHostPool({ size: 1 });
  afterAll(() => pool.stop());
  return new NodeHostedRuntime(descriptor, engine, pool);
}
