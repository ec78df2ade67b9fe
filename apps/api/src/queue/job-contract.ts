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

/**
 * What every queued job carries: the deployment it belongs to (the id of its database) and its payload.
 * Two deployments sharing a Redis prefix then never run each other's jobs.
 */
export interface JobEnvelope<N extends JobName = JobName> {
  deploymentId: string;
  payload: JobPayloads[N];
}

export const QUEUE_OF_JOB: Readonly<Record<JobName, QueueName>> = {
  [JobName.PurgeExpired]: QueueName.Maintenance,
  [JobName.ConvertFile]: QueueName.Conversion,
};

export const ALL_QUEUES: readonly QueueName[] = Object.values(QueueName);
export const ALL_JOBS: readonly JobName[] = Object.values(JobName);
