import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.data/**', '**/generated/**', '**/test/corpus/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          enforceBuildableLibDependency: false,
          depConstraints: [
            // Pure libraries: no Nest, no database, no network, and no server code.
            { sourceTag: 'scope:pure', onlyDependOnLibsWithTags: ['scope:pure'] },
            // The SDK, the agent wallet and the MCP app never import server code.
            { sourceTag: 'scope:client', onlyDependOnLibsWithTags: ['scope:client', 'scope:pure', 'scope:testing'] },
            { sourceTag: 'scope:server', onlyDependOnLibsWithTags: ['scope:server', 'scope:pure', 'scope:testing'] },
            // Test support shared by client and server tests: the stores and the built service, no project's code.
            { sourceTag: 'scope:testing', onlyDependOnLibsWithTags: ['scope:pure'] },
          ],
          banTransitiveDependencies: false,
        },
      ],
    },
  },
  {
    // The SDK's examples and demo import the package by its published name, as its users do.
    files: ['libs/sdk/examples/**/*.ts', 'libs/sdk/demo/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    // Tool configuration files may reach the shared workspace configuration by path.
    files: ['**/vitest.config.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    files: ['libs/formats/src/**/*.ts', 'libs/detection/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@nestjs/*', 'typeorm', 'pg', 'bullmq', 'ioredis', 'node:fs', 'node:net', 'node:http', 'fs', 'net', 'http'], message: 'Pure libraries do no I/O and know nothing of Nest.' }] },
      ],
    },
  },
  {
    // The SDK's main entry runs in browsers too: Node-only code lives in src/node (the /node entry).
    files: ['libs/sdk/src/**/*.ts'],
    ignores: ['libs/sdk/src/node/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*', 'fs', 'path', 'os', 'crypto', 'stream', 'buffer'], message: 'The SDK main entry must run in browsers: put Node-only code in src/node.' }] }],
      'no-restricted-globals': ['error', { name: 'Buffer', message: 'Not in browsers: use Uint8Array, TextEncoder, btoa.' }, { name: 'process', message: 'Not in browsers.' }],
    },
  },
);
