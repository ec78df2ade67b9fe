export { canLose, CONTENT_LOSSES, type ContentLoss, contentLosses, holdsTransparency } from './content-losses.js';
export type { FileFormat } from './file-format.js';
export { FORMAT_CATEGORIES, type FormatCategory } from './format-category.js';
export { extensionOf, formatByExtension, FORMATS, formatsByMimeType, getFormat, isLossyFormat, mimeTypeOf, resolveFormat } from './format-catalogue.js';
