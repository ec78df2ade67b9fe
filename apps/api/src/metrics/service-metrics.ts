import { Injectable } from '@nestjs/common';
import type { EngineClass, FailureType } from '@fileshift/converters';
import type { InstanceReplacement, StepTiming } from '@fileshift/converters/worker';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ApiName } from '../http-kit/api-of-request.js';
import { pairClassOf } from './pair-class.js';
import type { SettlementOutcome } from '@fileshift/x402-nest';

/** What a settlement charged for (a paid route's kind; `other` for a route not yet named). */
export type SettlementKind = 'detection_fee' | 'job_fee' | 'result' | 'other';
export type FacilitatorOperation = 'verify' | 'settle' | 'supported';
/** `unavailable`: it could not be asked or failed as a service (503 to the client); `invalid_payload`: it threw on a payment, refused as such. */
export type FacilitatorErrorKind = 'unavailable' | 'invalid_payload';
export type RateLimitKind = 'per_minute' | 'daily_quota';

/**
 * This process's Prometheus metrics (docs/operations.md, "Metrics"): a registry of its own per application, not
 * prom-client's global one, so tests that start several applications in one process never register a
 * metric twice. Every label takes values from a closed set (engine ids, categories, statuses, route
 * patterns): never a job id, a file name or anything else a client chooses.
 */
@Injectable()
export class ServiceMetrics {
  readonly registry = new Registry();

  private readonly queueWait = new Histogram({
    name: 'fileshift_queue_wait_seconds',
    help: 'Time from a conversion job entering its queue to the start of its first run, by engine class.',
    labelNames: ['engine_class'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
    registers: [this.registry],
  });

  private readonly conversionDuration = new Histogram({
    name: 'fileshift_conversion_duration_seconds',
    help: 'Duration of one conversion step on an engine, by engine, pair class (source category to target category) and outcome.',
    labelNames: ['engine', 'pair_class', 'outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [this.registry],
  });

  private readonly engineSandboxed = new Gauge({
    name: 'fileshift_engine_sandboxed',
    help: 'Whether this worker’s engines run in the engine sandbox (1) or not (0), by ENGINE_SANDBOX setting and identity mode (own-user, own-user-namespace, user-namespace, none).',
    labelNames: ['setting', 'identity'] as const,
    registers: [this.registry],
  });

  private readonly poolRestarts = new Counter({
    name: 'fileshift_engine_pool_restarts_total',
    help: 'Warm-pool engine instances replaced, by engine and reason (retired, crashed, timeout, cancelled, output_too_large, memory).',
    labelNames: ['engine', 'reason'] as const,
    registers: [this.registry],
  });

  private readonly jobsEnded = new Counter({
    name: 'fileshift_jobs_ended_total',
    help: 'Conversion jobs that ended, by status (done, failed) and failure type (none when done).',
    labelNames: ['status', 'failure_type'] as const,
    registers: [this.registry],
  });

  private readonly settlements = new Counter({
    name: 'fileshift_settlements_total',
    help: 'x402 settlements, by kind (detection_fee, job_fee, result) and outcome (settled, refused, unavailable).',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });

  private readonly facilitatorErrors = new Counter({
    name: 'fileshift_facilitator_errors_total',
    help: 'Errors of the x402 facilitator, by operation (verify, settle, supported) and kind (unavailable, invalid_payload).',
    labelNames: ['operation', 'kind'] as const,
    registers: [this.registry],
  });

  private readonly rateLimitRefusals = new Counter({
    name: 'fileshift_rate_limit_refusals_total',
    help: 'Requests refused with 429, by API (x402, key) and limit (per_minute, daily_quota).',
    labelNames: ['api', 'limit'] as const,
    registers: [this.registry],
  });

  private readonly httpRequests = new Histogram({
    name: 'fileshift_http_request_duration_seconds',
    help: 'HTTP requests answered, by API, matched route pattern (unmatched for 404s) and status class.',
    labelNames: ['api', 'route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  queueWaited(engineClass: EngineClass, seconds: number): void {
    this.queueWait.observe({ engine_class: engineClass }, Math.max(0, seconds));
  }

  conversionStepRan(step: StepTiming): void {
    this.conversionDuration.observe({ engine: step.engine, pair_class: pairClassOf(step.from, step.to), outcome: step.ok ? 'ok' : 'failed' }, step.seconds);
  }

  engineSandbox(sandbox: { setting: string; sandboxed: boolean; identity?: string }): void {
    this.engineSandboxed.set({ setting: sandbox.setting, identity: sandbox.identity ?? 'none' }, sandbox.sandboxed ? 1 : 0);
  }

  poolInstanceReplaced(engine: string, reason: InstanceReplacement): void {
    this.poolRestarts.inc({ engine, reason });
  }

  jobEnded(status: 'done' | 'failed', failureType?: FailureType): void {
    this.jobsEnded.inc({ status, failure_type: failureType ?? 'none' });
  }

  settlementEnded(kind: SettlementKind, outcome: SettlementOutcome): void {
    this.settlements.inc({ kind, outcome });
  }

  facilitatorFailed(operation: FacilitatorOperation, kind: FacilitatorErrorKind): void {
    this.facilitatorErrors.inc({ operation, kind });
  }

  rateLimited(api: Exclude<ApiName, 'other'>, limit: RateLimitKind): void {
    this.rateLimitRefusals.inc({ api, limit });
  }

  /** `route` is the pattern the router matched (bounded by the routes that exist), undefined for unmatched requests. */
  httpAnswered(api: ApiName, route: string | undefined, statusCode: number, seconds: number): void {
    this.httpRequests.observe({ api, route: route ?? 'unmatched', status_class: `${Math.floor(statusCode / 100)}xx` }, seconds);
  }
}
