import type { PaymentRails } from './payment-rails.js';

/** In dev mode, tells a newcomer where the chain is and which (public, test-only) key can pay. */
export function announceDevChain(rails: PaymentRails, print: (line: string) => void): void {
  const chain = rails.devChain;
  if (!chain) return;
  print('');
  print('Fileshift dev mode: payments settle on a local anvil chain with a test USDC.');
  print(`  RPC URL          ${chain.rpcUrl} (chain id ${chain.chainId}, network ${chain.network})`);
  print(`  test USDC        ${chain.usdcAddress}`);
  print(`  payTo            ${chain.payTo}`);
  print(`  funded payer     ${chain.payerAddress}`);
  print(`  payer key        ${chain.payerPrivateKey}  (public anvil test key — dev only)`);
  print('');
}
