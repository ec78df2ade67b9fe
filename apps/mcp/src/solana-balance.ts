import { address, getAddressEncoder, getProgramDerivedAddress } from '@solana/kit';

const TOKEN_PROGRAM = address('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
const ASSOCIATED_TOKEN_PROGRAM = address('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');

/** The atomic units of `mint` that `owner` holds in its associated token account; null when it cannot be read. */
export async function solanaTokenBalance(rpcUrl: string, owner: string, mint: string): Promise<bigint | null> {
  try {
    const encoder = getAddressEncoder();
    const [account] = await getProgramDerivedAddress({
      programAddress: ASSOCIATED_TOKEN_PROGRAM,
      seeds: [encoder.encode(address(owner)), encoder.encode(TOKEN_PROGRAM), encoder.encode(address(mint))],
    });
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getTokenAccountBalance', params: [account] }),
    });
    const answer = (await response.json()) as { result?: { value?: { amount?: string } } };
    const amount = answer.result?.value?.amount;
    return amount !== undefined && /^\d+$/.test(amount) ? BigInt(amount) : null;
  } catch {
    return null;
  }
}
