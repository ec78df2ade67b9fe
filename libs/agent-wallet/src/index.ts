export { AgentWallet, type AgentWalletOptions, type ApprovePayment, type PayerHooks, type SolanaSigning, type WalletSpending } from './agent-wallet.js';
export { FileLock, type FileLockOptions } from './file-lock.js';
export { decryptKeystore, encryptKeystore, type KeystoreCrypto, KeystoreError, type KeystoreV3 } from './keystore.js';
export { SolanaKey } from './solana-key.js';
export { SpendLedger, type SpendRecord } from './spend-ledger.js';
export { loadWalletAccount, loadWalletKeys, type WalletKeys, type WalletKeySource } from './wallet-key.js';
export { decryptWalletKeystore, encryptWalletKeystore, type WalletKeystore, type WalletSecrets } from './wallet-keystore.js';
