import type { ConversionOptions, ConversionPlan, EngineClass, FailureType } from '@fileshift/converters';
import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * `awaiting_payment`: created once its charge was taken (verified), not yet settled; never shown to a client nor run.
 * `queued` (waiting for a worker) → `processing` (a worker's run holds its lease) → `done` | `failed`.
 */
export type ConversionJobStatus = 'awaiting_payment' | 'queued' | 'processing' | 'done' | 'failed';

/** Which API created a job: each API's lookups see only its own jobs. The worker never reads it. */
export type ConversionJobOrigin = 'x402' | 'key_api';

/** What a finished job delivers when it wrote several files (a page each): one ZIP of them, or each file on its own. */
export type ResultDelivery = 'bundle' | 'parts';

/** A file's SHA-256 (hex) and size. */
export interface FileDigest {
  sha256: string;
  sizeBytes: number;
}

/** What a done job's run delivered, as its signed delivery record states it. */
export interface ResultManifest {
  /** The plan that ran, each step with its engine's version on the worker that ran it (null: not known). */
  steps: Array<{ engine: string; version: string | null; from: string; to: string }>;
  /** Each stored result file, in the order of `resultFiles(job)`. */
  files: FileDigest[];
  /** The files inside a bundle (a ZIP of pages), in page order, as named in it. */
  bundled?: Array<FileDigest & { filename: string }>;
  /** A job of several files: the steps each member ran before the join (none: joined as it is), in order. */
  members?: Array<{ steps: ResultManifest['steps'] }>;
  /** What the engines said they did, in words safe to show (`strip_metadata`: the tags removed). */
  notes?: string[];
}

/** One file of a job of several, as it was asked for: stored under `jobMemberKey(job, n)`. */
export interface JobMember {
  /** The caller's name for it, cleaned (an archive's entry name; how a failure names it). */
  filename: string;
  sizeBytes: number;
  sha256: string;
  /** Its format by the evidence rule; null when its bytes show none (only an archive takes it). */
  format: string | null;
  /** Its plans to a format the join takes, the first used; empty: joined as it is. */
  plans: ConversionPlan[];
}

/** How a job of several files runs: each member converted as its plans say, then joined by one engine. */
export interface JobJoinPlan {
  engine: string;
  members: JobMember[];
}

/**
 * One conversion: what was asked (input, target, plans, options), how it goes and how it ended. Removed with its
 * files 24 hours after creation. A run's lease, the x402 API's purchase of the result and the key API's download
 * name are records of their own, removed with the job.
 */
@Entity({ name: 'conversion_jobs' })
@Check('ck_conversion_jobs_origin', `"origin" IN ('x402', 'key_api')`)
@Check('ck_conversion_jobs_status', `"status" IN ('awaiting_payment', 'queued', 'processing', 'done', 'failed')`)
@Check('ck_conversion_jobs_delivery', `"delivery" IN ('bundle', 'parts')`)
// A partial index for the reconciler; declared in the migration, which TypeORM does not compare.
@Index('ix_conversion_jobs_unfinished', { synchronize: false })
@Index('uq_conversion_jobs_dedupe_key', ['origin', 'dedupeKey'], { unique: true })
export class ConversionJob {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text', default: 'x402' })
  origin!: ConversionJobOrigin;

  @Column({ type: 'text' })
  status!: ConversionJobStatus;

  @Column({ name: 'progress_percent', type: 'integer', default: 0 })
  progressPercent!: number;

  @Column({ name: 'original_filename', type: 'text' })
  originalFilename!: string;

  @Column({ name: 'file_created_at', type: 'timestamptz' })
  fileCreatedAt!: Date;

  @Column({ name: 'input_size_bytes', type: 'bigint', transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  inputSizeBytes!: number;

  @Column({ name: 'input_sha256', type: 'text' })
  inputSha256!: string;

  @Column({ name: 'detected_input_format', type: 'text' })
  detectedInputFormat!: string;

  @Column({ name: 'target_format', type: 'text' })
  targetFormat!: string;

  /** How the conversion runs, planned once from the live workers' engines when it was asked for (null: jobs of older versions, all finished). */
  @Column({ type: 'jsonb', nullable: true })
  plan!: ConversionPlan | null;

  /** The other plans of that planning, in order: a worker without an engine of `plan` runs the first of these it can. */
  @Column({ name: 'fallback_plans', type: 'jsonb' })
  fallbackPlans!: ConversionPlan[];

  /**
   * A job of several files (merge PDFs, pictures into a PDF, files into an archive): its members and the engine that
   * joins them; null for a job of one file. `plan` then names the join as one step, and the input fields sum the members.
   */
  @Column({ name: 'join_plan', type: 'jsonb', nullable: true })
  joinPlan!: JobJoinPlan | null;

  /** The conversion's options, validated against its plan before payment. */
  @Column({ type: 'jsonb' })
  options!: ConversionOptions;

  /** The queue the job waits in (its plan's engine class). */
  @Column({ name: 'engine_class', type: 'text', nullable: true })
  engineClass!: EngineClass | null;

  @Column({ type: 'text' })
  delivery!: ResultDelivery;

  /** How many files the conversion wrote (one per page for pdf → png); null until it is done. */
  @Column({ name: 'result_count', type: 'integer', nullable: true })
  resultCount!: number | null;

  @Column({ name: 'result_size_bytes', type: 'bigint', nullable: true, transformer: { to: (v: number | null) => v, from: (v: string | null) => (v === null ? null : Number(v)) } })
  resultSizeBytes!: number | null;

  /** What the run delivered: file digests, engines and versions (null until done, and for jobs of older versions). */
  @Column({ name: 'result_manifest', type: 'jsonb', nullable: true })
  resultManifest!: ResultManifest | null;

  @Column({ name: 'failure_type', type: 'text', nullable: true })
  failureType!: FailureType | null;

  @Column({ name: 'failure_message', type: 'text', nullable: true })
  failureMessage!: string | null;

  /** What makes two requests of one API the same conversion (an Idempotency-Key; for the key API its upload, target and options). */
  @Column({ name: 'dedupe_key', type: 'text', nullable: true })
  dedupeKey!: string | null;

  /** The request's parameters: a dedupe key met again with others is a conflict. */
  @Column({ name: 'request_fingerprint', type: 'text' })
  requestFingerprint!: string;

  /** Its end is announced to a webhook (webhook_deliveries): read with the job, so a job without one costs no lookup at its end. */
  @Column({ name: 'has_webhook', type: 'boolean', default: false })
  hasWebhook!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;

  @Index('ix_conversion_jobs_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
