/**
 * Run as its own process by the ledger tests: a wallet on a shared ledger pays `amount` until its
 * budget refuses, then prints how many payments went through.
 * Arguments: <ledger path> <private key> <amount> <budget> (atomic units).
 */
import { privateKeyToAccount } from 'viem/accounts';
import { AgentWallet } from '../../src/agent-wallet.js';
import { SpendLedger } from '../../src/spend-ledger.js';
import { ASSET, challengingFetch, NETWORK, PAY_TO, URL_PAID } from './challenging-fetch.js';

const [ledgerPath, privateKey, amount, budget] = process.argv.slice(2) as [string, `0x${string}`, string, string];
const account = privateKeyToAccount(privateKey);
const wallet = new AgentWallet({
  account,
  ledger: new SpendLedger(ledgerPath, account.address),
  limits: { allow: [{ network: NETWORK, asset: ASSET }], maxPerPayment: BigInt(amount), budget: BigInt(budget), allowPayTo: [PAY_TO] },
});
const pay = wallet.payer().wrap(challengingFetch(amount));
let payments = 0;
for (;;) {
  try {
    await pay(URL_PAID, { method: 'POST' });
    payments++;
  } catch (error) {
    if ((error as { limit?: string }).limit !== 'budget') throw error;
    break;
  }
}
process.stdout.write(`${payments}\n`);
