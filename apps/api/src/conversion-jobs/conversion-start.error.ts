import { DomainError } from '../errors/domain-error.js';

export enum ConversionStartErrorCode {
  /** The bytes show no format an engine here reads (the evidence rule). */
  UnreadableInput = 'unreadable_input',
  NoConversionPath = 'no_conversion_path',
  /** The request's dedupe key named a job asked for with other parameters. */
  DedupeKeyReused = 'dedupe_key_reused',
  /** The request's dedupe key names a job whose charge is still settling. */
  DedupeKeyBusy = 'dedupe_key_busy',
}

/** The facts of a refusal, for each API to put in its own words. */
export interface ConversionStartFacts extends Record<string, unknown> {
  /** The part of the request a planning refusal is about. */
  field?: 'file' | 'target_format';
  /** In a job of several files, which one (1-based) and its name. */
  member?: number;
  filename?: string;
  /** The format the bytes show and what it converts to, when the target is what cannot be. */
  source_format?: string | null;
  valid_targets?: string[];
  dedupe_key?: string;
}

/** A conversion that cannot be started: refused before anything is charged. */
export class ConversionStartError extends DomainError<ConversionStartErrorCode> {
  declare readonly details: ConversionStartFacts | undefined;
}
