/**
 * Requests per second of POST /api/v1/detect_file_type beside a bare Fastify route that returns a
 * constant, both under autocannon in the same run. Target: ≥ 50 % of the bare route.
 *   node --conditions=@fileshift/source --import tsx bench/detect-endpoint.ts   (needs Redis)
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { bootService } from './support/boot.js';

const body = Buffer.concat([
  Buffer.from('jpg\xfe1a2b\xfeimage/jpeg\xfeholiday.jpg\xfe', 'latin1'),
  Buffer.from('89504e470d0a1a0a0000000d4948445200000320000002580806000000', 'hex'),
]);

async function measure(url: string, method: 'GET' | 'POST', payload?: Buffer) {
  const result = await autocannon({
    url,
    method,
    connections: 10,
    duration: 5,
    ...(payload ? { body: payload, headers: { 'content-type': 'application/octet-stream' } } : {}),
  });
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers`);
  return result.requests.average;
}

const bare = Fastify();
bare.get('/constant', async () => 'The file is most likely a PNG image.');
await bare.listen({ port: 0, host: '127.0.0.1' });
const service = await bootService();
try {
  const bareRate = await measure(`http://127.0.0.1:${(bare.server.address() as { port: number }).port}/constant`, 'GET');
  const detectRate = await measure(`${service.baseUrl}/api/v1/detect_file_type`, 'POST', body);
  console.log('POST /api/v1/detect_file_type vs a bare Fastify route (autocannon, 10 connections, 5 s each)');
  console.log(`  bare Fastify constant route   ${Math.round(bareRate).toLocaleString('en')} req/s`);
  console.log(`  detect_file_type              ${Math.round(detectRate).toLocaleString('en')} req/s`);
  console.log(`  ratio                         ${((detectRate / bareRate) * 100).toFixed(0)} %   (target ≥ 50 %)`);
} finally {
  await service.close();
  await bare.close();
}
