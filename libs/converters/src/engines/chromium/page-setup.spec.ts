import { describe, expect, it } from 'vitest';
import { printParameters, SCREENSHOT_MAX_HEIGHT, screenshotClip } from './page-setup.js';

describe('page setup', () => {
  it('prints on A4 with 10 mm margins unless asked, and lets the page’s CSS size win only then', () => {
    expect(printParameters({})).toMatchObject({ paperWidth: 210 / 25.4, paperHeight: 297 / 25.4, marginTop: 10 / 25.4, marginLeft: 10 / 25.4, preferCSSPageSize: true, printBackground: true, transferMode: 'ReturnAsStream' });
    expect(printParameters({ paper: 'letter', margin: 0 })).toMatchObject({ paperWidth: expect.closeTo(8.5), paperHeight: expect.closeTo(11), marginBottom: 0, marginRight: 0, preferCSSPageSize: false });
    expect(printParameters({ paper: 'legal' })).toMatchObject({ paperWidth: expect.closeTo(8.5), paperHeight: expect.closeTo(14) });
  });

  it('clips a screenshot to the page, at least one pixel, at most the tallest texture', () => {
    expect(screenshotClip(1280.4, 900.2)).toEqual({ x: 0, y: 0, width: 1281, height: 901, scale: 1 });
    expect(screenshotClip(0, 0)).toMatchObject({ width: 1, height: 1 });
    expect(screenshotClip(1280, 1e6).height).toBe(SCREENSHOT_MAX_HEIGHT);
  });
});
