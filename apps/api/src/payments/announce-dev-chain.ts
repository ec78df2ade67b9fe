import type { PaymentRails } from './payment-rails.js';

/** In dev mode, tells a newcomer where the chains are and which (public, test-only) keys can pay. */
export function announceDevChain(rails: PaymentRails, print: (line: string) => void): void {
  const chain = rails.devChain;
  if (!chain) return;
  const { solana } = chain;
  print('');
  print('Fileshift dev mode: payments settle on a local anvil chain and a local Solana, each with a test USDC.');
  print(`  EVM RPC URL      ${chain.rpcUrl} (chain id ${chain.chainId}, network ${chain.network})`);
  print(`  test USDC        ${chain.usdcAddress}`);
  print(`  payTo            ${chain.payTo}`);
  print(`  funded payer     ${chain.payerAddress}`);
  print(`  payer key        ${chain.payerPrivateKey}  (public anvil test key — dev only)`);
  print(`  Solana RPC URL   ${solana.rpcUrl} (network ${solana.network})`);
  print(`  test USDC mint   ${solana.usdcMint} (${solana.usdcDecimals} decimals)`);
  print(`  payTo            ${solana.payTo}`);
  print(`  funded payer     ${solana.payerAddress}  (its secret key: /.well-known/x402.json, solanaDevChain — dev only)`);
  print('');
}
