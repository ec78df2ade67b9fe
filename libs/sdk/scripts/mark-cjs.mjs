// The CommonJS build lives in a "type": "module" package: mark its folder as CommonJS.
import { writeFileSync } from 'node:fs';
import { URL } from 'node:url';

writeFileSync(new URL('../dist/cjs/package.json', import.meta.url), '{ "type": "commonjs" }\n');
