export { ANVIL_TEST_KEYS, DEV_CHAIN_ID, DEV_NETWORK, INITIAL_USDC_PER_ACCOUNT } from './anvil-accounts.js';
export { compileTestUsdc, type CompiledContract } from './compile-test-usdc.js';
export { DevChain, devChainDefinition, type DevChainOptions, TEST_USDC_ABI } from './dev-chain.js';
export { LocalFacilitatorClient, type LocalFacilitatorOptions } from './local-facilitator.js';
export { FacilitatorThread, type FacilitatorThreadOptions } from './facilitator-thread.js';
export { SolanaDevChain, type SolanaDevChainOptions } from './solana-dev-chain.js';
export { SOLANA_DEV_KEYS, SOLANA_DEV_NETWORK, SOLANA_DEV_USDC_DECIMALS, SOLANA_DEV_USDC_PER_PAYER, type SolanaDevKey } from './solana-dev-keys.js';
export { usdcAccountOf as solanaUsdcAccountOf } from './solana-genesis.js';
export { devSolanaScheme, type DevSolanaScheme, LocalSolanaFacilitatorClient, registerDevSolanaScheme } from './solana-facilitator.js';
