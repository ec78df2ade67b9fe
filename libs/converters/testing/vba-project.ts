// A VBA project (`vbaProject.bin` of a .docm/.xlsm) written by hand, so the security tests hold a real
// macro-enabled Office document that no office suite wrote: nothing on the machine writes VBA, and an npm
// package for the Compound File part would be a dependency for ~100 lines. LibreOffice imports the result as
// an executable VBA project (the security spec's positive control runs its macros). References: MS-CFB (the
// container) and MS-OVBA (the streams inside it); only what LibreOffice and the specs require is written.

export interface VbaModule {
  /** Module (and stream) name, ASCII. */
  name: string;
  /** `document`: the module behind the document itself (Word's ThisDocument); `procedural`: a standard module. */
  kind: 'document' | 'procedural';
  /** VBA source, lines ending in CRLF (the Attribute lines included, as Office stores them). */
  source: string;
}

const CODEPAGE = 1252;
const latin1 = (text: string) => Buffer.from(text, 'latin1');
const utf16 = (text: string) => Buffer.from(text, 'utf16le');
const u16 = (value: number) => Buffer.from([value & 0xff, value >>> 8]);
const u32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value >>> 0);
  return buffer;
};

/**
 * MS-OVBA 2.4.1 compression. A CompressedChunk whose tokens are all literals (flag byte 0, then up to 8 bytes
 * as they are) is valid, and decompresses to the same bytes in every reader: no LZ77 matching needed. One chunk
 * holds at most 4094 bytes after its header, so 3632 source bytes (454 groups of 1 + 8); our sources are far
 * smaller, and a single chunk spares us readers' differences on chunks that decompress to less than 4096.
 */
export function vbaCompress(data: Buffer): Buffer {
  if (data.length > 3632) throw new Error('vbaCompress: more than one chunk; not needed by these samples');
  const body: number[] = [];
  for (let i = 0; i < data.length; i += 8) body.push(0, ...data.subarray(i, i + 8));
  // Chunk header: size - 3 in bits 0-11 (size counts the header), signature 0b011 in 12-14, compressed flag 15.
  const chunk = data.length === 0 ? [] : [u16(0xb000 | (body.length + 2 - 3)), Buffer.from(body)];
  return Buffer.concat([Buffer.from([0x01]), ...chunk]);
}

/** A dir stream record: id, 32-bit size, data (MS-OVBA 2.3.4.2; the compound records are runs of these). */
const record = (id: number, data: Buffer = Buffer.alloc(0)) => Buffer.concat([u16(id), u32(data.length), data]);

/** The decompressed `VBA/dir` stream: project information, no references, then the modules. */
function dirStream(projectName: string, modules: readonly VbaModule[]): Buffer {
  const project = [
    record(0x0001, u32(1)), // PROJECTSYSKIND: 32-bit Windows
    record(0x0002, u32(0x409)), // PROJECTLCID
    record(0x0014, u32(0x409)), // PROJECTLCIDINVOKE
    record(0x0003, u16(CODEPAGE)), // PROJECTCODEPAGE: every MBCS string below (and the sources) in cp1252
    record(0x0004, latin1(projectName)), // PROJECTNAME
    record(0x0005), record(0x0040), // PROJECTDOCSTRING, then its Unicode form (empty)
    record(0x0006), record(0x003d), // PROJECTHELPFILEPATH: HelpFile1, HelpFile2 (empty)
    record(0x0007, u32(0)), // PROJECTHELPCONTEXT
    record(0x0008, u32(0)), // PROJECTLIBFLAGS
    Buffer.concat([u16(0x0009), u32(4), u32(1), u16(0)]), // PROJECTVERSION: its size field says 4, 6 bytes follow
    record(0x000c), record(0x003c), // PROJECTCONSTANTS and its Unicode form (empty)
    record(0x000f, u16(modules.length)), // PROJECTMODULES
    record(0x0013, u16(0xffff)), // PROJECTCOOKIE
  ];
  const perModule = modules.flatMap((module) => [
    record(0x0019, latin1(module.name)), // MODULENAME
    record(0x0047, utf16(module.name)), // MODULENAMEUNICODE
    record(0x001a, latin1(module.name)), record(0x0032, utf16(module.name)), // MODULESTREAMNAME (+ Unicode)
    record(0x001c), record(0x0048), // MODULEDOCSTRING (+ Unicode), empty
    record(0x0031, u32(0)), // MODULEOFFSET: the compressed source starts the stream (no p-code cache before it)
    record(0x001e, u32(0)), // MODULEHELPCONTEXT
    record(0x002c, u16(0xffff)), // MODULECOOKIE
    Buffer.concat([u16(module.kind === 'procedural' ? 0x0021 : 0x0022), u32(0)]), // MODULETYPE
    Buffer.concat([u16(0x002b), u32(0)]), // module terminator
  ]);
  return Buffer.concat([...project, ...perModule, u16(0x0010), u32(0)]); // dir terminator
}

