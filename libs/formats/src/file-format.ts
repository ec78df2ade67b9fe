import type { FormatCategory } from './format-category.js';

export interface FileFormat {
  /** Lowercase canonical identifier, e.g. `jpg`, `docx`, `mp4`. */
  id: string;
  description: string;
  /** Canonical extension, without the dot. */
  extension: string;
  /** Every extension of the format, the canonical one first. */
  extensions: readonly string[];
  /** MIME types, the canonical one first. */
  mimeTypes: readonly string[];
  category: FormatCategory;
}
