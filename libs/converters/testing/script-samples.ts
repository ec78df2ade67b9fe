import { docxOfParagraphs, escapeXml, odf } from './office-samples.js';

/**
 * A line of text in each script a document may hold, tagged with its language. Each line is a sentence or a run of
 * words, so a drawn line has many different glyphs and a line of missing-glyph boxes has one shape repeated.
 */
export const SCRIPT_LINES = [
  { script: 'Latin', lang: 'en', text: 'The quick brown fox jumps over the lazy dog' },
  { script: 'Greek', lang: 'el', text: 'Γαζέες καὶ μυρτιὲς δὲν θὰ βρῶ πιὰ στὸ χρυσαφὶ ξέφωτο' },
  { script: 'Cyrillic', lang: 'ru', text: 'Съешь же ещё этих мягких французских булок да выпей чаю' },
  { script: 'Chinese', lang: 'zh-CN', text: '我能吞下玻璃而不伤身体，这是一句中文。' },
  { script: 'Japanese', lang: 'ja', text: 'いろはにほへと ちりぬるを 日本語の文章です' },
  { script: 'Korean', lang: 'ko', text: '다람쥐 헌 쳇바퀴에 타고파 한국어 문장입니다' },
  { script: 'Arabic', lang: 'ar', text: 'نص حكيم له سر قاطع وذو شأن عظيم مكتوب على ثوب أخضر' },
  { script: 'Hebrew', lang: 'he', text: 'דג סקרן שט בים מאוכזב ולפתע מצא חברה' },
  { script: 'Devanagari', lang: 'hi', text: 'मैं काँच खा सकता हूँ और मुझे उससे कोई चोट नहीं पहुंचती' },
  { script: 'Bengali', lang: 'bn', text: 'আমি কাঁচ খেতে পারি, তাতে আমার কোনো ক্ষতি হয় না' },
  { script: 'Tamil', lang: 'ta', text: 'நான் கண்ணாடி சாப்பிடுவேன், அதனால் எனக்கு ஒரு கேடும் வராது' },
  { script: 'Thai', lang: 'th', text: 'ฉันกินกระจกได้ แต่มันไม่ทำให้ฉันเจ็บ' },
  { script: 'emoji', lang: 'en', text: '😀 🚀 🌍 🎉 ❤ 🐍 ☕ 📄' },
] as const;

/** The scripts' lines as a DOCX, one paragraph each with an empty one between (lines apart on the page), written by hand as Word writes them. */
export const scriptsDocx = (): Buffer => docxOfParagraphs(SCRIPT_LINES.flatMap(({ text, lang }) => [{ text, lang }, { text: '' }]));

/** The same as an ODT, each paragraph with its language. */
export function scriptsOdt(): Buffer {
  const styles = SCRIPT_LINES.map(({ lang }, index) => {
    const [language, country] = lang.split('-');
    const locale = `fo:language="${language}"${country ? ` fo:country="${country}"` : ''}`;
    // A language sits in one of three slots by script class; setting all three tags the run whatever its class.
    return `<style:style style:name="L${index}" style:family="paragraph"><style:text-properties ${locale} ${locale.replace(/fo:/g, 'style:').replace(/language=/, 'language-asian=').replace(/country=/, 'country-asian=')} ${locale.replace(/fo:/g, 'style:').replace(/language=/, 'language-complex=').replace(/country=/, 'country-complex=')}/></style:style>`;
  }).join('');
  const body = SCRIPT_LINES.map(({ text }, index) => `<text:p text:style-name="L${index}">${escapeXml(text)}</text:p><text:p/>`).join('');
  return odf('text', body, { styles });
}

export const scriptsHtml = (): string =>
  `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>scripts</title></head><body>\n` +
  SCRIPT_LINES.map(({ text, lang }) => `<p lang="${lang}"${lang === 'ar' || lang === 'he' ? ' dir="rtl"' : ''}>${escapeXml(text)}</p>`).join('\n') +
  `\n</body></html>\n`;

export const scriptsMarkdown = (): string => SCRIPT_LINES.map(({ text }) => text).join('\n\n') + '\n';
