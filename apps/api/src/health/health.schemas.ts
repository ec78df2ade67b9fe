import { z } from 'zod';
import { apiSchema } from '../http-kit/api-schema-registry.js';

export const HealthResponseSchema = apiSchema(
  'HealthResponse',
  z.object({
    status: z.literal('ok'),
    service: z.string(),
    version: z.string(),
  }),
  'Liveness: the process is up and serving HTTP. Does not touch dependencies.',
);

export const ReadinessResponseSchema = apiSchema(
  'ReadinessResponse',
  z.object({
    status: z.literal('healthy'),
    service: z.string(),
    timestamp: z.number().int().describe('Unix time in seconds when the checks ran.'),
    checks: z.record(z.string(), z.enum(['up', 'down'])).describe('Each dependency and its state.'),
    engines: z
      .object({
        workers: z.number().int().describe('Live workers (those that published their capabilities in the last 30 s).'),
        sandboxed: z.number().int().describe('Of them, those whose engines run in the engine sandbox.'),
        off: z.number().int().describe('Of them, those whose engines run without a sandbox by the operator\'s choice (ENGINE_SANDBOX=off).'),
      })
      .optional()
      .describe(
        'The workers and their engine sandbox (ENGINE_SANDBOX), from their published capabilities. A worker set to `required` (the default) that cannot sandbox never starts; one set to `off` runs unsandboxed and is counted here. A worker that runs engines unsandboxed without being set to `off` makes readiness answer 503.',
      ),
  }),
  'Readiness: every dependency (PostgreSQL, Redis) answered. The second health shape of the spec.',
);
