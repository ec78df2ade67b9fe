import swc from 'unplugin-swc';
import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config';

/**
 * Shared Vitest settings. SWC (not esbuild) compiles the tests because Nest's dependency
 * injection needs decorator metadata, and the custom export condition makes workspace
 * packages resolve to their TypeScript sources, so tests never need a prior build.
 */
export function projectTestConfig(overrides: ViteUserConfig['test'] = {}): ViteUserConfig {
  return defineConfig({
    plugins: [
      swc.vite({
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
      }),
    ],
    resolve: { conditions: ['@fileshift/source'] },
    ssr: { resolve: { conditions: ['@fileshift/source'] } },
    test: {
      include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'],
      exclude: [...configDefaults.exclude],
      testTimeout: 60_000,
      hookTimeout: 120_000,
      ...overrides,
    },
  });
}