/**
 * The `PROJECT` stream (MS-OVBA 2.3.1): which module is which. LibreOffice reads its Document= and Module=
 * lines; the protection lines (CMG, DPB, GC: encrypted state, optional to every reader we target) are left out.
 */
function projectStream(projectName: string, modules: readonly VbaModule[]): Buffer {
  const lines = [
    'ID="{00000000-0000-0000-0000-000000000000}"',
    ...modules.map((module) => (module.kind === 'document' ? `Document=${module.name}/&H00000000` : `Module=${module.name}`)),
    `Name="${projectName}"`,
    'HelpContextID="0"',
    'VersionCompatible32="393222000"',
    '',
    '[Host Extender Info]',
    '&H00000001={3832D640-CF90-11CF-8E43-00A0C911005A};VBE;&H00000000',
    '',
  ];
  return latin1(lines.join('\r\n'));
}

/** `vbaProject.bin`: PROJECT, VBA/dir, VBA/_VBA_PROJECT and one stream per module, in a Compound File. */
export function vbaProject(modules: readonly VbaModule[], projectName = 'Project'): Buffer {
  const streams: Array<[path: string, data: Buffer]> = [
    ['PROJECT', projectStream(projectName, modules)],
    ['VBA/dir', vbaCompress(dirStream(projectName, modules))],
    // Reserved1 0x61CC, Version 0xFFFF (no p-code: the host compiles the source), Reserved2 0, Reserved3.
    ['VBA/_VBA_PROJECT', Buffer.from([0xcc, 0x61, 0xff, 0xff, 0x00, 0x00, 0x00])],
    ...modules.map((module): [string, Buffer] => [`VBA/${module.name}`, vbaCompress(latin1(module.source))]),
  ];
  return compoundFile(streams);
}

// ---------------------------------------------------------------- MS-CFB

const SECTOR = 512;
const MINI = 64;
const FREE = 0xffffffff; // FREESECT, and NOSTREAM in directory entries
const END = 0xfffffffe; // ENDOFCHAIN
const FATSECT = 0xfffffffd;

interface Entry {
  name: string;
  type: 1 | 2 | 5; // storage, stream, root
  data?: Buffer;
  children: Entry[];
  id?: number;
  start?: number;
}

/**
 * A version 3 Compound File (512-byte sectors) holding `streams` (paths with `/` between storages). Every stream
 * is under the 4096-byte cutoff, so all live in the mini stream (64-byte mini sectors): one FAT sector, then the
 * directory, the mini FAT and the mini stream, each a run of consecutive sectors.
 */
