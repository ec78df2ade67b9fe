import type { SolanaDevChain } from '@fileshift/devchain';
import {
  AccountRole,
  type AccountSignerMeta,
  type Address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getAddressEncoder,
  getBase64EncodedWireTransaction,
  type Instruction,
  type InstructionWithSigners,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Blockhash,
} from '@solana/kit';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';

const SYSTEM_PROGRAM = '11111111111111111111111111111111' as Address;

/**
 * A second token on the Solana dev chain, made by ordinary transactions the chain executes: a new mint with the
 * test USDC's 6 decimals, whose `holder` gets `amount` of it. `holder` pays the fees and the rent.
 */
export async function createOtherMint(chain: SolanaDevChain, holder: KeyPairSigner, amount: bigint): Promise<Address> {
  const mint = await generateKeyPairSigner();
  const space = getMintSize();
  const rent = BigInt((await chain.rpc('getMinimumBalanceForRentExemption', [space])) as number);
  const [holderAccount] = await findAssociatedTokenPda({ owner: holder.address, mint: mint.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  await send(chain, holder, [
    createAccount(holder, mint, rent, space, TOKEN_PROGRAM_ADDRESS),
    getInitializeMint2Instruction({ mint: mint.address, decimals: chain.usdcDecimals, mintAuthority: holder.address }),
    await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: holder, owner: holder.address, mint: mint.address }),
    getMintToInstruction({ mint: mint.address, token: holderAccount, mintAuthority: holder, amount }),
  ]);
  return mint.address;
}

/** The System Program's CreateAccount (instruction 0: lamports, space, owner), which @solana/kit leaves to a program library. */
function createAccount(payer: KeyPairSigner, account: KeyPairSigner, lamports: bigint, space: number, owner: Address): Instruction & InstructionWithSigners {
  const data = new Uint8Array(4 + 8 + 8 + 32);
  const view = new DataView(data.buffer);
  view.setUint32(0, 0, true);
  view.setBigUint64(4, lamports, true);
  view.setBigUint64(12, BigInt(space), true);
  data.set(getAddressEncoder().encode(owner), 20);
  const accounts: AccountSignerMeta[] = [
    { address: payer.address, role: AccountRole.WRITABLE_SIGNER, signer: payer },
    { address: account.address, role: AccountRole.WRITABLE_SIGNER, signer: account },
  ];
  return { programAddress: SYSTEM_PROGRAM, accounts, data };
}

async function send(chain: SolanaDevChain, feePayer: KeyPairSigner, instructions: Instruction[]): Promise<void> {
  const { value } = (await chain.rpc('getLatestBlockhash', [])) as { value: { blockhash: Blockhash; lastValidBlockHeight: number } };
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: value.blockhash, lastValidBlockHeight: BigInt(value.lastValidBlockHeight) }, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const transaction = getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message));
  await chain.rpc('sendTransaction', [transaction, { encoding: 'base64' }]);
}
