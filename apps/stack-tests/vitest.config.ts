import { projectTestConfig } from '../../vitest.shared.js';

// Two sets: the compose file's own checks, and the suite against a running stack at STACK_BASE_URL
// (bin/test-stack.mjs: `npm run test:stack -- --base-url …`).
export default projectTestConfig({
  include: [],
  projects: [
    { extends: true, test: { name: 'compose', include: ['test/*.spec.ts'] } },
    { extends: true, test: { name: 'stack', include: ['test/stack/**/*.spec.ts'], globalSetup: ['test/support/stack-setup.ts'], testTimeout: 180_000 } },
  ],
});
