/**
 * Builds the detection fixture corpus from real tools and real files: sharp, ffmpeg, pandoc,
 * ghostscript, zip/7z/zstd/lz4/ar/sqlite3, Python's standard library, and files shipped by Debian
 * packages. Each sample is stored truncated to its first 256 bytes (the detector reads 200) with its
 * real size in manifest.json, so the committed corpus is small and CI needs none of these tools.
 *
 *   apt-get install ffmpeg pandoc ghostscript zip p7zip-full zstd lz4 sqlite3 fonts-dejavu-core
 *   npx tsx tools/detection-corpus/generate.ts
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const OUT = fileURLToPath(new URL('../../libs/detection/test/corpus/', import.meta.url));
const KEEP_BYTES = 256;
const work = mkdtempSync(join(tmpdir(), 'fileshift-corpus-'));
const samples: Array<{ format: string; file: string; size: number }> = [];
const failures: string[] = [];

const run = (command: string, args: string[], cwd = work) => execFileSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });

function keep(format: string, path: string, name = basename(path)): void {
  const bytes = readFileSync(path);
  mkdirSync(join(OUT, format), { recursive: true });
  writeFileSync(join(OUT, format, name), bytes.subarray(0, KEEP_BYTES));
  samples.push({ format, file: `${format}/${name}`, size: bytes.length });
}

async function attempt(what: string, produce: () => unknown): Promise<void> {
  try {
    await produce();
  } catch (error) {
    failures.push(`${what}: ${(error as Error).message.split('\n')[0]}`);
  }
}

const file = (name: string, content: string | Buffer) => {
  const path = join(work, name);
  writeFileSync(path, content);
  return path;
};

async function images(): Promise<void> {
  const sources = [
    { width: 64, height: 48, background: { r: 200, g: 30, b: 30, alpha: 1 } },
    { width: 320, height: 200, background: { r: 10, g: 120, b: 240, alpha: 0.5 } },
    { width: 17, height: 900, background: { r: 0, g: 0, b: 0, alpha: 1 } },
  ];
  for (const [index, source] of sources.entries()) {
    const base = sharp({ create: { ...source, channels: 4, noise: { type: 'gaussian', mean: 128, sigma: 30 } } });
    const png = join(work, `img${index}.png`);
    await base.clone().png().toFile(png);
    for (const [format, ext] of [['png', 'png'], ['jpg', 'jpg'], ['webp', 'webp'], ['avif', 'avif'], ['tiff', 'tif'], ['gif', 'gif']] as const) {
      await attempt(`sharp ${format}`, async () => {
        const out = join(work, `image-${index}.${ext}`);
        await sharp(png).toFormat(format === 'jpg' ? 'jpeg' : format).toFile(out);
        keep(format, out);
      });
    }
    for (const [format, ext] of [['bmp', 'bmp'], ['tga', 'tga'], ['pcx', 'pcx'], ['ppm', 'ppm'], ['pgm', 'pgm'], ['pbm', 'pbm'], ['xbm', 'xbm'], ['jp2', 'jp2'], ['qoi', 'qoi']] as const) {
      await attempt(`ffmpeg ${format}`, () => {
        const out = `image-${index}.${ext}`;
        const pix = format === 'pbm' || format === 'xbm' ? ['-pix_fmt', 'monow'] : format === 'pgm' ? ['-pix_fmt', 'gray'] : [];
        run('ffmpeg', ['-v', 'error', '-y', '-i', png, ...pix, '-frames:v', '1', '-update', '1', out]);
        keep(format, join(work, out));
      });
    }
    keep('svg', file(`drawing-${index}.svg`, [
      `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${source.width}" height="${source.height}"><rect width="10" height="10"/></svg>\n`,
      `<svg width="100" height="100" viewBox="0 0 100 100" xmlns="http://www.w3.org/2000/svg">\n  <circle cx="50" cy="50" r="40" stroke="green" fill="yellow" />\n</svg>\n`,
      `<?xml version="1.0" standalone="no"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg version="1.1" xmlns="http://www.w3.org/2000/svg"><text x="1" y="9">hi</text></svg>\n`,
    ][index]!));
  }
}

function audio(): void {
  const codecs: Array<[string, string, string[]]> = [
    ['mp3', 'mp3', ['-c:a', 'libmp3lame']],
    ['wav', 'wav', []],
    ['ogg', 'ogg', ['-c:a', 'libvorbis']],
    ['opus', 'opus', ['-c:a', 'libopus']],
    ['flac', 'flac', []],
    ['m4a', 'm4a', ['-c:a', 'aac']],
    ['aac', 'aac', ['-c:a', 'aac', '-f', 'adts']],
    ['aiff', 'aiff', []],
    ['au', 'au', []],
    ['ac3', 'ac3', []],
    ['wv', 'wv', []],
    ['caf', 'caf', ['-c:a', 'alac']],
    ['wma', 'wma', ['-c:a', 'wmav2']],
  ];
  const tones = [['sine=frequency=440:duration=1', '44100'], ['sine=frequency=1000:duration=2', '48000'], ['anoisesrc=d=1:c=pink', '22050']];
  for (const [index, [source, rate]] of tones.entries()) {
    for (const [format, ext, args] of codecs) {
      attempt(`ffmpeg ${format}`, () => {
        const out = `sound-${index}.${ext}`;
        run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', source!, '-ar', format === 'opus' ? '48000' : rate!, ...args, out]);
        keep(format, join(work, out));
      });
    }
    if (index === 0) {
      attempt('ffmpeg mp3 with ID3', () => {
        run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', source!, '-metadata', 'title=Test tone', '-c:a', 'libmp3lame', 'tagged.mp3']);
        keep('mp3', join(work, 'tagged.mp3'));
      });
    }
  }
}

function video(): void {
  const containers: Array<[string, string, string[]]> = [
    ['mp4', 'mp4', []],
    ['mov', 'mov', []],
    ['mkv', 'mkv', []],
    ['webm', 'webm', ['-c:v', 'libvpx', '-b:v', '200k']],
    ['avi', 'avi', ['-c:v', 'mpeg4']],
    ['flv', 'flv', ['-c:v', 'flv1']],
    ['mpeg', 'mpg', ['-c:v', 'mpeg2video', '-f', 'vob']],
    ['m2ts', 'ts', ['-c:v', 'mpeg2video', '-f', 'mpegts']],
    ['3gp', '3gp', ['-c:v', 'h263', '-s', '176x144']],
    ['ogv', 'ogv', ['-c:v', 'libtheora']],
    ['wmv', 'wmv', ['-c:v', 'wmv2']],
    ['swf', 'swf', ['-c:v', 'flv1']],
    ['h264', 'h264', ['-c:v', 'libx264', '-f', 'h264']],
  ];
  const sources = ['testsrc=duration=1:size=160x120:rate=10', 'testsrc2=duration=1:size=320x240:rate=15', 'mandelbrot=size=160x120:rate=5'];
  for (const [index, source] of sources.entries()) {
    for (const [format, ext, args] of containers) {
      attempt(`ffmpeg ${format}`, () => {
        const out = `clip-${index}.${ext}`;
        run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', source, '-t', '1', '-pix_fmt', 'yuv420p', ...args, out]);
        keep(format, join(work, out));
      });
    }
  }
}

function documents(): void {
  const markdown = [
    '# Quarterly report\n\nRevenue grew **12%**. See [the appendix](#appendix).\n\n- north\n- south\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
    '## Meeting notes\n\n1. Agree the plan\n2. Ship it\n\n> Quote of the day.\n\n```js\nconsole.log(1)\n```\n',
    '# Title\n\nA plain paragraph with *emphasis* and a footnote.[^1]\n\n[^1]: The note.\n\n## Section\n\nMore text here.\n',
  ];
  const outputs: Array<[string, string, string[]]> = [
    ['docx', 'docx', []], ['odt', 'odt', []], ['epub', 'epub', ['--metadata', 'title=Book']], ['pptx', 'pptx', []],
    ['rtf', 'rtf', ['-s']], ['html', 'html', ['-s', '--metadata', 'title=Page']], ['tex', 'tex', ['-s']], ['org', 'org', []],
    ['adoc', 'adoc', ['-t', 'asciidoc']], ['fb2', 'fb2', []], ['rst', 'rst', []], ['xml', 'xml', ['-t', 'docbook', '-s']], ['json', 'json', ['-t', 'json']],
  ];
  for (const [index, text] of markdown.entries()) {
    const source = file(`doc-${index}.md`, text);
    keep('md', source);
    for (const [format, ext, args] of outputs) {
      attempt(`pandoc ${format}`, () => {
        const out = `doc-${index}.${ext}`;
        run('pandoc', [source, ...args, '-o', out]);
        keep(format, join(work, out));
      });
    }
    attempt('ghostscript ps/eps/pdf', () => {
      const ps = file(`page-${index}.ps`, `%!PS-Adobe-3.0\n%%Pages: 1\n/Helvetica findfont ${12 + index} scalefont setfont\n72 ${700 - index * 50} moveto (Page ${index}) show\nshowpage\n`);
      keep('ps', ps);
      run('gs', ['-q', '-dBATCH', '-dNOPAUSE', '-dSAFER', '-sDEVICE=pdfwrite', `-sOutputFile=page-${index}.pdf`, ps]);
      keep('pdf', join(work, `page-${index}.pdf`));
      run('gs', ['-q', '-dBATCH', '-dNOPAUSE', '-dSAFER', '-sDEVICE=eps2write', `-sOutputFile=page-${index}.eps`, ps]);
      keep('eps', join(work, `page-${index}.eps`));
    });
  }
}

function archives(): void {
  const payloads = ['/usr/share/common-licenses/GPL-3', '/usr/share/common-licenses/Apache-2.0', '/etc/services'];
  for (const [index, payload] of payloads.entries()) {
    const local = join(work, `payload-${index}.txt`);
    copyFileSync(payload, local);
    const name = basename(local);
    const steps: Array<[string, string, () => void]> = [
      ['zip', `a-${index}.zip`, () => run('zip', ['-q', `a-${index}.zip`, name])],
      ['tar', `a-${index}.tar`, () => run('tar', ['-cf', `a-${index}.tar`, name])],
      ['gz', `a-${index}.txt.gz`, () => writeFileSync(join(work, `a-${index}.txt.gz`), execFileSync('gzip', ['-c', local]))],
      ['bz2', `a-${index}.txt.bz2`, () => writeFileSync(join(work, `a-${index}.txt.bz2`), execFileSync('bzip2', ['-c', local]))],
      ['xz', `a-${index}.txt.xz`, () => writeFileSync(join(work, `a-${index}.txt.xz`), execFileSync('xz', ['-c', local]))],
      ['7z', `a-${index}.7z`, () => run('7z', ['a', '-bd', `a-${index}.7z`, name])],
      ['zst', `a-${index}.txt.zst`, () => run('zstd', ['-q', '-f', name, '-o', `a-${index}.txt.zst`])],
      ['lz4', `a-${index}.txt.lz4`, () => run('lz4', ['-q', '-f', name, `a-${index}.txt.lz4`])],
      ['ar', `a-${index}.a`, () => run('ar', ['rc', `a-${index}.a`, name])],
      ['jar', `a-${index}.jar`, () => {
        mkdirSync(join(work, `jar${index}`, 'META-INF'), { recursive: true });
        writeFileSync(join(work, `jar${index}`, 'META-INF', 'MANIFEST.MF'), 'Manifest-Version: 1.0\n');
        run('zip', ['-q', '-r', join(work, `a-${index}.jar`), 'META-INF'], join(work, `jar${index}`));
      }],
      ['cbz', `a-${index}.cbz`, () => run('zip', ['-q', `a-${index}.cbz`, `image-${index}.jpg`])],
      ['sqlite', `a-${index}.sqlite`, () => run('sqlite3', [`a-${index}.sqlite`, `create table t${index}(a, b); insert into t${index} values (1, 'x');`])],
    ];
    for (const [format, out, make] of steps) attempt(`${format}`, () => { make(); keep(format, join(work, out)); });
  }
  const debs = readdirSync('/var/cache/apt/archives').filter((name) => name.endsWith('.deb')).slice(0, 3);
  for (const deb of debs) keep('deb', join('/var/cache/apt/archives', deb));
}

function textAndData(): void {
  const texts: Record<string, string[]> = {
    json: ['{\n  "name": "fileshift",\n  "version": "1.0.0",\n  "private": true\n}\n', '[{"id": 1, "tags": ["a", "b"]}, {"id": 2, "tags": []}]\n', '{"data":{"items":[1,2,3],"next":null},"ok":true}'],
    ndjson: ['{"a":1}\n{"a":2}\n{"a":3}\n', '{"event":"start","t":1}\n{"event":"stop","t":2}\n', '{"x":"y"}\n{"x":"z"}\n{"x":"w"}\n{"x":"v"}\n'],
    geojson: ['{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]}}]}', '{\n  "type": "Feature",\n  "properties": {},\n  "geometry": {"type": "LineString", "coordinates": [[0,0],[1,1]]}\n}', '{"type": "FeatureCollection", "features": []}'],
    yaml: ['name: fileshift\nversion: 1\nservices:\n  - api\n  - worker\n', '---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n', 'key: value\nother: 2\nlist:\n  - a\n'],
    toml: ['[package]\nname = "fileshift"\nversion = "0.1.0"\n\n[dependencies]\nserde = "1"\n', 'title = "Example"\n\n[owner]\nname = "Tom"\ndob = 1979-05-27\n', '[server]\nport = 8080\nhost = "0.0.0.0"\n'],
    ini: ['[general]\nname=fileshift\nenabled=yes\n\n[paths]\ndata=/var/lib\n', '; comment\n[section]\nkey=value\nother=thing\n', '[Desktop Entry]\nName=App\nExec=app\nType=Application\n'],
    csv: ['name,age,city\nada,36,london\nalan,41,wilmslow\ngrace,85,new york\n', 'id,value\n1,10.5\n2,11.0\n3,9.75\n4,12\n', '"a","b","c"\n"1","2, too","3"\n"4","5","6"\n'],
    tsv: ['name\tage\tcity\nada\t36\tlondon\nalan\t41\twilmslow\n', 'id\tvalue\n1\t10.5\n2\t11.0\n3\t9.75\n', 'a\tb\n1\t2\n3\t4\n5\t6\n'],
    rss: ['<?xml version="1.0"?>\n<rss version="2.0"><channel><title>News</title></channel></rss>\n', '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">\n<channel><title>T</title></channel></rss>', '<?xml version="1.0" encoding="utf-8"?>\n<rss version="0.91"><channel/></rss>'],
    atom: ['<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>Feed</title></feed>', '<feed xmlns="http://www.w3.org/2005/Atom">\n<id>urn:x</id></feed>', '<?xml version="1.0"?>\n<!-- comment -->\n<feed xmlns="http://www.w3.org/2005/Atom"/>'],
    kml: ['<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark/></kml>', '<kml xmlns="http://www.opengis.net/kml/2.2">\n<Document></Document></kml>', '<?xml version="1.0"?>\n<kml><Folder/></kml>'],
    gpx: ['<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="x"><trk/></gpx>', '<gpx xmlns="http://www.topografix.com/GPX/1/1" version="1.1">\n<wpt lat="1" lon="2"/></gpx>', '<?xml version="1.0"?>\n<gpx version="1.0"/>'],
    plist: ['<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0"><dict/></plist>', '<plist version="1.0">\n<array/></plist>', '<?xml version="1.0"?>\n<plist version="1.0"><dict><key>a</key><string>b</string></dict></plist>'],
    ics: ['BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//x//y//EN\nBEGIN:VEVENT\nEND:VEVENT\nEND:VCALENDAR\n', 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n', 'BEGIN:VCALENDAR\nMETHOD:PUBLISH\nEND:VCALENDAR\n'],
    vcf: ['BEGIN:VCARD\nVERSION:4.0\nFN:Ada Lovelace\nEND:VCARD\n', 'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Turing;Alan\r\nEND:VCARD\r\n', 'BEGIN:VCARD\nVERSION:2.1\nTEL:123\nEND:VCARD\n'],
    srt: ['1\n00:00:01,000 --> 00:00:02,000\nHello\n\n2\n00:00:03,000 --> 00:00:04,000\nWorld\n', '1\r\n00:01:00,500 --> 00:01:02,000\r\nLine\r\n', '1\n00:00:00,000 --> 00:00:01,000\nA\n'],
    vtt: ['WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n', 'WEBVTT - title\n\n1\n00:00:01.000 --> 00:00:02.000\nx\n', 'WEBVTT\n\nNOTE a comment\n'],
    txt: ['The quick brown fox jumps over the lazy dog.\nPack my box with five dozen liquor jugs.\n', 'Shopping list\nmilk\neggs\nbread\n', 'Dear team,\n\nthe release is on Friday. Thanks for all the work.\n\nRegards\n'],
    py: ['import os\nimport sys\n\n\ndef main():\n    print(os.getcwd())\n', 'from pathlib import Path\n\nclass Thing:\n    pass\n', '#!/usr/bin/env python3\nprint("hi")\n'],
    sh: ['#!/bin/sh\nset -e\necho hello\n', '#!/bin/bash\nfor f in *; do echo "$f"; done\n', '#!/usr/bin/env bash\nexit 0\n'],
    c: ['#include <stdio.h>\n\nint main(void) {\n  printf("hi\\n");\n  return 0;\n}\n', '#include "x.h"\nstatic int f(int a) { return a; }\n', '#include <stdlib.h>\n#include <string.h>\n'],
    js: ['import fs from \'node:fs\';\n\nexport function read(p) {\n  return fs.readFileSync(p);\n}\n', 'const x = 1;\nlet y = 2;\nconsole.log(x + y);\n', 'function add(a, b) {\n  return a + b;\n}\n'],
    css: ['body {\n  margin: 0;\n  color: #333;\n}\n', '.button, a:hover {\n  background: red;\n}\n', 'h1 { font-size: 2em; }\n'],
    sql: ['CREATE TABLE users (id integer primary key, name text);\n', 'SELECT id, name FROM users WHERE id = 1;\n', 'INSERT INTO t VALUES (1, \'a\');\n'],
    md: [],
  };
  for (const [format, contents] of Object.entries(texts)) {
    contents.forEach((content, index) => keep(format, file(`text-${index}.${format}`, content)));
  }
}

function debianFiles(): void {
  const pick = (dir: string, pattern: RegExp, count = 3) =>
    readdirSync(dir).filter((name) => pattern.test(name)).slice(0, count).map((name) => join(dir, name));
  for (const path of pick('/usr/share/fonts/truetype/dejavu', /\.ttf$/)) keep('ttf', path);
  for (const path of ['/usr/bin/ls', '/usr/bin/env', '/usr/bin/git']) keep('elf', path, `${basename(path)}.elf`);
  for (const path of pick('/usr/share/doc/git', /\.gz$/)) keep('gz', path);
  for (const path of pick('/usr/include', /\.h$/)) keep('c', path);
}

await images();
audio();
video();
documents();
archives();
textAndData();
debianFiles();
rmSync(work, { recursive: true, force: true });
samples.sort((a, b) => a.file.localeCompare(b.file));
writeFileSync(join(OUT, 'manifest.json'), `${JSON.stringify({ keepBytes: KEEP_BYTES, samples }, null, 1)}\n`);
const formats = new Set(samples.map((s) => s.format));
console.log(`${samples.length} samples of ${formats.size} formats written to ${OUT}`);
if (failures.length) console.log(`not produced here:\n  ${failures.join('\n  ')}`);
