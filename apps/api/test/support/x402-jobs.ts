import { expect } from 'vitest';

/** A job's status as the x402 API shows it (the fields the end-to-end tests read). */
export interface X402JobStatus {
  job_id: string;
  status: string;
  result_url?: string;
  failure_type?: string;
  message?: string;
  target_format?: string;
  detected_input_format?: string;
}

/** x402 convert-file of `file` (a multipart form as a client sends it) through `fetcher` (paying or not). */
export function convertFile(baseUrl: string, fetcher: typeof fetch, file: Buffer, filename: string, target: string, options?: object): Promise<Response> {
  const body = new FormData();
  for (const [name, value] of Object.entries({ target_format: target, filename, created_at: '2026-11-01T10:00:00Z', size_bytes: file.length })) body.append(name, String(value));
  if (options) body.append('options', JSON.stringify(options));
  body.append('file', new Blob([file], { type: 'application/octet-stream' }), filename);
  return fetcher(`${baseUrl}/api/x402/v1/convert-file`, { method: 'POST', body });
}

/** The job `accepted` (a 202) started, polled until it is done or failed. */
export async function jobEnded(accepted: Response): Promise<X402JobStatus> {
  expect(accepted.status, await accepted.clone().text()).toBe(202);
  const { status_url } = (await accepted.json()) as { status_url: string };
  for (let i = 0; i < 600; i++) {
    const status = (await (await fetch(status_url)).json()) as X402JobStatus;
    if (status.status === 'done' || status.status === 'failed') return status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the job did not end');
}
