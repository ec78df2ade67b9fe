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
      })
      .optional()
      .describe(
        'The workers and their engine sandbox (ENGINE_SANDBOX), from their published capabilities. Informational: a worker set to `required` that cannot sandbox never starts; one set to `auto` or `off` runs unsandboxed and is counted apart.',
      ),
  }),
  'Readiness: every dependency (PostgreSQL, Redis) answered. The second health shape of the spec.',
);
