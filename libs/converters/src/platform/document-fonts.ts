/**
 * The fonts documents are drawn with, as Debian packages: what LibreOffice, Chromium, calibre, ImageMagick and
 * librsvg find through fontconfig (the sandbox mounts /usr/share/fonts and /etc/fonts read-only). A script with
 * no font here comes out as boxes even though its text can still be extracted. The Dockerfile, `npm start` and the
 * test command install exactly these (tests check both lists).
 */
export interface DocumentFont {
  debianPackage: string;
  /** What the package draws, for the docs. */
  covers: string;
  /** Installed size, MB (Debian 12). */
  installedMb: number;
}

export const DOCUMENT_FONTS: readonly DocumentFont[] = [
  { debianPackage: 'fonts-dejavu-core', covers: 'DejaVu Sans, Serif and Mono: Latin, Greek, Cyrillic; LibreOffice\'s fallback', installedMb: 3 },
  { debianPackage: 'fonts-liberation2', covers: 'Liberation Sans, Serif, Mono: the metrics of Arial, Times New Roman and Courier New', installedMb: 4 },
  { debianPackage: 'fonts-crosextra-carlito', covers: 'Carlito: the metrics of Calibri (Word\'s default since 2007)', installedMb: 3 },
  { debianPackage: 'fonts-crosextra-caladea', covers: 'Caladea: the metrics of Cambria', installedMb: 0.4 },
  { debianPackage: 'fonts-noto-core', covers: 'Noto Sans and Serif for Arabic, Hebrew, Devanagari, Bengali, Tamil, Thai and most other living scripts', installedMb: 43 },
  { debianPackage: 'fonts-noto-cjk', covers: 'Noto Sans and Serif CJK: Chinese (simplified and traditional), Japanese, Korean', installedMb: 91 },
  // LibreOffice 7.4 exports Noto Color Emoji's bitmap glyphs as invisible ones; a monochrome outline font draws.
  { debianPackage: 'fonts-symbola', covers: 'Symbola: emoji and symbols, monochrome', installedMb: 3 },
];
