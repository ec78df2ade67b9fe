/**
 * One example per file operation, in convert_file's description: an agent asked to "merge", "watermark" or "remove
 * GPS" finds the arguments here without reading docs. One short line each; the file itself (source_url or
 * content_base64) is left out. The MCP server's copy (apps/mcp/src/tools/operation-examples.ts) says the same with
 * local paths.
 */
export const OPERATION_EXAMPLES = [
  'merge PDFs: contents [{"content_base64":"JVBER…","filename":"a.pdf"},{…,"filename":"b.pdf"}], target_format "pdf"',
  'pictures into one PDF: contents of the pictures (jpg, png, tiff), target_format "pdf"',
  'files into an archive: contents of any files, target_format "zip"',
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
