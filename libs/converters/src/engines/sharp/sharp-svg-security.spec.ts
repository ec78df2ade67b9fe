import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARP_DESCRIPTOR } from './sharp.descriptor.js';
import { nodeHostedRuntime } from '../../../test/support/node-hosted.js';
import { convertStep } from '../../../test/support/test-context.js';

const dir = mkdtempSync(join(tmpdir(), 'fileshift-svg-'));
/** Outside the directory the SVG is in: what its references try to reach. */
const outside = join(dir, 'outside');
const job = join(dir, 'job');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether the 20×20 cell at `x` of a rendered PNG is the red of the referenced image (the rest is white). */
async function redAt(png: string, x: number): Promise<boolean> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const i = (10 * info.width + x) * info.channels;
  return data[i]! > 200 && data[i + 1]! < 60 && data[i + 2]! < 60;
}

/**
 * An SVG's external references (an absolute file path, a path out of its directory, a URL, a file beside it).
 * librsvg given the SVG's path follows the last (the positive control: the references are live); the runtime
 * hands librsvg the bytes without a base, so it follows none.
 */
describe('SVG with external references (sharp, librsvg)', () => {
  const runtime = nodeHostedRuntime(SHARP_DESCRIPTOR, 'sharp');
  const requests: string[] = [];
  let canary: Server;
  let svg = '';

  beforeAll(async () => {
    canary = createServer((request, response) => {
      requests.push(request.url ?? '');
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(canary.address() as AddressInfo).port}/canary.png`;
    mkdirSync(outside);
    mkdirSync(job);
    const red = sharp({ create: { width: 20, height: 20, channels: 3, background: '#f00' } }).png();
    await red.clone().toFile(join(outside, 'secret.png'));
    await red.clone().toFile(join(job, 'beside.png'));
    const image = (x: number, href: string) => `<image x="${x}" y="0" width="20" height="20" xlink:href="${href}"/>`;
    svg = join(job, 'drawing.svg');
    writeFileSync(
      svg,
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="80" height="20"><rect width="80" height="20" fill="white"/>` +
        image(0, `file://${join(outside, 'secret.png')}`) + image(20, '../outside/secret.png') + image(40, url) + image(60, 'beside.png') + `</svg>`,
    );
  });
  afterAll(() => new Promise((resolve) => canary.close(resolve)));

  it('positive control: librsvg given the SVG by path renders the file beside it', async () => {
    const control = join(dir, 'control.png');
    await sharp(svg).png().toFile(control);
    expect(await redAt(control, 70)).toBe(true);
  });

  it('the runtime follows no reference: not beside, not outside, not on the network', async () => {
    const [png] = (await convertStep(runtime, { inputPath: svg, from: 'svg', to: 'png' }, dir)) as [string];
    expect([await redAt(png, 10), await redAt(png, 30), await redAt(png, 50), await redAt(png, 70)]).toEqual([false, false, false, false]);
    expect(requests).toEqual([]);
  });
});
