import type { INestApplicationContext } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';

const SHUTDOWN_HOOKS = ['onModuleDestroy', 'beforeApplicationShutdown', 'onApplicationShutdown'] as const;

/**
 * Names the shutdown hooks of `app` that have started and not ended: when a close does not end, what it waits on. Wraps
 * every provider's and controller's shutdown hooks (the framework's own too, such as the queue workers' closing).
 */
export function traceShutdown(app: INestApplicationContext): { waitingOn(): string[] } {
  const running = new Map<string, number>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of [...module.providers.values(), ...module.controllers.values()]) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') continue;
      for (const hook of SHUTDOWN_HOOKS) {
        const original = instance[hook];
        if (typeof original !== 'function') continue;
        const name = `${String(wrapper.name)}.${hook}`;
        instance[hook] = async (...args: unknown[]) => {
          running.set(name, Date.now());
          try {
            return await (original as (...a: unknown[]) => unknown).apply(instance, args);
          } finally {
            running.delete(name);
          }
        };
      }
    }
  }
  return {
    waitingOn: () => [...running].map(([name, since]) => `${name} (${Math.round((Date.now() - since) / 1000)} s)`),
  };
}

/** What keeps the process alive besides hooks: open handles, by kind. */
export function activeResources(): string {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts].map(([kind, count]) => `${kind} ×${count}`).join(', ');
}
