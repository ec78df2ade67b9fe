import { formatByExtension } from '@fileshift/formats';
import type { ContentGuess } from './content-guess.js';

type Language = 'c' | 'cpp' | 'java' | 'js' | 'ts' | 'css' | 'py' | 'sh' | 'pl' | 'rb' | 'php' | 'go' | 'rs' | 'sql';
type CommentStyle = 'block' | 'slash' | 'hash' | 'dash';

/** [language, pattern over the whole header, weight]: what a few lines of each language show. */
const FEATURES: ReadonlyArray<readonly [Language, RegExp, number]> = [
  ['c', /^\s*#\s*include\s*[<"]/m, 3],
  ['c', /^\s*#\s*(define|ifndef|ifdef|endif|pragma|undef|if\s+!?defined)\b/m, 3],
  ['c', /\b(typedef|struct|unsigned|size_t|u?int\d+_t|extern "C")\b/, 1.5],
  ['c', /^(static\s+)?(const\s+)?(void|int|char|long|bool|double)\s+\**\w+\s*\(/m, 2],
  ['cpp', /\b(namespace\s+\w+|template\s*<|std::\w+|public:|private:|protected:)/, 4],
  ['cpp', /^\s*#\s*include\s*<(iostream|vector|string|memory|map|algorithm|utility|cstdint|cstdio|functional)>/m, 4],
  ['java', /^package\s+[a-z][\w.]*;/m, 4],
  ['java', /^import\s+(static\s+)?(java|javax|org|com|android)\.[\w.*]+;/m, 5],
  ['java', /\b(public|private|protected)\s+(static\s+)?(final\s+)?(abstract\s+)?(class|interface|enum|void)\s/, 3],
  ['java', /@(Override|Deprecated|SuppressWarnings)\b/, 2],
  ['js', /^\s*(import\s[\w{},*\s]+\sfrom\s+['"]|export\s+(default|const|function|class|async|\{))/m, 3],
  ['js', /\b(module\.exports|exports\.\w+\s*=|require\(\s*['"]|Object\.defineProperty\(exports)/, 4],
  ['js', /^\s*['"]use strict['"]/m, 4],
  ['js', /^\s*(var|let|const)\s+[\w$]+\s*=/gm, 1.5],
  ['js', /\bfunction\s*[\w$]*\s*\([^)]*\)\s*\{/, 3],
  ['js', /=>|\b(document|window|console)\.\w+|\bdefine\(\s*\[/, 1.5],
  ['js', /^\s*[!(;]\s*function\s*\(/m, 3],
  ['ts', /^\s*(export\s+)?(interface|type|enum|declare|namespace)\s+\w+/m, 3],
  ['ts', /\w\??:\s*(string|number|boolean|any|unknown|void|never)\b|\bimport\s+type\b|\breadonly\s+\w+:/, 3],
  ['css', /^\s*@(charset|import|media|font-face|keyframes|namespace|supports|page)\b/m, 4],
  ['css', /[\w\]*)-]\s*\{\s*\n?\s*[\w-]+\s*:[^;\n]*;/, 4],
  ['css', /^\s*[\w-]+\s*:\s*[^;\n{]+;\s*$/m, 1],
  ['py', /^(from\s+[\w.]+\s+import\s|import\s+[\w.]+(\s*,\s*[\w.]+)*(\s+as\s+\w+)?\s*$)/m, 3],
  ['py', /^\s*(async\s+)?(def|class)\s+\w+.*:\s*$/m, 3],
  ['py', /^\s*("""|''')|^__(author|license|copyright|version|all|docformat)__\s*=/m, 3],
  ['py', /^\s*("""|''')/, 2],
  ['py', /^if\s+__name__\s*==|#.*-\*-\s*coding[:=]|\bself\.\w+/m, 3],
  ['sh', /^\s*(if\s+\[|then\s*$|fi\s*$|esac\s*$|done\s*$|case\s+.+\s+in\s*$|export\s+\w+=|set\s+-[eux]+|\w+\s*\(\)\s*\{)/m, 2.5],
  ['sh', /^[A-Z_][A-Z0-9_]*=["'$\w-]/gm, 1.5],
  ['sh', /^\s*(echo|local|source|readonly|unset)\s|\$\{\w+[:#%}]|`[^`\n]+`|\$\(|\$[A-Z_][A-Z0-9_]{2,}\b/m, 1.5],
  ['pl', /^\s*use\s+(strict|warnings|vars|constant|lib|utf8|Carp|Exporter|base|parent)\b/m, 5],
  ['pl', /^package\s+[\w:]+;/m, 3],
  ['pl', /\bmy\s+[$@%]\w+|^=(pod|head\d|cut|item)\b|^sub\s+\w+|__(END|DATA)__|\$\w+->\{/m, 3],
  ['rb', /^\s*(require(_relative)?\s+['"]|attr_(reader|accessor|writer)\s|module\s+[A-Z]\w*\s*$)/m, 3],
  ['rb', /^#\s*frozen_string_literal:|\bdo\s*\|\w+(,\s*\w+)*\||^\s*end\s*$|^\s*def\s+(self\.)?\w+[?!]?(\(.*\))?\s*$/m, 2.5],
  ['php', /<\?php\b|\$this->|^namespace\s+[\w\\]+;|^use\s+[\w\\]+\\\w+;/m, 5],
  ['go', /^package\s+\w+\s*$/m, 3],
  ['go', /^import\s+(\(|"\w)|^func\s+(\(\w+\s+\*?\w+\)\s+)?\w+\(|:=/m, 3],
  ['rs', /^\s*(pub(\(crate\))?\s+)?(fn|struct|enum|mod|impl|trait|use)\s+[\w:{]/m, 2],
  ['rs', /#!?\[(derive|cfg|allow|test|macro_use)\b|\blet\s+mut\b|\buse\s+(std|crate|super|self)::|->\s*(Self|Result|Option)\b/, 4],
  ['sql', /^\s*(create|alter|drop)\s+(or\s+replace\s+)?(temp(orary)?\s+)?(table|index|view|database|schema|function|trigger|sequence|type|extension|procedure)\b/im, 5],
  ['sql', /^\s*(select\s.+\sfrom\s|insert\s+into\s|update\s+\w+\s+set\s|delete\s+from\s|begin\s*;|commit\s*;|grant\s)/im, 3],
];

/** The languages a leading comment of each style may belong to. */
const COMMENTED_IN: Record<CommentStyle, readonly Language[]> = {
  block: ['c', 'cpp', 'java', 'js', 'ts', 'css', 'go', 'rs', 'php', 'sql'],
  slash: ['cpp', 'c', 'js', 'ts', 'java', 'go', 'rs', 'php'],
  hash: ['py', 'sh', 'pl', 'rb', 'php'],
  dash: ['sql'],
};
/** A header that is only a comment: the language that most often opens with one of that style. */
const COMMENT_ONLY: Record<CommentStyle, Language> = { block: 'c', slash: 'js', hash: 'py', dash: 'sql' };
const CLAIM = 3;

/**
 * Source code scored by what its lines show, not by the first rule that matches: real files open with
 * a licence comment, a docstring or `'use strict'`. A file name the opening comment mentions
 * (`fsmap.h`, `style.css`) votes for its language; a header that is only a comment is named by the
 * comment's style at a confidence an extension overrides.
 */
export function sniffCode(text: string): ContentGuess | undefined {
  const style = leadingCommentStyle(text);
  const allowed = style ? new Set(COMMENTED_IN[style]) : undefined;
  const scores = new Map<Language, number>();
  const vote = (language: Language, weight: number) => {
    if (!allowed || allowed.has(language)) scores.set(language, (scores.get(language) ?? 0) + weight);
  };
  for (const [language, pattern, weight] of FEATURES) {
    // A global pattern counts its lines (up to three): one `const x =` may be anything, three are JavaScript.
    const hits = pattern.global ? Math.min(3, text.match(pattern)?.length ?? 0) : Number(pattern.test(text));
    if (hits) vote(language, weight * hits);
  }
  const namedLanguage = languageNamedIn(text);
  if (namedLanguage) vote(namedLanguage, 2);
  const editorMode = editorModeIn(text);
  if (editorMode) vote(editorMode, 6);
  // Inherited features: TypeScript is JavaScript with types, C++ reads C headers.
  if (scores.has('ts')) scores.set('ts', scores.get('ts')! + (scores.get('js') ?? 0));
  if (scores.has('cpp')) scores.set('cpp', scores.get('cpp')! + (scores.get('c') ?? 0));

  const [best, score] = [...scores.entries()].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (best && score! >= CLAIM) return { format: best, confidence: Math.min(0.9, 0.55 + score! * 0.04), reason: `${best} source (its statements${style ? `, after a ${style} comment` : ''})` };
  if (style && isOnlyComment(text, style)) {
    // What the comment hints at (a weak feature, a file it names), else the language that most often opens so.
    const named = namedFile(text);
    const format = best ?? (named && (COMMENTED_IN[style].includes(named as Language) || named === 'txt') ? named : COMMENT_ONLY[style]);
    // A comment is all there is: every language commented so (and plain text) is a tie the name breaks.
    return { format, confidence: 0.45, reason: `a ${style} comment, as ${format} files open`, family: [...COMMENTED_IN[style], 'txt'] };
  }
  return undefined;
}

const LANGUAGE_NAMES: ReadonlyArray<readonly [RegExp, Language]> = [
  [/\b(CSS|[Ss]tylesheet|style sheet)\b/, 'css'],
  [/\b(JavaScript|jQuery|Node\.js|ECMAScript)\b/, 'js'],
  [/\bTypeScript\b/, 'ts'],
  [/\bPython\b/, 'py'],
  [/\bPerl\b/, 'pl'],
  [/\bRuby\b/, 'rb'],
  [/\b(Go Authors|golang)\b/, 'go'],
  [/\bRust\b/, 'rs'],
  [/\b(shell script|bash script|POSIX sh)\b/i, 'sh'],
];

/** Emacs major modes and Vim file types, as modelines name them, by language. */
const EDITOR_MODES: Record<string, Language> = {
  c: 'c', 'c++': 'cpp', cpp: 'cpp', java: 'java', js: 'js', js2: 'js', javascript: 'js', typescript: 'ts', css: 'css',
  python: 'py', sh: 'sh', 'shell-script': 'sh', bash: 'sh', ksh: 'sh', perl: 'pl', cperl: 'pl', ruby: 'rb', php: 'php',
  go: 'go', rust: 'rs', sql: 'sql',
};

/**
 * The language an editor modeline names: Emacs's `-*- shell-script -*-` or `-*- mode: python; … -*-`, Vim's
 * `vim: set ft=perl:`. Written for the editor, so it says what the author's tools took the file to be.
 */
function editorModeIn(text: string): Language | undefined {
  const emacs = /-\*-([^\n]*?)-\*-/.exec(text)?.[1];
  const mode = emacs && (/(?:^|;)\s*mode:\s*([\w+-]+)/i.exec(emacs)?.[1] ?? (emacs.includes(':') ? undefined : emacs.trim()));
  const vim = /\b(?:vim?|ex):.*?\b(?:ft|filetype)=([\w+]+)/.exec(text)?.[1];
  const name = (mode ?? vim)?.toLowerCase();
  return name ? EDITOR_MODES[name] : undefined;
}

/** The language a comment names: a file name with its extension (`fsmap.h`, `style.css`), or the language itself. */
function languageNamedIn(text: string): Language | undefined {
  const extension = /\b[\w-]+\.(c|h|cc|cpp|hpp|css|js|mjs|ts|py|sh|pl|pm|rb|go|rs|java|php|sql)\b/.exec(text)?.[1];
  if (extension) return formatByExtension(extension)?.id as Language | undefined;
  return LANGUAGE_NAMES.find(([pattern]) => pattern.test(text))?.[1];
}

/** The format of the first file a comment names by its name (`help.txt - English GnuPG online help`). */
function namedFile(text: string): string | undefined {
  const extension = /\b[\w-]+\.([a-z]{1,4})\b/.exec(text)?.[1];
  return extension ? formatByExtension(extension)?.id : undefined;
}

/** How the header's first non-blank line opens a comment, if it does. */
export function leadingCommentStyle(text: string): CommentStyle | undefined {
  const start = text.trimStart();
  if (start.startsWith('/*')) return 'block';
  if (start.startsWith('//')) return 'slash';
  if (/^#(?![!#]|\s*(include|define|if|ifdef|ifndef|pragma|import)\b)/.test(start)) return 'hash';
  if (start.startsWith('--')) return 'dash';
  return undefined;
}

/** Whether the header is one comment to its end (the 200-byte cut may end it midway). */
function isOnlyComment(text: string, style: CommentStyle): boolean {
  const start = text.trimStart();
  if (style === 'block') {
    const end = start.indexOf('*/');
    return end === -1 || start.slice(end + 2).trim().length === 0 || leadingCommentStyle(start.slice(end + 2)) !== undefined;
  }
  const marker = { slash: '//', hash: '#', dash: '--' }[style];
  return start.split(/\r?\n/).every((line) => line.trim() === '' || line.trimStart().startsWith(marker));
}
