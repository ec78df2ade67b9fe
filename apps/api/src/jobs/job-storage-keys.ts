/** Where a job's files live in storage. */
export const jobInputKey = (jobId: string) => `jobs/${jobId}/input`;
export const jobOutputKey = (jobId: string, targetFormat: string) => `jobs/${jobId}/output.${targetFormat}`;
