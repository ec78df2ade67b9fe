/**
 * One example per file operation, in the conversion tools' descriptions: an agent asked to "merge", "watermark" or
 * "remove GPS" finds the arguments here without reading docs. One short line each; the file itself (path, url or
 * content_base64) is left out. Kept beside the hosted endpoint's copy (apps/api/src/mcp-endpoint/operation-examples.ts).
 */
export const OPERATION_EXAMPLES = [
  'merge PDFs: paths ["a.pdf","b.pdf"], target_format "pdf"',
  'pictures into one PDF: paths ["1.jpg","2.png"], target_format "pdf"',
  'files into an archive: paths ["a.pdf","notes.txt"], target_format "zip"',
  'split a PDF: target_format "zip", options {"split":{"every":1}} (or {"ranges":"1-3,4-7"})',
  'protect with a password: target_format "pdf", options {"password":{"user":"s3cret"}}',
  'decrypt (remove the password): target_format "pdf", options {"decrypt":"s3cret"}',
  'stamp / watermark: target_format "pdf", options {"stamp":{"text":"CONFIDENTIAL"}}',
  'rotate: target_format "pdf", options {"rotate":90,"rotate_pages":"1-3"} (a picture: its own format, e.g. "jpg")',
  'flatten forms: target_format "pdf", options {"flatten":true}',
  'set metadata: target_format "pdf", options {"metadata":{"title":"Report","author":"Ann"}}',
  'strip metadata / remove GPS: the file\'s own format, e.g. target_format "jpg", options {"strip_metadata":true}',
  'crop: target_format "png", options {"crop":{"left":0,"top":0,"width":800,"height":600}}',
  'grayscale: target_format "jpg", options {"grayscale":true}',
  'trim / cut: target_format "mp3", options {"trim":{"start":30,"end":90}}',
  'frame / still of a video: target_format "png", options {"frame":12.5}',
] as const;

/** The examples as a description's closing paragraph. */
export const OPERATION_EXAMPLES_TEXT = `Operations, one example each:\n${OPERATION_EXAMPLES.map((example) => `- ${example}`).join('\n')}`;
