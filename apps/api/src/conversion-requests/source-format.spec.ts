import { detectFormat } from '@fileshift/detection';
import { describe, expect, it } from 'vitest';
import { decideSourceFormat } from './source-format.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d494844520000004000000028080200000000000000', 'hex');
const MP3 = Buffer.concat([Buffer.from('ID3'), Buffer.from([4, 0, 0, 0, 0, 0, 0])]);
const targetsOf = (format: string) => ({ png: ['webp', 'jpg'], mp3: ['wav'], txt: [] as string[] })[format] ?? [];
const decide = (filename: string, header: Buffer, target: string) =>
  decideSourceFormat({ detection: detectFormat({ filename, sizeBytes: 50_000, header }), target, targetsOf });

describe('decideSourceFormat (the evidence rule)', () => {
  it('starts from what the bytes show when an engine reads it and it reaches the target', () => {
    expect(decide('picture.png', PNG, 'webp')).toEqual({ ok: true, format: 'png' });
    expect(decide('no-extension', PNG, 'webp')).toEqual({ ok: true, format: 'png' });
    // A wrong name does not matter when the bytes are clear.
    expect(decide('picture.gif', PNG, 'webp')).toEqual({ ok: true, format: 'png' });
  });

  it('refuses bytes that show nothing, whatever the name claims', () => {
    const random = Buffer.from('a3f19c0be27d55e8913c4fd0aa6b2e91c7d80f3e5b14a926ed7c0b3f8a51e6d2c94b70e1', 'hex');
    const decision = decide('picture.png', random, 'webp');
    expect(decision).toMatchObject({ ok: false, problem: 'unreadable_input' });
    expect(decision.ok || decision.message).toContain('Its name says png');
  });

  it('refuses bytes of a format no engine here reads', () => {
    expect(decide('notes.txt', Buffer.from('Dear diary, today I converted a file.\nIt went well.\n'), 'webp')).toMatchObject({ ok: false, problem: 'unreadable_input' });
  });

  it('refuses when the format the bytes show cannot reach the target, naming the contradiction', () => {
    const decision = decide('song.png', MP3, 'webp');
    expect(decision).toMatchObject({ ok: false, problem: 'no_conversion_path' });
    expect(decision.ok || decision.message).toContain('(mp3) judging by its bytes, not png as declared; mp3 cannot be converted to webp');
  });
});
