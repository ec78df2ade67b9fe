import { request } from 'node:http';

export interface KeyApiError {
  Status: 'Error';
  Message: string;
}

/** The key API's requests exactly as spec/key-api.md shows them: Api-Key header, Accept: application/json. */
export function keyApiClient(baseUrl: string, apiKey?: string) {
  const headers = (extra: Record<string, string> = {}) => ({ accept: 'application/json', ...(apiKey === undefined ? {} : { 'api-key': apiKey }), ...extra });
  return {
    upload(file: Buffer, name: string): Promise<Response> {
      const form = new FormData();
      form.append('file', new Blob([file]), name);
      return fetch(`${baseUrl}/api/v1/upload`, { method: 'POST', headers: headers(), body: form });
    },
    post(path: 'convert' | 'list_ext_out' | 'list_ext_out_by_type', body: unknown): Promise<Response> {
      return fetch(`${baseUrl}/api/v1/${path}`, { method: 'POST', headers: headers({ 'content-type': 'application/json' }), body: JSON.stringify(body) });
    },
    detect(body: Buffer, accept = 'text/plain, application/json'): Promise<Response> {
      return fetch(`${baseUrl}/api/v1/detect_file_type`, { method: 'POST', headers: headers({ 'content-type': 'application/octet-stream', accept }), body });
    },
    /** Upload then convert; the convert response. */
    async uploadAndConvert(file: Buffer, name: string, extIn: string, extOut: string): Promise<Response> {
      const uploaded = (await (await this.upload(file, name)).json()) as { Filename: string };
      return this.post('convert', { filename: uploaded.Filename, ext_in: extIn, ext_out: extOut });
    },
  };
}

/** A GET with the path sent byte for byte (fetch would normalise `..` and encodings away). */
export function rawGet(baseUrl: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: hostname, port, path, method: 'GET' }, (response) => {
      let body = '';
      response.setEncoding('latin1');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}
