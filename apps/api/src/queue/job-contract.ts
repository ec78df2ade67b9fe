/**
 * The typed job contract: every queue and job name in one place, and the payload type of each
 * job. A worker refuses to start when a job name here has no handler.
 */
export enum QueueName {
  Maintenance = 'maintenance',
  Conversion = 'conversion',
}

export enum JobName {
  PurgeExpired = 'maintenance.purge-expired',
  ConvertFile = 'conversion.convert-file',
}

export interface JobPayloads {
  [JobName.PurgeExpired]: { reason: 'schedule' | 'startup' | 'manual' };
  [JobName.ConvertFile]: { jobId: string };
}

export const QUEUE_OF_JOB: Readonly<Record<JobName, QueueName>> = {
  [JobName.PurgeExpired]: QueueName.Maintenance,
  [JobName.ConvertFile]: QueueName.Conversion,
};

export const ALL_QUEUES: readonly QueueName[] = Object.values(QueueName);
export const ALL_JOBS: readonly JobName[] = Object.values(JobName);
