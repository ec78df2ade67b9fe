import { parentPort, workerData } from 'node:worker_threads';
import { DevChain } from './dev-chain.js';
import type { FacilitatorAnswer, FacilitatorCall, FacilitatorThreadData } from './facilitator-thread.js';
import { LocalFacilitatorClient } from './local-facilitator.js';
import { SolanaDevChain } from './solana-dev-chain.js';
import { devSolanaScheme } from './solana-facilitator.js';
import { toThreadError } from './thread-error.js';

// The thread of a FacilitatorThread: a LocalFacilitatorClient on the dev chain at workerData.rpcUrl (and on the
// Solana dev chain at workerData.solanaRpcUrl, when given), answering each call by its id. Calls run side by side,
// as they would in the calling thread. A chain that cannot be reached at the start fails the calls and ends the
// thread, so that the next call starts it again.
const port = parentPort!;
const { rpcUrl, solanaRpcUrl } = workerData as FacilitatorThreadData;
const facilitator = Promise.all([DevChain.start({ rpcUrl }), solanaRpcUrl ? SolanaDevChain.start({ rpcUrl: solanaRpcUrl }).then(devSolanaScheme) : undefined]).then(
  ([chain, solana]) => new LocalFacilitatorClient(chain, { solana }),
);
facilitator.catch(() => setImmediate(() => process.exit(1)));

port.on('message', async (call: FacilitatorCall) => {
  let answer: FacilitatorAnswer;
  const { id } = call;
  try {
    const client = await facilitator;
    const value = call.method === 'getSupported' ? await client.getSupported() : await client[call.method](...call.args);
    answer = { id, value };
  } catch (error) {
    answer = { id, error: toThreadError(error) };
  }
  port.postMessage(answer);
});
