import swc from 'unplugin-swc';
import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config';

/**
 * Suites that test the engines rather than our code on a given Node (a conversion through each
 * engine, every pair of the matrix). `npm test` runs them; a run on another Node
 * (`tools/engines/test-on-node.sh`) sets FILESHIFT_ENGINE_SUITES=skip, because the engines'
 * behaviour does not change with the Node that starts them and CI runs the heaviest suites once.
 */
export interface ProjectTestOptions {
  engineSuites?: string[];
}

/**
 * Shared Vitest settings. SWC (not esbuild) compiles the tests because Nest's dependency
 * injection needs decorator metadata, and the custom export condition makes workspace
 * packages resolve to their TypeScript sources, so tests never need a prior build.
 */
export function projectTestConfig(overrides: ViteUserConfig['test'] = {}, options: ProjectTestOptions = {}): ViteUserConfig {
  const skipped = process.env.FILESHIFT_ENGINE_SUITES === 'skip' ? (options.engineSuites ?? []) : [];
  if (skipped.length > 0) console.log(`engine suites left to the run on the default Node: ${skipped.join(', ')}`);
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
      exclude: [...configDefaults.exclude, ...skipped],
      testTimeout: 60_000,
      hookTimeout: 120_000,
      ...overrides,
    },
  });
}
