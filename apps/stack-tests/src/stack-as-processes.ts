import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_DIST, createApiKeyWithCli, createTestDatabase, dropRedisKeys, freePort, TEST_REDIS_URL, uniqueQueuePrefix } from '@fileshift/testing';
import S3rver from 's3rver';
import { type ComposeFile, type ComposeService, parseEnvFile, resolveCompose } from './compose-file.js';
import { waitUntilHealthy } from './healthcheck.js';
import { startRoundRobinGateway } from './round-robin-gateway.js';
import { ServiceProcess } from './service-process.js';

/** The compose services this launcher knows how to stand in for; any other one is an error, not ignored. */
const KNOWN_SERVICES = ['postgres', 'redis', 'minio', 'minio-bucket', 'devchain', 'api', 'worker', 'gateway'];
/** s3rver's fixed credentials, which replace MinIO's. */
const S3RVER_CREDENTIALS = { S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' };

/** What undoes each started part, run in reverse order. */
type Cleanups = Array<() => Promise<void> | void>;

export interface StackAsProcesses {
  /** The gateway's address: what `docker compose up` publishes. */
  baseUrl: string;
  /** A key API key made with the service's CLI in the stack's database. */
  apiKey: string;
  /** Requests the gateway sent to each API replica. */
  requestsPerApi(): number[];
  stop(): Promise<void>;
}

/**
 * docker-compose.yml's topology as processes of the built service on this machine, with the environment
 * the compose file gives each service (interpolated with `envFile`, as `docker compose --env-file` does).
 * Only what a container gets from its network is replaced: the stores' addresses (PostgreSQL, Redis, the
 * S3 store, the dev chain) point at their stand-ins, each process gets its own port and DATA_DIR, and
 * — because this machine's stores are shared — the stack gets its own database and QUEUE_PREFIX.
 * Stand-ins: the local PostgreSQL and Redis, s3rver for MinIO (a real S3-protocol server, its own
 * credentials), anvil from npm for the foundry image, and a round-robin proxy for nginx.
 */
export async function startStackAsProcesses(composeFile: string, envFile: string): Promise<StackAsProcesses> {
  const compose = resolveCompose(readFileSync(composeFile, 'utf8'), parseEnvFile(readFileSync(envFile, 'utf8')));
  const unknown = Object.keys(compose.services).filter((name) => !KNOWN_SERVICES.includes(name));
  if (unknown.length > 0) throw new Error(`no process stands in for the compose service(s) ${unknown.join(', ')}: teach stack-as-processes.ts`);

  const cleanups: Cleanups = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const database = await createTestDatabase('fileshift_stack');
    cleanups.push(() => database.drop());
    const queuePrefix = uniqueQueuePrefix('fsstack');
    cleanups.push(() => dropRedisKeys(queuePrefix));
    const s3Endpoint = await startS3rver(service(compose, 'minio-bucket').environment!.S3_BUCKET!, cleanups);
    const devChainUrl = compose.services.devchain ? await startAnvil(service(compose, 'devchain'), cleanups) : undefined;

    const api = service(compose, 'api');
    const apiPorts = await Promise.all(replicasOf(api).map(() => freePort()));
    const gateway = await startRoundRobinGateway(apiPorts.map((port) => `http://127.0.0.1:${port}`));
    cleanups.push(() => gateway.close());

    const addresses: Record<string, string> = {
      'postgres:5432': database.url,
      'redis:6379': TEST_REDIS_URL,
      'minio:9000': s3Endpoint,
      ...(devChainUrl ? { 'devchain:8545': devChainUrl } : {}),
      [`localhost:${publishedPort(service(compose, 'gateway'))}`]: gateway.url,
    };
    const environmentOf = (of: ComposeService, own: Record<string, string>) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'fileshift-stack-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      return { PATH: process.env.PATH ?? '', ...withAddresses(of.environment ?? {}, addresses), ...S3RVER_CREDENTIALS, HOST: '127.0.0.1', DATA_DIR: dataDir, QUEUE_PREFIX: queuePrefix, ...own };
    };

    // The APIs first: the first to reach the dev chain deploys its token, as in compose.
    const apis = apiPorts.map((port, index) => startService(`api-${index + 1}`, environmentOf(api, { PORT: String(port) }), cleanups));
    await Promise.all(apis.map(({ process: started, env }) => waitUntilHealthy(api, started, env)));
    const worker = service(compose, 'worker');
    const workers = await Promise.all(replicasOf(worker).map(async (_, index) => startService(`worker-${index + 1}`, environmentOf(worker, { METRICS_PORT: String(await freePort()) }), cleanups)));
    await Promise.all(workers.map(({ process: started, env }) => waitUntilHealthy(worker, started, env)));

    return { baseUrl: gateway.url, apiKey: createApiKeyWithCli(database.url, 'stack-tests'), requestsPerApi: () => gateway.requestsPerUpstream(), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function service(compose: ComposeFile, name: string): ComposeService {
  const found = compose.services[name];
  if (!found) throw new Error(`docker-compose.yml has no service ${name} with these settings`);
  return found;
}

const replicasOf = (of: ComposeService) => Array.from({ length: of.deploy?.replicas ?? 1 });

/** The host port of a `"HOST:CONTAINER"` mapping such as the gateway's `"3000:80"`. */
function publishedPort(of: ComposeService): string {
  const mapping = of.ports?.[0]?.split(':') ?? [];
  if (mapping.length < 2) throw new Error(`cannot read the published port from ${JSON.stringify(of.ports)}`);
  return mapping.at(-2)!;
}

/** Every value that is a URL of a compose service (or of the published gateway) now names its stand-in. */
function withAddresses(environment: Record<string, string>, addresses: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(environment).map(([name, value]) => {
      const host = URL.canParse(value) ? new URL(value).host : undefined;
      return [name, host && addresses[host] ? addresses[host] : value];
    }),
  );
}

function startService(name: string, env: Record<string, string>, cleanups: Cleanups) {
  const started = ServiceProcess.start(name, process.execPath, [join(API_DIST, 'main.js')], env);
  cleanups.push(() => started.stop());
  return { process: started, env };
}

async function startS3rver(bucket: string, cleanups: Cleanups): Promise<string> {
  const directory = mkdtempSync(join(tmpdir(), 'fileshift-stack-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, resetOnClose: true, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  cleanups.push(async () => {
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  });
  return `http://127.0.0.1:${port}`;
}

/** The devchain service's anvil command line, run from the npm package on loopback and a free port. */
async function startAnvil(devchain: ComposeService, cleanups: Cleanups): Promise<string> {
  const [program, ...args] = devchain.entrypoint ?? [];
  if (program !== 'anvil') throw new Error(`the devchain service must run anvil, not ${program}`);
  const port = String(await freePort());
  const localArgs = args.map((arg, index) => (args[index - 1] === '--host' ? '127.0.0.1' : args[index - 1] === '--port' ? port : arg));
  const anvil = ServiceProcess.start('devchain', createRequire(import.meta.url).resolve('@foundry-rs/anvil-linux-amd64/bin/anvil'), localArgs, { PATH: process.env.PATH ?? '' });
  cleanups.push(() => anvil.stop());
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) }).then(
      (response) => response.ok,
      () => false,
    );
    if (answer) return url;
    if (!anvil.running || Date.now() > deadline) throw new Error(`anvil did not start: ${anvil.describeExit()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
