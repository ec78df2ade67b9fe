import type { PdfPageBox } from '../../shared/pdf/pdf-info.reader.js';

export const DEFAULT_DPI = 150;

export interface PageRaster {
  /** pdftoppm's scaling arguments for the page. */
  args: string[];
  /** The pixel size they give (pdftoppm rounds up). */
  width: number;
  height: number;
}

/**
 * Pure: how one page is rasterised. `width` and/or `height` win over `dpi`: one of them scales the page to it
 * keeping the aspect ratio; both make a box the page fits in (the side that binds first decides). Otherwise
 * `dpi` (default 150).
 */
export function pageRaster(box: PdfPageBox, options: { dpi?: number; width?: number; height?: number }): PageRaster {
  const { width, height } = options;
  const byWidth = (w: number): PageRaster => ({ args: ['-scale-to-x', String(w), '-scale-to-y', '-1'], width: w, height: Math.ceil((box.height * w) / box.width) });
  const byHeight = (h: number): PageRaster => ({ args: ['-scale-to-x', '-1', '-scale-to-y', String(h)], width: Math.ceil((box.width * h) / box.height), height: h });
  if (width && height) return width / box.width <= height / box.height ? byWidth(width) : byHeight(height);
  if (width) return byWidth(width);
  if (height) return byHeight(height);
  const dpi = options.dpi ?? DEFAULT_DPI;
  return { args: ['-r', String(dpi)], width: Math.ceil((box.width * dpi) / 72), height: Math.ceil((box.height * dpi) / 72) };
}
