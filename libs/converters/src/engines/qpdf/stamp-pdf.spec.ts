import { describe, expect, it } from 'vitest';
import { STAMP_DEFAULTS, stampPdf, stampPlacement, type StampStyle } from './stamp-pdf.js';
import { helveticaBoldWidth, isStampText, winAnsiCodes } from './win-ansi.js';

const A4 = { width: 595, height: 842 };
/** The four corners of the text's box (cap height over the baseline, descent under it) where the matrix puts them. */
function corners(text: string, page = A4, style: Omit<StampStyle, 'text'> = {}) {
  const codes = winAnsiCodes(text)!;
  const { size, matrix } = stampPlacement(codes, page, { text, ...style });
  const [a, b, c, d, e, f] = matrix;
  const width = (helveticaBoldWidth(codes) / 1000) * size;
  return [
    [0, -0.207 * size],
    [width, -0.207 * size],
    [width, 0.718 * size],
    [0, 0.718 * size],
  ].map(([x, y]) => [a * x! + c * y! + e, b * x! + d * y! + f] as const);
}
const bounds = (points: ReadonlyArray<readonly [number, number]>) => ({
  left: Math.min(...points.map(([x]) => x)),
  right: Math.max(...points.map(([x]) => x)),
  bottom: Math.min(...points.map(([, y]) => y)),
  top: Math.max(...points.map(([, y]) => y)),
});

describe('the characters a stamp may hold (WinAnsi, pure)', () => {
  it('maps Latin-1 and WinAnsi\'s extras to their codes, and refuses other scripts and control characters', () => {
    expect(winAnsiCodes('Aé€“”')).toEqual([0x41, 0xe9, 0x80, 0x93, 0x94]);
    expect(winAnsiCodes('Ünïcödé ÿ')).toEqual([0xdc, 0x6e, 0xef, 0x63, 0xf6, 0x64, 0xe9, 0x20, 0xff]);
    for (const text of ['Привет', '日本', 'Ω', 'a\nb', 'tab\there', '😀']) expect(winAnsiCodes(text), text).toBeUndefined();
    expect(isStampText('DRAFT')).toBe(true);
    expect(isStampText('   ')).toBe(false);
    expect(isStampText('Entwurf – vertraulich')).toBe(true);
  });

  it('measures Helvetica-Bold as Adobe\'s metrics do', () => {
    expect(helveticaBoldWidth(winAnsiCodes('A')!)).toBe(722);
    expect(helveticaBoldWidth(winAnsiCodes('Hello')!)).toBe(722 + 556 + 278 + 278 + 611);
    expect(helveticaBoldWidth(winAnsiCodes('ÿ€ ')!)).toBe(556 + 556 + 278);
  });
});

describe('where a stamp goes on a page (pure)', () => {
  it('centres the text on the page by default, level, at 60 pt; turned counter-clockwise about its centre by the angle', () => {
    const placement = stampPlacement(winAnsiCodes('DRAFT')!, A4, { text: 'DRAFT' });
    expect(placement.size).toBe(STAMP_DEFAULTS.center.size);
    expect(placement.matrix.slice(0, 4)).toEqual([1, 0, -0, 1]);
    for (const angle of [0, 45, -120]) {
      const box = bounds(corners('DRAFT', A4, { angle }));
      expect((box.left + box.right) / 2, `${angle}°`).toBeCloseTo(A4.width / 2);
      expect((box.bottom + box.top) / 2, `${angle}°`).toBeCloseTo(A4.height / 2);
    }
    const turned = stampPlacement(winAnsiCodes('DRAFT')!, A4, { text: 'DRAFT', angle: 45 });
    expect(turned.matrix[0]).toBeCloseTo(Math.SQRT1_2);
    expect(turned.matrix[1]).toBeCloseTo(Math.SQRT1_2);
  });

  it('puts each position\'s box inside the margins, against its edges', () => {
    const margin = 24;
    const at = (position: StampStyle['position']) => bounds(corners('Internal use only', A4, { position }));
    expect(at('top-left').left).toBeCloseTo(margin);
    expect(at('top-left').top).toBeCloseTo(A4.height - margin);
    expect(at('bottom-right').right).toBeCloseTo(A4.width - margin);
    expect(at('bottom-right').bottom).toBeCloseTo(margin);
    expect((at('top').left + at('top').right) / 2).toBeCloseTo(A4.width / 2);
    expect(at('bottom').bottom).toBeCloseTo(margin);
    // Level by default away from the centre.
    const { matrix } = stampPlacement(winAnsiCodes('x')!, A4, { text: 'x', position: 'top' });
    expect(matrix.slice(0, 4)).toEqual([1, 0, -0, 1]);
  });

  it('lowers the size of a text too long for the page, keeping it inside the margins', () => {
    const text = 'A very long stamp text that cannot fit across a page at this size';
    const placement = stampPlacement(winAnsiCodes(text)!, A4, { text, size: 200, angle: 0 });
    expect(placement.shrunk).toBe(true);
    expect(placement.size).toBeLessThan(200);
    const box = bounds(corners(text, A4, { size: 200, angle: 0 }));
    expect(box.left).toBeGreaterThanOrEqual(24 - 1e-6);
    expect(box.right).toBeLessThanOrEqual(A4.width - 24 + 1e-6);
    expect(stampPlacement(winAnsiCodes('OK')!, A4, { text: 'OK', size: 40 }).shrunk).toBe(false);
  });
});

describe('the stamp PDF (pure)', () => {
  it('has one page per distinct page size, and says which one goes over each page', () => {
    const landscape = { width: 842, height: 595 };
    const stamp = stampPdf([A4, landscape, A4, A4], { text: 'Copy', opacity: 0.5 });
    expect(stamp.stampPageOf).toEqual([1, 2, 1, 1]);
    const text = stamp.pdf.toString('latin1');
    expect(text.match(/\/Type \/Page /g)).toHaveLength(2);
    expect(text).toContain('/MediaBox [0 0 842 595]');
    expect(text).toContain('/BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding');
    expect(text).toContain('/ca 0.5 /CA 0.5');
    // The text as WinAnsi bytes, in hex: no escaping to get wrong.
    expect(text).toContain('<436f7079> Tj');
    expect(stamp.shrunk).toBe(false);
  });

  it('writes a cross-reference table whose offsets point at their objects', () => {
    const pdf = stampPdf([A4], { text: 'Offsets' }).pdf.toString('latin1');
    const xref = Number(/startxref\n(\d+)/.exec(pdf)![1]);
    expect(pdf.slice(xref, xref + 4)).toBe('xref');
    const offsets = [...pdf.slice(xref).matchAll(/^(\d{10}) 00000 n $/gm)].map((match) => Number(match[1]));
    expect(offsets).toHaveLength(6);
    offsets.forEach((offset, index) => expect(pdf.slice(offset).startsWith(`${index + 1} 0 obj\n`)).toBe(true));
  });
});
