import { describe, expect, it } from 'vitest';
import { OCR_DESCRIPTOR } from '../../engines/ocr/ocr.descriptor.js';
import { DEFAULT_OCR_LANGUAGES, languagesOfScript, OCR_LANGUAGE_CODES, OCR_LANGUAGE_PACKAGES, OCR_LANGUAGES, tesseractLanguages } from './ocr-languages.js';

/** What `tesseract --psm 0` prints for a page (its orientation and script detection). */
const osd = (script: string) => `Page number: 0\nOrientation in degrees: 0\nRotate: 0\nOrientation confidence: 12.84\nScript: ${script}\nScript confidence: 4.17\n`;

describe('tesseractLanguages: the languages a caller names as tesseract\'s -l', () => {
  it('maps ISO 639-1, ISO 639-2 (bibliographic and terminological) and tesseract\'s own codes to tesseract\'s names', () => {
    expect(tesseractLanguages(['de'])).toBe('deu');
    expect(tesseractLanguages(['ger'])).toBe('deu');
    expect(tesseractLanguages(['deu'])).toBe('deu');
    expect(tesseractLanguages(['fre'])).toBe('fra');
    expect(tesseractLanguages(['dut'])).toBe('nld');
    expect(tesseractLanguages(['zh'])).toBe('chi_sim');
    expect(tesseractLanguages(['zh-hant'])).toBe('chi_tra');
    expect(tesseractLanguages(['zh-tw'])).toBe('chi_tra');
    expect(tesseractLanguages(['chi_sim'])).toBe('chi_sim');
    expect(tesseractLanguages(['ja', 'ko', 'hi', 'ar', 'ru'])).toBe('jpn+kor+hin+ara+rus');
    expect(tesseractLanguages(['he', 'en'])).toBe('heb+eng');
  });

  it('keeps the caller\'s order (the first is the language most used) and names each language once', () => {
    expect(tesseractLanguages(['de', 'deu', 'en'])).toBe('deu+eng');
    expect(tesseractLanguages(['en', 'de'])).toBe('eng+deu');
    expect(tesseractLanguages(['ja', 'en', 'jpn', 'eng'])).toBe('jpn+eng');
  });

  it('reads codes in any case', () => {
    expect(tesseractLanguages(['DE', 'Zh-Hant'])).toBe('deu+chi_tra');
  });

  it('knows every code it offers, and each code names one language only', () => {
    for (const code of OCR_LANGUAGE_CODES) expect(tesseractLanguages([code]), code).toMatch(/^[a-z_]+$/);
    expect(new Set(OCR_LANGUAGE_CODES).size).toBe(OCR_LANGUAGE_CODES.length);
    expect(OCR_LANGUAGE_CODES.every((code) => code === code.toLowerCase())).toBe(true);
  });
});

describe('languagesOfScript: the languages read when the caller names none', () => {
  it.each([
    ['Latin', 'eng'],
    ['Cyrillic', 'rus'],
    ['Arabic', 'ara'],
    ['Hebrew', 'heb'],
    ['Devanagari', 'hin'],
    ['Han', 'chi_sim+chi_tra'],
    ['Japanese', 'jpn'],
    ['Katakana', 'jpn'],
    ['Hangul', 'kor'],
  ])('a page in %s script is read as %s', (script, languages) => {
    expect(languagesOfScript(osd(script))).toBe(languages);
  });

  it('reads English when the script is one it has no language for, or the output is not tesseract\'s', () => {
    expect(DEFAULT_OCR_LANGUAGES).toBe('eng');
    expect(languagesOfScript(osd('Greek'))).toBe('eng');
    expect(languagesOfScript(osd('Armenian'))).toBe('eng');
    expect(languagesOfScript('')).toBe('eng');
    expect(languagesOfScript('Too few characters. Skipping this page\nError during processing.\n')).toBe('eng');
    expect(languagesOfScript('Script confidence: 4.17\nPage number: 0\n')).toBe('eng');
    expect(languagesOfScript('Script: \n')).toBe('eng');
    // Only a line that starts with "Script:" names the script.
    expect(languagesOfScript('Warning Script: Han\n')).toBe('eng');
  });
});

describe('OCR_LANGUAGE_PACKAGES: the Debian packages of the trained data', () => {
  it('names Debian\'s package of each language (an underscore is a hyphen there) and of orientation and script detection', () => {
    expect(OCR_LANGUAGE_PACKAGES).toEqual([
      'tesseract-ocr-osd',
      'tesseract-ocr-eng',
      'tesseract-ocr-deu',
      'tesseract-ocr-fra',
      'tesseract-ocr-spa',
      'tesseract-ocr-ita',
      'tesseract-ocr-por',
      'tesseract-ocr-nld',
      'tesseract-ocr-rus',
      'tesseract-ocr-ara',
      'tesseract-ocr-heb',
      'tesseract-ocr-hin',
      'tesseract-ocr-chi-sim',
      'tesseract-ocr-chi-tra',
      'tesseract-ocr-jpn',
      'tesseract-ocr-kor',
    ]);
    expect(OCR_LANGUAGES).toHaveLength(15);
  });

  it('are the OCR engine\'s packages, which the install script and the Dockerfile are checked against (test/worker-engines.spec.ts, apps/api containers.spec.ts)', () => {
    expect(OCR_DESCRIPTOR.debianPackages).toEqual(expect.arrayContaining(OCR_LANGUAGE_PACKAGES));
  });
});
