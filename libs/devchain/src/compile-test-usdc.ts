import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const TEST_USDC_SOURCE_PATH = fileURLToPath(new URL('../contracts/TestUsdc.sol', import.meta.url));
export const SOLC_SETTINGS = { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun' } as const;

export interface CompiledContract {
  solcVersion: string;
  abi: unknown[];
  bytecode: `0x${string}`;
}

/** Compiles the test token from its Solidity source with solc-js (the npm compiler). */
export function compileTestUsdc(): CompiledContract {
  const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string; version(): string };
  const input = {
    language: 'Solidity',
    sources: { 'TestUsdc.sol': { content: readFileSync(TEST_USDC_SOURCE_PATH, 'utf8') } },
    settings: { ...SOLC_SETTINGS, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const contract = output.contracts['TestUsdc.sol']!['TestUsdc']!;
  return { solcVersion: solc.version(), abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}
