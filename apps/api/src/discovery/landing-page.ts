import type { PaidResource } from './paid-resources.js';
import { describePrice, X402_PREFIX } from './paid-resources.js';

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The human- and agent-readable landing page of the x402 API. */
export function renderLandingPage(input: { version: string; resources: PaidResource[] }): string {
  const rows = input.resources
    .map((r) => `<tr><td><code>${r.method} ${escape(r.path)}</code></td><td>${escape(r.description)}</td><td>${escape(describePrice(r.price))}</td></tr>`)
    .join('\n        ');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Fileshift — file-type detection and file conversion, paid per call with x402</title>
  <link rel="alternate" type="application/json" href="/openapi.json" title="OpenAPI 3.1">
  <link rel="alternate" type="text/plain" href="/llms.txt" title="llms.txt">
  <style>body{font-family:system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;line-height:1.5}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:left}code{font-size:.9em}</style>
</head>
<body>
  <h1>Fileshift</h1>
  <p>Detects what a file really is and converts it to another format. No account: each paid call carries
  an <a href="https://x402.org">x402</a> payment in USDC signed by the caller's wallet. Version ${escape(input.version)}.</p>
  <h2>Flow</h2>
  <ol>
    <li><code>POST ${X402_PREFIX}/convert-file</code> (multipart: file, target_format, filename, created_at, size_bytes) pays the job fee and answers 202 with <code>job_id</code> and <code>status_url</code>.</li>
    <li>Poll <code>GET status_url</code> (free), waiting <code>retry_after_seconds</code>, until the status is <code>done</code> or <code>failed</code>.</li>
    <li>If done, <code>GET result_url</code>, answer the HTTP 402 challenge with a payment, and receive <code>download_url</code> (valid one hour).</li>
    <li><code>GET download_url</code> to fetch the file.</li>
    <li>Optionally <code>DELETE ${X402_PREFIX}/convert-file/{job_id}/delete</code>; otherwise everything is removed after 24 hours.</li>
  </ol>
  <h2>Prices</h2>
  <table>
    <thead><tr><th>Operation</th><th>What it does</th><th>Price</th></tr></thead>
    <tbody>
        ${rows}
    </tbody>
  </table>
  <p>The result is sold only when the conversion succeeded. Status polling, deletion and these documents are free.</p>
  <h2>Machine-readable</h2>
  <ul>
    <li><a href="/openapi.json">/openapi.json</a> and <a href="/openapi.yaml">/openapi.yaml</a> — OpenAPI 3.1</li>
    <li><a href="/llms.txt">/llms.txt</a> — summary for language models and agents</li>
    <li><a href="/.well-known/x402.json">/.well-known/x402.json</a> — paid resources, prices, networks, assets, payTo</li>
    <li><a href="/.well-known/did.json">/.well-known/did.json</a> — the key that signs offers, receipts and delivery records</li>
    <li><a href="${X402_PREFIX}/health">${X402_PREFIX}/health</a> — health</li>
  </ul>
</body>
</html>
`;
}
