export { ANVIL_TEST_KEYS, DEV_CHAIN_ID, DEV_NETWORK, INITIAL_USDC_PER_ACCOUNT } from './anvil-accounts.js';
export { compileTestUsdc, type CompiledContract } from './compile-test-usdc.js';
export { DevChain, devChainDefinition, type DevChainOptions, TEST_USDC_ABI } from './dev-chain.js';
export { LocalFacilitatorClient } from './local-facilitator.js';
export { FacilitatorThread } from './facilitator-thread.js';
