/**
 * Builds the detection fixture corpus from many producers: our usual tools (sharp, ffmpeg, pandoc, ghostscript,
 * archivers), other engines that write the same formats their own way (LibreOffice, calibre, ImageMagick 6, qpdf,
 * poppler, msgfmt, Python's zipfile) and real files shipped by Debian packages. Each sample is stored truncated to
 * its first 256 bytes (the detector reads 200) with its real size and producer in manifest.json, so the committed
 * corpus is small and CI needs none of these tools. No network; deterministic on one machine.
 *
 *   apt-get install ffmpeg pandoc ghostscript zip 7zip libarchive-tools zstd lz4 sqlite3 file fonts-dejavu-core \
 *     libreoffice calibre imagemagick qpdf poppler-utils gettext python3
 *   node --conditions=@fileshift/source --import tsx tools/detection-corpus/generate.ts
 *
 * Catalogue formats not sampled on the build machine, and why:
 *   heic, jxl: no encoder in this sharp/libvips, ffmpeg or ImageMagick 6 build; amr: ffmpeg lacks libopencore_amrnb;
 *   icns, xcf, exr, djvu, mid, ape: nothing installed writes them and Debian ships none under the walked roots;
 *   cr2, nef, dng: camera raws need a camera (no free writer);
 *   wpd, pages, numbers, key, msg, lit, cbr, rar, msi, macho, dmg, cab, lzh, rpm: proprietary or platform formats
 *     with no free writer installed (rar is non-free, rpm/msitools/gcab/lha are not installed);
 *   parquet, avro, pcap, wasm, dicom: no writer installed (pyarrow, avro, tcpdump, wat2wasm, dcmtk);
 *   stl, obj, ply, glb, gltf, fbx, blend: no 3D tool installed; `.obj` on Debian means COFF objects;
 *   otf, woff2, ttc: no such fonts installed; ts, java, rs: no such sources shipped (Debian's `.ts` files are
 *     Qt Linguist translations, so the harvest skips that extension).
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
