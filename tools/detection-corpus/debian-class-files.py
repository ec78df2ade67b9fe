"""Copies the first .class entry of each given jar to the output directory; prints "jar<TAB>entry<TAB>file"."""
import os
import sys
import zipfile

out = sys.argv[1]
for index, jar in enumerate(sys.argv[2:]):
    with zipfile.ZipFile(jar) as archive:
        entry = next((name for name in sorted(archive.namelist()) if name.endswith('.class')), None)
        if entry is None:
            continue
        target = os.path.join(out, f'{index}-{os.path.basename(entry)}')
        with open(target, 'wb') as handle:
            handle.write(archive.read(entry))
        print(f'{jar}\t{entry}\t{target}')
