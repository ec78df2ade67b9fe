import type { ConversionOptions } from '../../platform/conversion-options.js';

/** Paper sizes in millimetres, width × height (portrait). */
const PAPER_MM = {
  a3: [297, 420],
  a4: [210, 297],
  a5: [148, 210],
  letter: [215.9, 279.4],
  legal: [215.9, 355.6],
} as const;
const MM_PER_INCH = 25.4;

export const DEFAULT_MARGIN_MM = 10;
/** The width a page is laid out at for a screenshot, in CSS pixels: a common desktop window. */
export const SCREENSHOT_WIDTH = 1280;
/** The tallest screenshot, in pixels: Chromium's largest texture; a longer page is cut there (its PDF has all of it). */
export const SCREENSHOT_MAX_HEIGHT = 16_384;

/**
 * Pure: DevTools' printToPDF parameters for the options. Without `paper` a page's own CSS `@page` size wins (A4
 * where it has none); with it, the paper asked for. Backgrounds are printed: they are content in most pages.
 */
export function printParameters(options: ConversionOptions): Record<string, unknown> {
  const [width, height] = PAPER_MM[options.paper ?? 'a4'];
  const margin = (options.margin ?? DEFAULT_MARGIN_MM) / MM_PER_INCH;
  // DevTools takes inches.
  return {
    paperWidth: width / MM_PER_INCH,
    paperHeight: height / MM_PER_INCH,
    marginTop: margin,
    marginBottom: margin,
    marginLeft: margin,
    marginRight: margin,
    printBackground: true,
    preferCSSPageSize: options.paper === undefined,
    generateTaggedPDF: false,
    transferMode: 'ReturnAsStream',
  };
}

/** Pure: the region of a screenshot of a page laid out `contentWidth` × `contentHeight` CSS pixels. */
export function screenshotClip(contentWidth: number, contentHeight: number): { x: number; y: number; width: number; height: number; scale: number } {
  return { x: 0, y: 0, width: Math.max(1, Math.ceil(contentWidth)), height: Math.max(1, Math.min(SCREENSHOT_MAX_HEIGHT, Math.ceil(contentHeight))), scale: 1 };
}
