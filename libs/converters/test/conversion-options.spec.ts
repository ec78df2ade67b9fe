import { describe, expect, it } from 'vitest';
import { selectedPages } from '../src/platform/conversion-options.js';
import { describeAllowed, validateOptions } from '../src/engines/option-catalogue.js';

describe('validateOptions', () => {
  it('accepts the options a plan takes, typed', () => {
    expect(validateOptions({ quality: 80, width: 100 }, ['quality', 'width', 'height'])).toEqual({ ok: true, options: { quality: 80, width: 100 } });
    expect(validateOptions(undefined, [])).toEqual({ ok: true, options: {} });
    expect(validateOptions({ pages: '1-3,5', dpi: 200 }, ['pages', 'dpi'])).toMatchObject({ ok: true });
  });

  it('refuses unknown and inapplicable options, naming what this conversion takes', () => {
    const result = validateOptions({ colour: 'red', pdfa: '2b' }, ['quality']);
    expect(result).toEqual({
      ok: false,
      problems: [
        { option: 'colour', message: 'is not an option; this conversion takes quality' },
        { option: 'pdfa', message: 'does not apply here; this conversion takes quality' },
      ],
    });
    expect(validateOptions({ quality: 5 }, [])).toMatchObject({ ok: false, problems: [{ message: expect.stringContaining('takes no options') }] });
  });

  it('refuses values outside their schema, naming the allowed values', () => {
    const result = validateOptions({ quality: 101, bitrate: '100k', pages: '0-2', fit: 'stretch' }, ['quality', 'bitrate', 'pages', 'fit']);
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems.map((p) => p.option)).toEqual(['quality', 'bitrate', 'pages', 'fit']);
    expect(problems[0]!.message).toContain('an integer from 1 to 100');
    expect(problems[1]!.message).toContain('one of 64k, 96k, 128k, 160k, 192k, 256k, 320k');
    expect(problems[3]!.message).toContain('one of cover, contain, fill, inside, outside');
    expect(validateOptions('quality=5', ['quality'])).toMatchObject({ ok: false, problems: [{ option: '(options)' }] });
    expect(validateOptions({ quality: 50.5 }, ['quality']).ok).toBe(false);
  });

  it('describes allowed values in words', () => {
    expect(describeAllowed('dpi')).toBe('an integer from 36 to 600');
    expect(describeAllowed('pdfa')).toBe('one of 1b, 2b, 3b');
    expect(describeAllowed('ocr')).toBe('only true');
    expect(describeAllowed('languages')).toMatch(/^a list of 1 to 4 of en, eng, de, deu, ger, .*, ko, kor$/);
  });

  it('takes ocr only as true: false is no searchable PDF, which is the conversion without it', () => {
    expect(validateOptions({ ocr: true }, ['ocr', 'languages'])).toEqual({ ok: true, options: { ocr: true } });
    for (const value of [false, 'true', 1]) {
      expect(validateOptions({ ocr: value }, ['ocr', 'languages']), String(value)).toMatchObject({ ok: false, problems: [{ option: 'ocr', message: expect.stringContaining('(only true)') }] });
    }
  });

  it('takes 1 to 4 languages by ISO 639 or tesseract codes, naming the codes when one is unknown', () => {
    expect(validateOptions({ languages: ['de', 'ja'] }, ['languages'])).toEqual({ ok: true, options: { languages: ['de', 'ja'] } });
    expect(validateOptions({ languages: ['chi_sim', 'zh-hant', 'ger', 'eng'] }, ['languages']).ok).toBe(true);
    const unknown = validateOptions({ languages: ['xx'] }, ['languages']);
    expect(unknown).toMatchObject({ ok: false, problems: [{ option: 'languages' }] });
    const message = unknown.ok ? '' : unknown.problems[0]!.message;
    for (const code of ['en', 'de', 'ja', 'zh-hant', 'chi_sim', 'kor']) expect(message).toContain(code);
    expect(validateOptions({ languages: [] }, ['languages'])).toMatchObject({ ok: false, problems: [{ option: 'languages', message: expect.stringContaining('a list of 1 to 4') }] });
    expect(validateOptions({ languages: ['en', 'de', 'fr', 'es', 'it'] }, ['languages'])).toMatchObject({ ok: false, problems: [{ option: 'languages' }] });
    expect(validateOptions({ languages: 'de' }, ['languages'])).toMatchObject({ ok: false, problems: [{ option: 'languages' }] });
  });

  it('names each engine\'s set of options where engines offer the conversion with options of their own', () => {
    const pdfToPdf = [['compress', 'pdfa', 'pages'], ['ocr', 'languages']] as const;
    expect(validateOptions({ ocr: true, compress: 'screen' }, pdfToPdf[0], pdfToPdf)).toEqual({
      ok: false,
      problems: [{ option: 'ocr', message: "does not apply here; this conversion takes compress, pdfa, pages; or ocr, languages (not mixed: each set is another engine's)" }],
    });
    // png → pdf: img2pdf's takes none.
    expect(validateOptions({ dpi: 300 }, [], [[], ['ocr', 'languages']])).toMatchObject({
      ok: false,
      problems: [{ option: 'dpi', message: "does not apply here; this conversion takes no options; or ocr, languages (not mixed: each set is another engine's)" }],
    });
  });
});

describe('selectedPages', () => {
  it('selects 1-based pages and ranges within the page count, in order, once', () => {
    expect(selectedPages(undefined, 3)).toEqual([1, 2, 3]);
    expect(selectedPages('5,1-2,2', 10)).toEqual([1, 2, 5]);
    expect(selectedPages('2-100', 4)).toEqual([2, 3, 4]);
    expect(selectedPages('9', 4)).toEqual([]);
  });
});
