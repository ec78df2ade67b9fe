import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FfmpegSubtitlesRuntime } from './ffmpeg-subtitles.runtime.js';
import { SUBTITLE_LINE, SUBTITLE_SAMPLES } from '../../../testing/media-samples.js';
import { convertStep, expectFailure } from '../../../test/support/test-context.js';

const dir = mkdtempSync(join(tmpdir(), 'fileshift-subtitles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sample = (format: string) => join(dir, `captions.${format}`);

describe('FfmpegSubtitlesRuntime (Debian package ffmpeg)', () => {
  const runtime = new FfmpegSubtitlesRuntime();

  beforeAll(async () => {
    const probe = await runtime.probe();
    if (!probe.available) console.error(`\n*** ENGINE MISSING: ffmpeg (${probe.problem}); these tests FAIL without it. ***\n`);
    for (const [format, text] of Object.entries(SUBTITLE_SAMPLES)) writeFileSync(sample(format), text);
  });

  it('turns SubRip into WebVTT with the same cues, markup kept', async () => {
    const [vtt] = (await convertStep(runtime, { inputPath: sample('srt'), from: 'srt', to: 'vtt' }, dir)) as [string];
    const text = readFileSync(vtt, 'utf8');
    expect(text.startsWith('WEBVTT')).toBe(true);
    expect(text).toContain(`00:01.000 --> 00:03.500\n${SUBTITLE_LINE}`);
    expect(text).toContain('00:04.000 --> 00:06.000\nA <i>second</i> cue');
  });

  it('turns WebVTT into ASS and ASS back into SubRip, timings kept', async () => {
    const [ass] = (await convertStep(runtime, { inputPath: sample('vtt'), from: 'vtt', to: 'ass' }, dir)) as [string];
    expect(readFileSync(ass, 'utf8')).toMatch(/Dialogue: 0,0:00:01\.00,0:00:03\.50,.*Fileshift subtitle line/);
    const [srt] = (await convertStep(runtime, { inputPath: sample('ass'), from: 'ass', to: 'srt' }, dir)) as [string];
    const text = readFileSync(srt, 'utf8');
    expect(text).toMatch(/^1\r?\n00:00:01,000 --> 00:00:03,500\r?\nFileshift subtitle line/);
    expect(text).toContain('A <i>second</i> cue');
  });

  it('refuses text that is not subtitles of the claimed format', async () => {
    const notes = join(dir, 'notes.srt');
    writeFileSync(notes, 'just some notes\nwithout any cue\n');
    await expectFailure(convertStep(runtime, { inputPath: notes, from: 'srt', to: 'vtt' }, dir), 'unsupported_or_corrupt_input', dir);
  });
});
