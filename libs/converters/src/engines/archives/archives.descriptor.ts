import { allPairs, type EngineDescriptor } from '../../platform/engine-descriptor.js';

/** Archives bsdtar reads and writes: zip, 7z, tar and tar inside gzip, bzip2 or xz (catalogue ids). */
export const ARCHIVE_FORMATS = ['zip', '7z', 'tar', 'tgz', 'tbz2', 'txz'] as const;
export type ArchiveFormat = (typeof ARCHIVE_FORMATS)[number];
const RECOMMENDED = new Set<string>(['zip', 'tgz']);

/**
 * Archives through bsdtar (libarchive), in the sandboxed runner: listed and checked, extracted into the job's
 * scratch directory, re-packed in the target format. Only regular files and directories are carried across;
 * nested archives are carried as files, never expanded. Several files of any kind are joined into one archive.
 */
export const ARCHIVES_DESCRIPTOR: EngineDescriptor = {
  id: 'archives',
  // media: the queue of long CPU-bound runs. Re-packing is quick for zip and tar.gz, but LZMA (7z, tar.xz)
  // compresses about 1 MB/s on a loaded 2-core worker, so a large archive takes minutes: in the documents or
  // images queue it would hold up conversions that take a second.
  engineClass: 'media',
  description: `archives (bsdtar): ${ARCHIVE_FORMATS.join(' ')} → each other; regular files and directories only, with bomb limits; any files into one`,
  cost: 3,
  pairs: allPairs(ARCHIVE_FORMATS, ARCHIVE_FORMATS, (to) => ({ recommended: RECOMMENDED.has(to) })),
  // Any files into an archive, each an entry of its own, bytes unchanged.
  joins: ARCHIVE_FORMATS.map((into) => ({ into, members: 'any' as const })),
  limits: {
    timeoutMs: 10 * 60_000,
    // What 1 GiB of entries becomes stored without compression, with headers to spare.
    maxOutputBytes: 1536 * 1024 * 1024,
    maxEntries: 10_000,
    maxExpandedBytes: 1024 * 1024 * 1024,
    maxCompressionRatio: 200,
    maxPathDepth: 64,
  },
  debianPackages: ['libarchive-tools'],
};