export function compoundFile(streams: ReadonlyArray<[path: string, data: Buffer]>): Buffer {
  const root: Entry = { name: 'Root Entry', type: 5, children: [] };
  for (const [path, data] of streams) {
    if (data.length >= 4096) throw new Error('compoundFile: only streams under 4096 bytes (the mini stream)');
    const names = path.split('/');
    let parent = root;
    for (const [i, name] of names.entries()) {
      let child = parent.children.find((entry) => entry.name === name);
      if (!child) parent.children.push((child = { name, type: i === names.length - 1 ? 2 : 1, children: [] }));
      if (i === names.length - 1) child.data = data;
      parent = child;
    }
  }
  const entries: Entry[] = [];
  const visit = (entry: Entry) => {
    entry.id = entries.push(entry) - 1;
    entry.children.forEach(visit);
  };
  visit(root);

  // The mini stream: each stream padded to whole 64-byte mini sectors, chained in the mini FAT.
  const miniFat: number[] = [];
  const mini: Buffer[] = [];
  for (const entry of entries.filter((e) => e.data)) {
    const count = Math.ceil(entry.data!.length / MINI);
    entry.start = count === 0 ? END : miniFat.length;
    for (let i = 0; i < count; i++) miniFat.push(i === count - 1 ? END : miniFat.length + 1);
    mini.push(entry.data!, Buffer.alloc(count * MINI - entry.data!.length));
  }
  const miniStream = Buffer.concat(mini);

  const sectors = (bytes: number) => Math.ceil(bytes / SECTOR);
  const dirSectors = sectors(entries.length * 128);
  const miniFatSectors = sectors(miniFat.length * 4);
  const miniStreamSectors = sectors(miniStream.length);
  const [dirStart, miniFatStart, miniStreamStart] = [1, 1 + dirSectors, 1 + dirSectors + miniFatSectors];
  const total = miniStreamStart + miniStreamSectors;
  if (total > SECTOR / 4) throw new Error('compoundFile: more than one FAT sector');

  const fat: number[] = [FATSECT];
  const chain = (start: number, count: number) => {
    for (let i = 0; i < count; i++) fat[start + i] = i === count - 1 ? END : start + i + 1;
  };
  chain(dirStart, dirSectors);
  chain(miniFatStart, miniFatSectors);
  chain(miniStreamStart, miniStreamSectors);

  const header = Buffer.alloc(SECTOR);
  Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(header, 0);
  header.writeUInt16LE(0x003e, 0x18); // minor version
  header.writeUInt16LE(3, 0x1a); // major version 3: 512-byte sectors
  header.writeUInt16LE(0xfffe, 0x1c); // little-endian
  header.writeUInt16LE(9, 0x1e); // sector shift (512)
  header.writeUInt16LE(6, 0x20); // mini sector shift (64)
  header.writeUInt32LE(1, 0x2c); // FAT sectors
  header.writeUInt32LE(dirStart, 0x30);
  header.writeUInt32LE(4096, 0x38); // mini stream cutoff
  header.writeUInt32LE(miniFatSectors ? miniFatStart : END, 0x3c);
  header.writeUInt32LE(miniFatSectors, 0x40);
  header.writeUInt32LE(END, 0x44); // no DIFAT sectors
  for (let i = 0; i < 109; i++) header.writeUInt32LE(i === 0 ? 0 : FREE, 0x4c + i * 4); // DIFAT: FAT in sector 0

  // Siblings form a binary search tree (by name length, then upper-cased name): built balanced from the sorted
  // list, all nodes black. Readers look names up through it; none we know checks the red-black colouring.
  const tree = new Map<number, { left: number; right: number }>();
  const balance = (sorted: Entry[]): number => {
    if (sorted.length === 0) return FREE;
    const middle = sorted.length >> 1;
    tree.set(sorted[middle]!.id!, { left: balance(sorted.slice(0, middle)), right: balance(sorted.slice(middle + 1)) });
    return sorted[middle]!.id!;
  };
  const order = (a: Entry, b: Entry) => a.name.length - b.name.length || (a.name.toUpperCase() < b.name.toUpperCase() ? -1 : 1);

  const directory = Buffer.alloc(dirSectors * SECTOR);
  for (let slot = 0; slot < dirSectors * 4; slot++) {
    const at = slot * 128;
    const entry = entries[slot];
    directory.writeUInt32LE(FREE, at + 0x44); // left sibling
    directory.writeUInt32LE(FREE, at + 0x48); // right sibling
    directory.writeUInt32LE(FREE, at + 0x4c); // child
    if (!entry) continue; // unused entry
    utf16(entry.name).copy(directory, at);
    directory.writeUInt16LE((entry.name.length + 1) * 2, at + 0x40);
    directory[at + 0x42] = entry.type;
    directory[at + 0x43] = 1; // black
    const siblings = tree.get(entry.id!);
    if (siblings) {
      directory.writeUInt32LE(siblings.left, at + 0x44);
      directory.writeUInt32LE(siblings.right, at + 0x48);
    }
    if (entry.children.length > 0) directory.writeUInt32LE(balance([...entry.children].sort(order)), at + 0x4c);
    // Root: the mini stream; streams: their first mini sector; storages: 0.
    const [start, size] = entry.type === 5 ? [miniStreamSectors ? miniStreamStart : END, miniStream.length] : entry.type === 2 ? [entry.start!, entry.data!.length] : [0, 0];
    directory.writeUInt32LE(start, at + 0x74);
    directory.writeUInt32LE(size, at + 0x78);
  }

  const words = (values: number[], count: number) => {
    const buffer = Buffer.alloc(count * SECTOR, 0xff); // FREESECT beyond the chains
    values.forEach((value, i) => buffer.writeUInt32LE(value >>> 0, i * 4));
    return buffer;
  };
  const padded = (data: Buffer, count: number) => Buffer.concat([data, Buffer.alloc(count * SECTOR - data.length)]);
  return Buffer.concat([header, words(fat, 1), directory, words(miniFat, miniFatSectors), padded(miniStream, miniStreamSectors)]);
}
