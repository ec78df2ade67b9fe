export { AgentWallet, type AgentWalletOptions, type ApprovePayment, type WalletSpending } from './agent-wallet.js';
export { decryptKeystore, encryptKeystore, KeystoreError, type KeystoreV3 } from './keystore.js';
export { SpendLedger, type SpendRecord } from './spend-ledger.js';
export { loadWalletAccount, type WalletKeySource } from './wallet-key.js';
