/**
 * Builds the detection fixture corpus from many producers: our usual tools (sharp, ffmpeg, pandoc, ghostscript,
 * archivers), other engines that write the same formats their own way (LibreOffice, calibre, ImageMagick 6, qpdf,
 * poppler, msgfmt, Python's zipfile) and real files shipped by Debian packages. Each sample is stored truncated to
 * its first 256 bytes (the detector reads 200) with its real size and producer in manifest.json, so the committed
 * corpus is small and CI needs none of these tools. No network; deterministic on one machine.
 *
 *   apt-get install ffmpeg pandoc ghostscript zip p7zip-full zstd lz4 sqlite3 cpio file fonts-dejavu-core \
 *     libreoffice calibre imagemagick qpdf poppler-utils gettext python3
 *   node --conditions=@fileshift/source --import tsx tools/detection-corpus/generate.ts
 *
 * Catalogue formats not sampled here, and why (nothing installed writes them and Debian ships none):
 *   heic, jxl (no encoder in this sharp/ffmpeg/IM6 build), icns, xcf, exr, cr2, nef, dng (camera raws need a
 *   camera), wpd, pages, numbers, key (proprietary, no writer), djvu, msg, lit, cbr, rar (no free writer),
 *   ape, mid (no encoder/writer here), parquet, avro, pcap, wasm, dicom, blend, glb, stl, ply (no writer installed),
 *   cab, iso, dmg, rpm, msi, exe, macho, lzh (no builder installed), woff, woff2, ttc, otf, pfb (only if Debian
 *   ships them: the harvest takes whatever /usr/share/fonts holds).
 * The run prints the formats it found no sample for, which is the authoritative list for a given machine.
 */
import { rmSync } from 'node:fs';
import { FORMATS } from '@fileshift/formats';
import { archiveTools, aptCachePackages } from './archive-tools.js';
import { calibre } from './calibre.js';
import { failures, work } from './corpus-context.js';
import { debianClassFiles } from './debian-class-files.js';
import { debianExecutables, debianHarvest } from './debian-harvest.js';
import { ffmpegAudio } from './ffmpeg-audio.js';
import { ffmpegVideo } from './ffmpeg-video.js';
import { gettext } from './gettext.js';
import { handwrittenTexts } from './handwritten-texts.js';
import { imageMagick } from './imagemagick.js';
import { libreOffice } from './libreoffice.js';
import { pandocAndGhostscript } from './pandoc-and-ghostscript.js';
import { pdfTools } from './pdf-tools.js';
import { pythonPackages } from './python-packages.js';
import { sharpAndFfmpegImages } from './sharp-and-ffmpeg-images.js';
import { writeCorpus } from './write-corpus.js';

const step = async (name: string, produce: () => unknown) => {
  const started = Date.now();
  await produce();
  console.log(`${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
};

// Order matters: later producers reuse the scratch files of earlier ones (PNGs, pandoc outputs, CSVs, PDFs).
await step('sharp + ffmpeg images', sharpAndFfmpegImages);
await step('ffmpeg audio', ffmpegAudio);
await step('ffmpeg video', ffmpegVideo);
await step('handwritten texts', handwrittenTexts);
await step('pandoc + ghostscript', pandocAndGhostscript);
await step('archive tools', archiveTools);
await step('apt cache', () => aptCachePackages());
await step('imagemagick', imageMagick);
await step('qpdf + poppler', pdfTools);
await step('gettext', gettext);
await step('python zipfile', pythonPackages);
await step('libreoffice', libreOffice);
await step('calibre', calibre);
await step('debian harvest', debianHarvest);
await step('debian executables', debianExecutables);
await step('debian class files', () => debianClassFiles());

const written = writeCorpus();
rmSync(work, { recursive: true, force: true });
const missing = FORMATS.map((f) => f.id).filter((id) => !written.formats.has(id));
console.log(`${written.count} samples of ${written.formats.size} formats written`);
console.log(`per producer: ${JSON.stringify(written.byProducer)}`);
console.log(`no sample for: ${missing.join(' ')}`);
if (failures.length) console.log(`not produced here:\n  ${failures.join('\n  ')}`);
