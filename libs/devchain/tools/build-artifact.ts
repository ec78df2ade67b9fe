import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileTestUsdc } from '../src/compile-test-usdc.js';

// Regenerates src/test-usdc.artifact.json from contracts/TestUsdc.sol (npx tsx libs/devchain/tools/build-artifact.ts).
const target = fileURLToPath(new URL('../src/test-usdc.artifact.json', import.meta.url));
writeFileSync(target, `${JSON.stringify(compileTestUsdc(), null, 2)}\n`);
console.log(`wrote ${target}`);
