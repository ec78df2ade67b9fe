/**
 * A minimal valid PDF written as text, byte by byte: one Helvetica text line per page, a correct
 * cross-reference table. A producer of its own beside Ghostscript, img2pdf and qpdf; thousands of pages
 * cost a few hundred kilobytes. `baseFont` and `uri` let a test plant hostile names and links.
 */
export function handWrittenPdf(pageTexts: readonly string[], extras: { baseFont?: string; uri?: string; title?: string } = {}): Buffer {
  const objects: string[] = [];
  const pageCount = pageTexts.length;
  // 1 catalog, 2 pages, 3 font, 4 info, then per page: page object and content stream.
  const pageObject = (index: number) => 5 + index * 2;
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Count ${pageCount} /Kids [${pageTexts.map((_, i) => `${pageObject(i)} 0 R`).join(' ')}] >>`);
  objects.push(`<< /Type /Font /Subtype /Type1 /BaseFont /${extras.baseFont ?? 'Helvetica'} /Encoding /WinAnsiEncoding >>`);
  objects.push(`<< /Producer (fileshift hand-written test PDF)${extras.title ? ` /Title (${escapeString(extras.title)})` : ''} >>`);
  pageTexts.forEach((text, index) => {
    const link = extras.uri && index === 0 ? ` /Annots [<< /Type /Annot /Subtype /Link /Rect [72 690 400 730] /Border [0 0 0] /A << /S /URI /URI (${escapeString(extras.uri)}) >> >>]` : '';
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageObject(index) + 1} 0 R${link} >>`);
    const content = `BT /F1 24 Tf 72 700 Td (${escapeString(text)}) Tj ET`;
    objects.push(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
  });

  let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefOffset = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const escapeString = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);
