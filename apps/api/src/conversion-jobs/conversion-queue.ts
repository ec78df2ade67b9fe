import type { EngineClass } from '@fileshift/converters';
import { CONVERSION_JOB_OF_CLASS } from '../queue/job-contract.js';
import type { ConversionJob } from './conversion-job.entity.js';

/** The engine class (queue) of a job: its plan's. Every unfinished job has one (planned when it was asked for). */
export function engineClassOf(job: Pick<ConversionJob, 'id' | 'engineClass'>): EngineClass {
  if (!job.engineClass) throw new Error(`job ${job.id} has no plan (a job of an older version)`);
  return job.engineClass;
}

/** The job name (and so the queue) a conversion job waits under. */
export const conversionJobOf = (job: Pick<ConversionJob, 'id' | 'engineClass'>) => CONVERSION_JOB_OF_CLASS[engineClassOf(job)];
