import { SetMetadata } from '@nestjs/common';
import type { JobName } from './job-contract.js';

export const ON_JOB_METADATA = 'fileshift:on-job';

/** Marks a provider method as the handler of one or several job names; the worker finds it at start-up. */
export const OnJob = (...names: JobName[]): MethodDecorator => SetMetadata(ON_JOB_METADATA, names);
