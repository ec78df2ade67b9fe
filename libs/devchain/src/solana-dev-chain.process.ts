import { writeGenesis } from './solana-genesis.js';
import { SolanaLedger } from './solana-ledger.js';
import { SolanaRpcFront } from './solana-rpc-front.js';

// The Solana dev chain's own process (started by SolanaChainProcess): a LiteSVM with the genesis accounts,
// answering JSON-RPC on a free loopback port. It prints {"rpcUrl": ...} as its first line once it answers, and
// ends when its stdin does: the process that started it has gone, however it went (even killed).
const ledger = new SolanaLedger();
await writeGenesis(ledger);
const rpcUrl = await new SolanaRpcFront(ledger).listen();
process.stdout.write(`${JSON.stringify({ rpcUrl })}\n`);
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
