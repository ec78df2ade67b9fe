"""Writes ZIP-based packages (EPUB, ODF, OOXML, JAR, CBZ, APK-like) the odd-but-valid ways real producers do.

Called by python-packages.ts with the output directory; prints one "format<TAB>file" line per package.
Fixed timestamps keep the output byte-for-byte reproducible.
"""
import io
import os
import sys
import zipfile

OUT = sys.argv[1]
STAMP = (2020, 1, 2, 3, 4, 6)


class Unseekable(io.RawIOBase):
    """A write-only stream without seek, so zipfile falls back to data descriptors (bit 3)."""

    def __init__(self, target):
        self.target = target

    def writable(self):
        return True

    def write(self, data):
        return self.target.write(data)


def info(name, compress=zipfile.ZIP_DEFLATED, extra=b''):
    entry = zipfile.ZipInfo(name, STAMP)
    entry.compress_type = compress
    entry.extra = extra
    return entry


def package(file_name, fmt, entries, streamed=False):
    path = os.path.join(OUT, file_name)
    with open(path, 'wb') as raw:
        target = Unseekable(raw) if streamed else raw
        with zipfile.ZipFile(target, 'w') as archive:
            for entry, content in entries:
                archive.writestr(entry, content)
    print(f'{fmt}\t{file_name}')


XML = '<?xml version="1.0" encoding="UTF-8"?>\n'
CONTAINER = XML + '<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>'
OPF = XML + '<package xmlns="http://www.idpf.org/2007/opf" version="2.0"><metadata/><manifest/><spine/></package>'
# An "extended timestamp"-style extra field (0x5455) as Info-ZIP and some e-book tools add to every entry.
EXTRA = b'UT\x05\x00\x03\x00\x00\x00\x5e'

# EPUB: mimetype first and stored; variants with an extra field, with a compressed mimetype (invalid but seen
# in the wild), with META-INF first, and streamed with data descriptors.
package('python-epub-extra.epub', 'epub', [(info('mimetype', zipfile.ZIP_STORED, EXTRA), 'application/epub+zip'), (info('META-INF/container.xml'), CONTAINER), (info('OEBPS/content.opf'), OPF)])
package('python-epub-deflated.epub', 'epub', [(info('mimetype'), 'application/epub+zip'), (info('META-INF/container.xml'), CONTAINER), (info('OEBPS/content.opf'), OPF)])
package('python-epub-late-mimetype.epub', 'epub', [(info('META-INF/container.xml'), CONTAINER), (info('mimetype', zipfile.ZIP_STORED), 'application/epub+zip'), (info('OEBPS/content.opf'), OPF)])
package('python-epub-streamed.epub', 'epub', [(info('mimetype', zipfile.ZIP_STORED), 'application/epub+zip'), (info('META-INF/container.xml'), CONTAINER), (info('OEBPS/content.opf'), OPF)], streamed=True)

# ODF: mimetype first (stored) or, as some generators do, not first; streamed with data descriptors.
ODF_MANIFEST = XML + '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>'
for fmt, mime in [('odt', 'text'), ('ods', 'spreadsheet'), ('odp', 'presentation'), ('odg', 'graphics'), ('ott', 'text-template')]:
    mimetype = f'application/vnd.oasis.opendocument.{mime}'
    body = (info('content.xml'), XML + '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"/>')
    package(f'python-{fmt}-stored.{fmt}', fmt, [(info('mimetype', zipfile.ZIP_STORED), mimetype), body, (info('META-INF/manifest.xml'), ODF_MANIFEST)])
    package(f'python-{fmt}-streamed.{fmt}', fmt, [(info('mimetype', zipfile.ZIP_STORED, EXTRA), mimetype), body, (info('META-INF/manifest.xml'), ODF_MANIFEST)], streamed=True)
    package(f'python-{fmt}-late.{fmt}', fmt, [(info('META-INF/manifest.xml'), ODF_MANIFEST), body, (info('mimetype'), mimetype)])

# OOXML: [Content_Types].xml first (Office), _rels/.rels first (some libraries), the main part first (streaming writers).
OOXML = {
    'docx': ('word/document.xml', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml'),
    'xlsx': ('xl/workbook.xml', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml'),
    'xlsm': ('xl/workbook.xml', 'application/vnd.ms-excel.sheet.macroEnabled.main+xml'),
    'pptx': ('ppt/presentation.xml', 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml'),
    'ppsx': ('ppt/presentation.xml', 'application/vnd.openxmlformats-officedocument.presentationml.slideshow.main+xml'),
    'vsdx': ('visio/document.xml', 'application/vnd.ms-visio.drawing.main+xml'),
}
for fmt, (part, content_type) in OOXML.items():
    types = (info('[Content_Types].xml'), XML + f'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/{part}" ContentType="{content_type}"/></Types>')
    rels = (info('_rels/.rels'), XML + f'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="{part}"/></Relationships>')
    main = (info(part), XML + '<root/>')
    package(f'python-{fmt}-types-first.{fmt}', fmt, [types, rels, main])
    package(f'python-{fmt}-rels-first.{fmt}', fmt, [rels, main, types], streamed=True)
    package(f'python-{fmt}-part-first.{fmt}', fmt, [main, rels, types])

# JAR, CBZ, APK and XPS as other writers lay them out.
package('python-jar.jar', 'jar', [(info('META-INF/MANIFEST.MF'), 'Manifest-Version: 1.0\nCreated-By: python\n'), (info('app/Main.class'), b'\xca\xfe\xba\xbe\x00\x00\x00\x34')])
package('python-cbz.cbz', 'cbz', [(info('001.png', zipfile.ZIP_STORED), b'\x89PNG\r\n\x1a\n' + bytes(64)), (info('002.png', zipfile.ZIP_STORED), b'\x89PNG\r\n\x1a\n' + bytes(64))])
package('python-apk.apk', 'apk', [(info('AndroidManifest.xml'), b'\x03\x00\x08\x00' + bytes(60)), (info('classes.dex'), b'dex\n035\x00' + bytes(64)), (info('META-INF/MANIFEST.MF'), 'Manifest-Version: 1.0\n')])
package('python-xps.xps', 'xps', [(info('[Content_Types].xml'), XML + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'), (info('FixedDocumentSequence.fdseq'), XML + '<FixedDocumentSequence/>')])
package('python-zip-streamed.zip', 'zip', [(info('readme.txt'), 'hello\n' * 20)], streamed=True)
package('python-apk-streamed.apk', 'apk', [(info('AndroidManifest.xml'), b'\x03\x00\x08\x00' + bytes(60)), (info('resources.arsc', zipfile.ZIP_STORED), b'\x02\x00\x0c\x00' + bytes(60)), (info('classes.dex'), b'dex\n039\x00' + bytes(64))], streamed=True)
package('python-oxps.oxps', 'xps', [(info('_rels/.rels'), XML + '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>'), (info('[Content_Types].xml'), XML + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'), (info('FixedDocumentSequence.fdseq'), XML + '<FixedDocumentSequence/>')], streamed=True)
