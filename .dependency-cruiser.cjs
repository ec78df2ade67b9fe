/* global module */
// The layering of the service and of the converters, checked by `npm run lint:layers` (run by the lint suite).
// Type-only imports count for every layering rule (a type is a dependency of the design), but not for cycles: a
// cycle through `import type` is erased by the compiler and cannot leave a module half-initialised at run time.

const API = '^apps/api/src/';
const ENGINES = '^libs/converters/src/engines/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'platform-knows-no-engine',
      comment: 'The platform (sandbox, hosts, planning) serves any engine: an engine plugs in by its descriptor, so the platform never names one.',
      severity: 'error',
      from: { path: '^libs/converters/src/platform/' },
      to: { path: ENGINES },
    },
    {
      name: 'engines-stay-apart',
      comment:
        'An engine is one folder that can be added or removed alone: code two engines share lives in src/shared/. Only the registries directly in engines/ list every engine.',
      severity: 'error',
      from: { path: `${ENGINES}([^/]+)/` },
      to: { path: ENGINES, pathNot: [`${ENGINES}$1/`] },
    },
    {
      name: 'worker-knows-no-api',
      comment:
        'The worker role runs jobs, not HTTP APIs: what it needs of the APIs (a sold result, the ledger, expiring uploads) comes through ports the core owns, bound by the composition root (app.module.ts).',
      severity: 'error',
      from: { path: `${API}worker\\.module\\.ts$` },
      to: { reachable: true, path: `${API}(x402-api|key-api)/` },
    },
    {
      name: 'core-knows-no-payment-library',
      comment:
        'The conversion-jobs core serves the key API too, which takes no payment: what it needs of payments comes through its JobSales port, and generic helpers (retries) from neutral libraries.',
      severity: 'error',
      from: { path: `${API}conversion-jobs/` },
      to: { path: ['node_modules/@x402/', '^libs/x402-nest/', 'node_modules/@fileshift/x402-nest/'] },
    },
    {
      name: 'config-is-a-leaf',
      comment: 'Every folder reads the configuration, so config/ imports no folder of the service: anything else would run the layering backwards.',
      severity: 'error',
      from: { path: `${API}config/` },
      to: { path: API, pathNot: [`${API}config/`] },
    },
    {
      name: 'no-runtime-cycle',
      comment: 'A module in a cycle can be read before it is initialised (an undefined class or constant at start-up), and a cycle ties its files into one layer.',
      severity: 'error',
      from: { path: ['^apps/api/src/', '^libs/converters/src/'] },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^(apps|libs)/[^/]+/dist/', '\\.spec\\.ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      // The workspace packages resolve to their sources, as the typecheck reads them.
      conditionNames: ['@fileshift/source', 'import', 'require', 'node', 'default'],
      exportsFields: ['exports'],
    },
  },
};
