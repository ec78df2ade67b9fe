import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ConversionOptions, ConversionPlan } from '@fileshift/converters';
import { AFTER_SETTLEMENT_RETRIES, withRetries } from '@fileshift/retry';
import { canonicalOptions, checkedOptions, plansForOptions } from '../conversion-requests/conversion-choice.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { DetectionService } from '../detection/detection.service.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import type { ConversionJob, ConversionJobOrigin, JobJoinPlan, ResultDelivery } from './conversion-job.entity.js';
import { ConversionJobsRepository, type NewJob } from './conversion-jobs.repository.js';
import { ConversionStartError, ConversionStartErrorCode } from './conversion-start.error.js';
import { JobDispatcher } from './job-dispatcher.js';
import { JobEndSignals } from './job-end-signals.js';
import { newJobId } from './job-id.js';
import { JobRemovalService } from './job-removal.service.js';
import { jobInputKey, jobMemberKey } from './job-storage-keys.js';
import { type ResultFile, resultFiles } from './result-files.js';
import { type OpenedResult, ResultStore } from './result-store.js';
import type { WebhookDelivery } from '../webhooks/webhook-delivery.entity.js';
import { WebhookDeliveries } from '../webhooks/webhook-deliveries.repository.js';

/** Where a new job's input goes before the job exists, so its bytes never have to move. */
export interface InputSlot {
  jobId: string;
  storageKey: string;
  /** Where the n-th (1-based) file of a job of several goes; the first is `storageKey`. */
  memberKey(member: number): string;
}

/** The file to convert, as detection and the job record see it. */
export interface ConversionInput {
  /** The client's name for it: a detection hint, and the base of the result's name. */
  filename: string;
  /** The name detection reads instead, when the client said the type another way (the key API's ext_in). */
  detectAs?: string;
  sizeBytes: number;
  sha256: string;
  createdAt: Date;
  /** Its first bytes. */
  head: Uint8Array;
}

/**
 * One file of a job of several. Its bytes are in the new job's slot under its member's key (`InputSlot.memberKey`), or copied
 * from `copyFrom` once a job is created.
 */
export interface MemberInput {
  input: ConversionInput;
  copyFrom?: string;
}

/** The input of a job of several files as the job records it: their sizes summed, their digests digested, under one name. */
export function joinedInput(filename: string, createdAt: Date, members: readonly MemberInput[]): ConversionInput {
  return {
    filename,
    createdAt,
    sizeBytes: members.reduce((total, member) => total + member.input.sizeBytes, 0),
    sha256: createHash('sha256').update(members.map((member) => member.input.sha256).join(',')).digest('hex'),
    head: members[0]?.input.head ?? new Uint8Array(),
  };
}

/** A charge for a job: taken (verified) before the job is created, settled after, released when the job could not be. */
export interface JobCharge {
  settle(): Promise<unknown>;
  release(reason: string): Promise<void>;
}

/**
 * How a repeated request finds its job. `clientKey`: the key the client sent (an Idempotency-Key) — the same key
 * with other parameters is refused, a failed job is answered as it is. `sameRequest`: the request itself — the
 * same input (named by `scope`), target and options are the same conversion, and one that failed is tried again.
 */
export type Dedupe = { clientKey: string } | { sameRequest: string };

export interface StartConversion {
  origin: ConversionJobOrigin;
  input: ConversionInput;
  /** The input's bytes: already in the new job's slot, or copied from `copyFrom` once a job is created. A job of several files: its slot, where members without `copyFrom` are. */
  bytes: { slot: InputSlot } | { copyFrom: string };
  /**
   * Two or more files joined into one (merge PDFs, pictures into a PDF, files into an archive), in order; `input` is
   * then `joinedInput` of them.
   */
  members?: readonly MemberInput[];
  /** A format id of the catalogue. */
  target: string;
  /** As the client sent them; checked against the plan. */
  options: unknown;
  delivery: ResultDelivery;
  retentionMs: number;
  dedupe?: Dedupe;
  /** Takes the job's charge; nothing is taken for a request that cannot start. */
  charge?: (jobId: string) => Promise<JobCharge>;
  /** Where the job's end is announced by a signed event (docs/webhooks.md); checked by the API with checkedCallerUrl. */
  webhookUrl?: string;
  /**
   * The address the request reached the service at (PUBLIC_BASE_URL, else its Host): the event's links and the
   * did:web key that signs it name it. Needed with `webhookUrl`.
   */
  serviceUrl?: string;
  /**
   * The request's parameters, when the API compares requests before it has the input (a source URL is fetched after
   * the charge is taken): what `repeatedJob` was asked with. By default the target, the input and the options.
   */
  fingerprint?: string;
}

