import fs from 'node:fs';

export function read(p) {
  return fs.readFileSync(p);
}
