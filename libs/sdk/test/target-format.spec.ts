import { describe, expect, expectTypeOf, it } from 'vitest';
import { type ConvertFileOptions, isTargetFormat, TARGET_FORMATS, type TargetFormat } from '../src/index.js';

// `tsc -p tsconfig.json` checks this file: each @ts-expect-error fails the typecheck if its line compiles.
describe('TargetFormat: the targets the service knows, as a union', () => {
  it('takes canonical ids and their aliases, and not a misspelt format', () => {
    expectTypeOf<'webp'>().toExtend<TargetFormat>();
    expectTypeOf<'jpeg'>().toExtend<TargetFormat>();
    expectTypeOf<'tif'>().toExtend<TargetFormat>();
    expectTypeOf<'wepb'>().not.toExtend<TargetFormat>();
    const options: Pick<ConvertFileOptions, 'targetFormat'> = {
      // @ts-expect-error: 'wepb' is not a target format
      targetFormat: 'wepb',
    };
    // @ts-expect-error: a plain string is not a TargetFormat until isTargetFormat says so
    const unchecked: TargetFormat = String(options.targetFormat);
    expect(unchecked).toBe('wepb');
  });

  it('lists the engine targets with their aliases at run time too', () => {
    expect(TARGET_FORMATS).toEqual(expect.arrayContaining(['webp', 'jpg', 'jpeg', 'tif', 'tiff', 'pdf', 'mp3', 'docx']));
    expect(TARGET_FORMATS).not.toContain('wepb');
    expect(isTargetFormat('JPEG')).toBe(true);
    expect(isTargetFormat('wepb')).toBe(false);
  });
});
