export { AgentWallet, type AgentWalletOptions, type ApprovePayment, type PayerHooks, type WalletSpending } from './agent-wallet.js';
export { FileLock, type FileLockOptions } from './file-lock.js';
export { decryptKeystore, encryptKeystore, KeystoreError, type KeystoreV3 } from './keystore.js';
export { SpendLedger, type SpendRecord } from './spend-ledger.js';
export { loadWalletAccount, type WalletKeySource } from './wallet-key.js';
