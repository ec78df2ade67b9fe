/**
 * The key API: upload, convert (the server waits), download.
 *   FILESHIFT_API_KEY=fsk_… node key-api.ts photo.png webp
 */
import { createClient } from '@fileshift/sdk';
import { fileFromPath, saveFile } from '@fileshift/sdk/node';

const [path, extOut = 'webp'] = process.argv.slice(2);
if (!path) throw new Error('usage: key-api.ts <file> [target extension]');

const client = createClient({ baseUrl: process.env.FILESHIFT_URL ?? 'http://127.0.0.1:3000', apiKey: process.env.FILESHIFT_API_KEY });

const extIn = path.split('.').pop()!;
console.log(`${extIn} converts to: ${(await client.listFormats(extIn)).join(', ')}`);
const filename = await client.upload(await fileFromPath(path));
const { urls } = await client.convert({ filename, extIn, extOut });
const download = await fetch(urls[0]!);
await saveFile(`${path}.${extOut}`, new Uint8Array(await download.arrayBuffer()));
console.log(`saved ${path}.${extOut} from ${urls[0]}`);
