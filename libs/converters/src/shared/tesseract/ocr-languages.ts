/**
 * The languages OCR reads: tesseract's trained data for each is a Debian package (tesseract-ocr-<code>) the test
 * command and the Dockerfile install. A caller names a language by its ISO 639-1 or 639-2 code or by tesseract's.
 */
export const OCR_LANGUAGES = [
  { tesseract: 'eng', name: 'English', codes: ['en', 'eng'] },
  { tesseract: 'deu', name: 'German', codes: ['de', 'deu', 'ger'] },
  { tesseract: 'fra', name: 'French', codes: ['fr', 'fra', 'fre'] },
  { tesseract: 'spa', name: 'Spanish', codes: ['es', 'spa'] },
  { tesseract: 'ita', name: 'Italian', codes: ['it', 'ita'] },
  { tesseract: 'por', name: 'Portuguese', codes: ['pt', 'por'] },
  { tesseract: 'nld', name: 'Dutch', codes: ['nl', 'nld', 'dut'] },
  { tesseract: 'rus', name: 'Russian', codes: ['ru', 'rus'] },
  { tesseract: 'ara', name: 'Arabic', codes: ['ar', 'ara'] },
  { tesseract: 'heb', name: 'Hebrew', codes: ['he', 'heb'] },
  { tesseract: 'hin', name: 'Hindi', codes: ['hi', 'hin'] },
  { tesseract: 'chi_sim', name: 'Chinese (simplified)', codes: ['zh', 'zh-hans', 'zh-cn', 'chi_sim'] },
  { tesseract: 'chi_tra', name: 'Chinese (traditional)', codes: ['zh-hant', 'zh-tw', 'chi_tra'] },
  { tesseract: 'jpn', name: 'Japanese', codes: ['ja', 'jpn'] },
  { tesseract: 'kor', name: 'Korean', codes: ['ko', 'kor'] },
] as const;

/** Every code a caller may name a language by (lower case). */
export const OCR_LANGUAGE_CODES = OCR_LANGUAGES.flatMap((language) => language.codes) as unknown as readonly [string, ...string[]];

/** The Debian packages of the languages' trained data, and of orientation and script detection. */
export const OCR_LANGUAGE_PACKAGES = ['tesseract-ocr-osd', ...OCR_LANGUAGES.map((language) => `tesseract-ocr-${language.tesseract.replace('_', '-')}`)];

/** Pure: tesseract's `-l` argument for the languages a caller named (codes already validated), in their order, once each. */
export function tesseractLanguages(codes: readonly string[]): string {
  const names = codes.map((code) => OCR_LANGUAGES.find((language) => (language.codes as readonly string[]).includes(code.toLowerCase()))?.tesseract);
  return [...new Set(names.filter((name): name is NonNullable<typeof name> => name !== undefined))].join('+');
}

/**
 * The languages read when the caller names none, by the script tesseract's orientation and script detection finds:
 * a Latin page is read as English (accents of other Latin languages read best when the language is named).
 */
const LANGUAGES_OF_SCRIPT: ReadonlyMap<string, string> = new Map(Object.entries({
  Latin: 'eng',
  Cyrillic: 'rus',
  Arabic: 'ara',
  Hebrew: 'heb',
  Devanagari: 'hin',
  Han: 'chi_sim+chi_tra',
  Japanese: 'jpn',
  Katakana: 'jpn',
  Hiragana: 'jpn',
  Hangul: 'kor',
  Korean: 'kor',
}));
export const DEFAULT_OCR_LANGUAGES = 'eng';

/** Pure: tesseract's languages for the script its detection printed ("Script: Han"), English when unknown. */
export function languagesOfScript(osdOutput: string): string {
  const script = /^Script:\s*(\S+)/m.exec(osdOutput)?.[1];
  return (script && LANGUAGES_OF_SCRIPT.get(script)) || DEFAULT_OCR_LANGUAGES;
}
