/** Where a job's files live in storage. */
export const jobInputKey = (jobId: string) => `jobs/${jobId}/input`;

/** The n-th (1-based) file of a job of several; the first is where a job of one keeps its input. */
export const jobMemberKey = (jobId: string, member: number) => (member === 1 ? jobInputKey(jobId) : `jobs/${jobId}/input-${member}`);

/** Every key a job's input occupies: its one file, or each member. */
export const jobInputKeys = (jobId: string, members: number) => Array.from({ length: Math.max(1, members) }, (_, i) => jobMemberKey(jobId, i + 1));

/** The result of a job with one output file, or (with `part`) the part-th (1-based) of several, e.g. a page. */
export const jobOutputKey = (jobId: string, targetFormat: string, part?: number) =>
  part === undefined ? `jobs/${jobId}/output.${targetFormat}` : `jobs/${jobId}/output-${part}.${targetFormat}`;

/** Several result files together, as one ZIP (what the x402 API sells when a conversion wrote several). */
export const jobBundleKey = (jobId: string) => `jobs/${jobId}/output.zip`;

/** Every key a job's results may occupy, for removal. */
export function jobResultKeys(jobId: string, targetFormat: string, resultCount: number | null): string[] {
  const parts = Array.from({ length: resultCount ?? 0 }, (_, i) => jobOutputKey(jobId, targetFormat, i + 1));
  return [jobOutputKey(jobId, targetFormat), ...parts, jobBundleKey(jobId)];
}
