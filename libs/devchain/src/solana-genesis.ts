import type { Address } from '@solana/kit';
import { AccountState, findAssociatedTokenPda, getMintEncoder, getTokenEncoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { LAMPORTS_PER_SOL, SOLANA_DEV_KEYS, SOLANA_DEV_USDC_DECIMALS, SOLANA_DEV_USDC_PER_PAYER } from './solana-dev-keys.js';
import type { SolanaLedger } from './solana-ledger.js';

const SYSTEM_PROGRAM = '11111111111111111111111111111111';
const PAYER_SOL = 10n * LAMPORTS_PER_SOL;
const FEE_PAYER_SOL = 1_000_000n * LAMPORTS_PER_SOL;

/** The associated token account of an owner for the dev USDC (classic SPL Token program). */
export async function usdcAccountOf(owner: Address): Promise<Address> {
  const [account] = await findAssociatedTokenPda({ owner, mint: SOLANA_DEV_KEYS.usdcMint.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return account;
}

/**
 * The chain's first state, written as a validator's genesis accounts are (solana-test-validator's `--account`):
 * the test USDC mint (6 decimals, the mint authority's) at its fixed address, the payTo's and each payer's token
 * accounts (payers holding 1,000,000 test USDC and some SOL), and the facilitator's fee payer with SOL for fees.
 * Every later change is a transaction litesvm executes.
 */
export async function writeGenesis(ledger: SolanaLedger): Promise<void> {
  const { usdcMint, mintAuthority, payTo, feePayer, payers } = SOLANA_DEV_KEYS;
  const mintData = getMintEncoder().encode({
    mintAuthority: mintAuthority.address,
    supply: SOLANA_DEV_USDC_PER_PAYER * BigInt(payers.length),
    decimals: SOLANA_DEV_USDC_DECIMALS,
    isInitialized: true,
    freezeAuthority: null,
  });
  ledger.setAccount(usdcMint.address, tokenProgramAccount(ledger, new Uint8Array(mintData)));
  for (const { owner, amount } of [{ owner: payTo.address, amount: 0n }, ...payers.map((payer) => ({ owner: payer.address, amount: SOLANA_DEV_USDC_PER_PAYER }))]) {
    const tokenData = getTokenEncoder().encode({
      mint: usdcMint.address,
      owner,
      amount,
      delegate: null,
      state: AccountState.Initialized,
      isNative: null,
      delegatedAmount: 0n,
      closeAuthority: null,
    });
    ledger.setAccount(await usdcAccountOf(owner), tokenProgramAccount(ledger, new Uint8Array(tokenData)));
  }
  for (const payer of payers) ledger.setAccount(payer.address, systemAccount(PAYER_SOL));
  ledger.setAccount(feePayer.address, systemAccount(FEE_PAYER_SOL));
  ledger.setAccount(mintAuthority.address, systemAccount(PAYER_SOL));
}

function tokenProgramAccount(ledger: SolanaLedger, data: Uint8Array) {
  return { lamports: ledger.minimumBalanceForRentExemption(BigInt(data.length)), owner: TOKEN_PROGRAM_ADDRESS, data, executable: false };
}

function systemAccount(lamports: bigint) {
  return { lamports, owner: SYSTEM_PROGRAM, data: new Uint8Array(), executable: false };
}
