import { SetMetadata } from '@nestjs/common';
import type { JobName } from './job-contract.js';

export const ON_JOB_METADATA = 'fileshift:on-job';

/** Marks a provider method as the handler of one job name; the worker finds it at start-up. */
export const OnJob = (name: JobName): MethodDecorator => SetMetadata(ON_JOB_METADATA, name);
