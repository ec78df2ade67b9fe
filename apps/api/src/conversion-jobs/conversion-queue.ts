import { ConversionGraph, ENGINE_DESCRIPTORS, type EngineClass } from '@fileshift/converters';
import { CONVERSION_JOB_OF_CLASS } from '../queue/job-contract.js';
import type { ConversionJob } from './conversion-job.entity.js';

const ALL_ENGINES = new ConversionGraph(ENGINE_DESCRIPTORS);

/** The engine class (queue) of a job: its plan's, or for a job of an older version, that of the plan every engine would make. */
export function engineClassOf(job: Pick<ConversionJob, 'engineClass' | 'detectedInputFormat' | 'targetFormat'>): EngineClass {
  return job.engineClass ?? ALL_ENGINES.plan(job.detectedInputFormat, job.targetFormat)?.engineClass ?? 'images';
}

/** The job name (and so the queue) a conversion job waits under. */
export const conversionJobOf = (job: Pick<ConversionJob, 'engineClass' | 'detectedInputFormat' | 'targetFormat'>) => CONVERSION_JOB_OF_CLASS[engineClassOf(job)];
