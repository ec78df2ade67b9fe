import type { TestProject } from 'vitest/node';
import type { StackTarget } from './stack-target.js';

/** The stack under test, from bin/test-stack.mjs: `npm run test:stack -- --base-url …`. */
export default function setup(project: TestProject): void {
  const baseUrl = process.env.STACK_BASE_URL;
  if (!baseUrl) throw new Error('STACK_BASE_URL is not set: run the suite with `npm run test:stack -- --base-url http://localhost:3000`');
  const requireAll = process.env.STACK_REQUIRE_ALL === 'true' || Boolean(process.env.CI);
  project.provide('stack', { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey: process.env.STACK_API_KEY, payerKey: process.env.STACK_PAYER_KEY, requireAll } satisfies StackTarget);
}