export interface StartedConversion {
  job: ConversionJob;
  /** False when a repeated request got its existing job: nothing was charged, and a slot's bytes were not taken. */
  created: boolean;
}

/**
 * The conversion-jobs core, the one service both APIs start conversions through: it validates and plans once,
 * de-duplicates, takes the charge, records the job, settles and dispatches it; it tells when a job ended, gives its
 * result files, and removes jobs. It knows nothing of HTTP or of how an API words its answers.
 */
@Injectable()
export class ConversionJobs {
  private readonly logger = new Logger(ConversionJobs.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly detection: DetectionService,
    private readonly jobs: ConversionJobsRepository,
    private readonly dispatcher: JobDispatcher,
    private readonly ends: JobEndSignals,
    private readonly removal: JobRemovalService,
    private readonly results: ResultStore,
    private readonly webhooks: WebhookDeliveries,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  /** A new job's input slot: store the upload there, then start the conversion with it. */
  inputSlot(): InputSlot {
    const jobId = newJobId();
    return { jobId, storageKey: jobInputKey(jobId), memberKey: (member) => jobMemberKey(jobId, member) };
  }

  async start(request: StartConversion): Promise<StartedConversion> {
    // 1. Everything that can be checked before a charge: a request that cannot succeed is refused, charging nothing.
    const { plans, options, source, joinPlan } = request.members ? await this.planJoin(request, request.members) : { ...(await this.plan(request)), joinPlan: null };
    const webhook = request.webhookUrl ? { url: request.webhookUrl, serviceUrl: this.serviceUrlOf(request) } : undefined;
    const fingerprint = request.fingerprint ?? fingerprintOf(request, options);
    // The options digested: a password among them is never written out (the key is kept for 24 hours).
    const dedupeKey = request.dedupe && ('clientKey' in request.dedupe ? request.dedupe.clientKey : JSON.stringify([request.dedupe.sameRequest, request.target, sha256Of(canonicalOptions(options))]));
    // 2. A repeated request gets its job again, free (and handed to the queue if it still waits).
    if (dedupeKey) {
      const existing = await this.existingFor(request, dedupeKey, fingerprint);
      if (existing) return { job: existing, created: false };
    }
    const id = 'slot' in request.bytes ? request.bytes.slot.jobId : newJobId();
    const copies = this.copiesOf(request, id);
    for (const copy of copies) await this.storage.put(copy.to, await this.storage.get(copy.from));
    let inputTaken = false;
    try {
      // 3. The charge: taken, not yet settled.
      const charge = await request.charge?.(id);
      // 4. The job; while charged, not runnable until the charge settles. From here on it owns its input.
      const record: NewJob = {
        id,
        origin: request.origin,
        status: charge ? 'awaiting_payment' : 'queued',
        originalFilename: request.input.filename,
        fileCreatedAt: request.input.createdAt,
        inputSizeBytes: request.input.sizeBytes,
        inputSha256: request.input.sha256,
        detectedInputFormat: source,
        targetFormat: request.target,
        plans,
        options,
        joinPlan,
        delivery: request.delivery,
        dedupeKey: dedupeKey ?? null,
        requestFingerprint: fingerprint,
        expiresAt: new Date(Date.now() + request.retentionMs),
        ...(webhook ? { webhook } : {}),
      };
      let job: ConversionJob;
      try {
        job = await this.jobs.create(record);
      } catch (error) {
        await charge?.release('request_failed');
        // Two identical requests at once: the other one created the job.
        if (dedupeKey && isUniqueViolation(error)) {
          const existing = await this.existingFor(request, dedupeKey, fingerprint);
          if (existing) return { job: existing, created: false };
          throw new ConversionStartError(ConversionStartErrorCode.DedupeKeyBusy, 'Another request with this key is being processed; retry shortly.', { dedupe_key: dedupeKey });
        }
        throw error;
      }
      inputTaken = true;
      if (charge) {
        // 5. Settlement; when it fails no trace of the job remains.
        try {
          await charge.settle();
        } catch (error) {
          await this.jobs.delete(id);
          inputTaken = false;
          throw error;
        }
        // 6. Charged: the job may run. (The reconciler also promotes a job whose charge the ledger shows settled.)
        await withRetries(() => this.jobs.markCharged(id), { ...AFTER_SETTLEMENT_RETRIES, onRetry: (error) => this.logger.warn(`marking job ${id} paid failed; retrying: ${String(error)}`) });
        await this.faultPause(id);
        job = { ...job, status: 'queued' };
      }
      // 7. The queue; when Redis does not take it now, the reconciler does later.
      await this.dispatcher.dispatch(job);
      return { job, created: true };
    } finally {
      if (!inputTaken) await Promise.all(copies.map((copy) => this.storage.delete(copy.to)));
    }
  }

  /**
   * The job an earlier request with this Idempotency-Key (or payment identifier) started, found before anything is
   * charged or fetched: for an API whose input arrives only after the charge (a source URL), by its own `fingerprint`.
   * Refused as `start` refuses a key reused with other parameters or still being settled.
   */
  repeatedJob(origin: ConversionJobOrigin, dedupe: { clientKey: string }, fingerprint: string): Promise<ConversionJob | null> {
    return this.existingFor({ origin, dedupe }, dedupe.clientKey, fingerprint);
  }

  find(id: string): Promise<ConversionJob | null> {
    return this.jobs.find(id);
  }

  /** The job's webhook and how its delivery went; null when the job has none. */
  webhookOf(id: string): Promise<WebhookDelivery | null> {
    return this.webhooks.find(id);
  }

  /** How a job that is no longer there went: deleted, expired, or never known (null). */
  async removedAs(id: string): Promise<'deleted' | 'expired' | null> {
    return (await this.jobs.findTombstone(id))?.reason ?? null;
  }

  /** Removes the job, its files and its records now; a run converting it stops at its next heartbeat. */
  remove(job: ConversionJob, reason: 'deleted' | 'expired'): Promise<void> {
    return this.removal.remove(job, reason);
  }

  /** How many requests of this process wait for a job's end now. */
  get waiting(): number {
    return this.ends.waiting;
  }

  /**
   * The job once it ended (done or failed), as it is after `waitMs` otherwise, or null when it was removed. Wakes
   * at the worker's announcement (no polling of this job): each round registers for it first, then reads the job, so
   * an end in between is not missed; a lost announcement costs at most JOB_END_SWEEP_MS. Returns early when `signal`
   * aborts or the process shuts down.
   */
  async waitForEnd(job: ConversionJob, waitMs: number, signal: AbortSignal): Promise<ConversionJob | null> {
    const deadline = Date.now() + waitMs;
    for (let current: ConversionJob | null = job; ; ) {
      // Each round's registration ends with the round: a request that returns no longer counts as waiting.
      const round = new AbortController();
      const announced = this.ends.waitForEnd(job.id, Math.max(0, deadline - Date.now()), AbortSignal.any([signal, round.signal]));
      try {
        if (!current || current.status === 'done' || current.status === 'failed' || Date.now() >= deadline || signal.aborted || this.ends.closed) return current;
        await announced;
        if (signal.aborted) return current;
        current = await this.jobs.find(job.id);
      } finally {
        round.abort();
      }
    }
  }

  /** The files a done job delivers (pure; see result-files.ts). */
  resultFiles(job: ConversionJob): ResultFile[] {
    return resultFiles(job);
  }

  /** A result file's bytes, or null when storage no longer has them. */
  openResult(file: ResultFile): Promise<OpenedResult | null> {
    return this.results.open(file);
  }

  resultStored(file: ResultFile): Promise<boolean> {
    return this.results.stored(file);
  }

  /** Removes every job past its retention, with its files; returns how many. */
  purgeExpired(): Promise<number> {
    return this.removal.purgeExpired();
  }

  /** The format the conversion starts from (the evidence rule), its plans (cheapest first) and its checked options. */
  private async plan(request: StartConversion): Promise<{ plans: ConversionPlan[]; options: ConversionOptions; source: string }> {
    const input = { filename: request.input.detectAs ?? request.input.filename, sizeBytes: request.input.sizeBytes, createdAt: request.input.createdAt, header: request.input.head };
    const decision = await this.detection.planConversion(input, request.target);
    if (!decision.ok) {
      if (decision.problem === 'no_conversion_path') {
        const hints = await this.detection.validTargets(input);
        throw new ConversionStartError(ConversionStartErrorCode.NoConversionPath, decision.message, { field: 'target_format', source_format: hints.source, valid_targets: hints.targets });
      }
      throw new ConversionStartError(ConversionStartErrorCode.UnreadableInput, decision.message, { field: 'file' });
    }
    return { ...plansForOptions(request.options, decision.plans), source: decision.format };
  }

  /**
   * A job of several files: the format each member's bytes show, the join of them into the target (see planJoin), and
   * the options the join takes. The join is the job's one plan, a step from the members' formats; a member no join
   * takes refuses the job, named.
   */
  private async planJoin(request: StartConversion, members: readonly MemberInput[]): Promise<{ plans: ConversionPlan[]; options: ConversionOptions; source: string; joinPlan: JobJoinPlan }> {
    const inputs = members.map(({ input }) => ({ filename: input.detectAs ?? input.filename, sizeBytes: input.sizeBytes, createdAt: input.createdAt, header: input.head }));
    const { formats, planning: planned, join } = await this.detection.planJoin(inputs, request.target);
    if (!planned.ok) {
      // Nothing joins into the target at all: the target is what cannot be.
      if (planned.member === undefined) throw new ConversionStartError(ConversionStartErrorCode.NoConversionPath, planned.message, { field: 'target_format' });
      const member = members[planned.member]!;
      const code = formats[planned.member] === undefined ? ConversionStartErrorCode.UnreadableInput : ConversionStartErrorCode.NoConversionPath;
      throw new ConversionStartError(code, planned.message.replace(/^File (\d+)/, `File $1 (${member.input.filename})`), { field: 'file', member: planned.member + 1, filename: member.input.filename });
    }
    const { plan } = planned;
    const options = checkedOptions(request.options, join?.options ?? []);
    const source = [...new Set(formats.map((format) => format ?? 'bin'))].join('+');
    const joinCost = join?.cost ?? 1;
    const step = { engine: plan.engine, from: source, to: plan.into, options: join?.options ?? [], multipleOutputs: false, cost: joinCost, losses: [], chosenBy: [] };
    return {
      plans: [{ steps: [step], cost: joinCost + plan.memberPlans.reduce((total, plans) => total + (plans[0]?.cost ?? 0), 0), engineClass: plan.engineClass }],
      options,
      source,
      joinPlan: {
        engine: plan.engine,
        members: members.map(({ input }, index) => ({ filename: input.filename, sizeBytes: input.sizeBytes, sha256: input.sha256, format: formats[index] ?? null, plans: plan.memberPlans[index]! })),
      },
    };
  }

  /** The copies a new job's input needs: an upload into its slot, each member from its upload. */
  private copiesOf(request: StartConversion, id: string): Array<{ from: string; to: string }> {
    if (request.members) return request.members.flatMap((member, index) => (member.copyFrom ? [{ from: member.copyFrom, to: jobMemberKey(id, index + 1) }] : []));
    return 'copyFrom' in request.bytes ? [{ from: request.bytes.copyFrom, to: jobInputKey(id) }] : [];
  }

  /**
   * The job a dedupe key already created, handed to the queue again if it still waits; null when there is none, or
   * when it failed and the request is one that tries again (it is removed first). Refused when the key came with other
   * parameters or its job's charge is still settling.
   */
  private async existingFor(request: Pick<StartConversion, 'origin' | 'dedupe'>, dedupeKey: string, fingerprint: string): Promise<ConversionJob | null> {
    const job = await this.jobs.findByDedupeKey(request.origin, dedupeKey);
    if (!job) return null;
    if (job.requestFingerprint !== fingerprint) {
      throw new ConversionStartError(ConversionStartErrorCode.DedupeKeyReused, 'This key was used with different request parameters.', { dedupe_key: dedupeKey });
    }
    if (job.status === 'awaiting_payment') throw new ConversionStartError(ConversionStartErrorCode.DedupeKeyBusy, 'Another request with this key is being processed; retry shortly.', { dedupe_key: dedupeKey });
    if (job.status === 'failed' && request.dedupe && 'sameRequest' in request.dedupe) {
      await this.removal.remove(job, 'deleted');
      return null;
    }
    if (job.status === 'queued') await this.dispatcher.dispatch(job);
    return job;
  }

  private serviceUrlOf(request: StartConversion): string {
    const serviceUrl = request.serviceUrl ?? this.config.publicBaseUrl;
    if (!serviceUrl) throw new Error('A job with a webhook needs the address the request reached the service at (serviceUrl).');
    return serviceUrl;
  }

  /** Test-only fault injection (refused with live payments): a window to kill the process between settlement and enqueue. */
  private async faultPause(jobId: string): Promise<void> {
    const pauseMs = this.config.jobCycle.faultPauseBeforeEnqueueMs;
    if (!pauseMs) return;
    this.logger.warn(`fault injection: job ${jobId} is paid and queued; pausing ${pauseMs} ms before handing it to the queue`);
    await sleep(pauseMs);
  }
}

/** The request's parameters: its target, its input and its options in one canonical spelling. */
function fingerprintOf(request: StartConversion, options: ConversionOptions): string {
  const { input } = request;
  return createHash('sha256')
    // The webhook is a parameter too (a key reused with another one is refused); absent, the fingerprint is what it always was.
    .update(
      JSON.stringify([
        request.target,
        input.filename,
        input.createdAt.toISOString(),
        input.sizeBytes,
        input.sha256,
        canonicalOptions(options),
        ...(request.webhookUrl ? [request.webhookUrl] : []),
        // A job of several files: their names too (their digests are in the input's).
        ...(request.members ? [request.members.map((member) => member.input.filename)] : []),
      ]),
    )
    .digest('hex');
}

const sha256Of = (text: string) => createHash('sha256').update(text).digest('hex');

function isUniqueViolation(error: unknown): boolean {
  return (error as { driverError?: { code?: string } }).driverError?.code === '23505';
}
