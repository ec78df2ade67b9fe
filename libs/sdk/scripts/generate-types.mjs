// Generates src/generated/openapi.ts from the OpenAPI document: openapi-typescript, the same output as
// its CLI, except that `format: binary` becomes Blob. The CLI types it as string, which no file part or
// octet-stream body really is, and the SDK would have to cast its multipart bodies past the types.
//   node scripts/generate-types.mjs <openapi.json> <openapi.ts>
import { readFileSync, writeFileSync } from 'node:fs';
import { argv } from 'node:process';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import ts from 'typescript';

const [input, output] = argv.slice(2);
if (!input || !output) throw new Error('usage: generate-types.mjs <openapi.json> <openapi.ts>');

const BLOB = ts.factory.createTypeReferenceNode('Blob');
const NULL = ts.factory.createLiteralTypeNode(ts.factory.createNull());

const ast = await openapiTS(JSON.parse(readFileSync(input, 'utf8')), {
  transform(schema) {
    if (schema.format !== 'binary') return undefined;
    const nullable = schema.nullable || (Array.isArray(schema.type) && schema.type.includes('null'));
    return nullable ? ts.factory.createUnionTypeNode([BLOB, NULL]) : BLOB;
  },
});
writeFileSync(output, `${COMMENT_HEADER}${astToString(ast)}`);
