#!/usr/bin/python3
"""The security tests' positive control: a deliberately PERMISSIVE client of a permissive soffice.

  uno-control.py PIPE OUTPUT_DIR FILE...

Loads each text document visible (so load events fire) and each spreadsheet hidden, with MacroExecutionMode ALWAYS_EXECUTE_NO_WARN and UpdateDocMode
FULL_UPDATE, recalculates spreadsheets, and exports a PDF. Documents are left open (closing a document whose
macros are bound to its unload events can take soffice down); the test kills the instance afterwards. If the
samples are live, this fetches their remote content and runs their macro: what the pool must never do. Give the
macro document first: soffice 7.4 crashes here when it loads it after the others.
"""

import os
import sys
import time

import uno
from com.sun.star.beans import PropertyValue

ALWAYS_EXECUTE_NO_WARN = 4
FULL_UPDATE = 3


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def main():
    pipe, output_dir, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    deadline = time.monotonic() + 60
    while True:
        try:
            remote = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
            break
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
    desktop = remote.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", remote)
    for path in files:
        # Text documents visible, so their load events fire; spreadsheets hidden (soffice 7.4 crashes loading a
        # visible one with links here), recalculated below.
        spreadsheet = path.endswith((".ods", ".xlsx", ".csv"))
        load = [prop("Hidden", spreadsheet), prop("MacroExecutionMode", ALWAYS_EXECUTE_NO_WARN), prop("UpdateDocMode", FULL_UPDATE)]
        if path.endswith(".csv"):
            # Formulas evaluated on import (token 12 true): the opposite of the pool's CSV import.
            load += [prop("FilterName", "Text - txt - csv (StarCalc)"), prop("FilterOptions", "44,34,76,1,,0,false,true,true,false,false,-1,true")]
        document = desktop.loadComponentFromURL(uno.systemPathToFileUrl(path), "_blank", 0, tuple(load))
        if spreadsheet:
            document.calculateAll()
        target = os.path.join(output_dir, os.path.basename(path) + ".pdf")
        export = "calc_pdf_Export" if spreadsheet else "writer_web_pdf_Export" if document.supportsService("com.sun.star.text.WebDocument") else "writer_pdf_Export"
        document.storeToURL(uno.systemPathToFileUrl(target), (prop("FilterName", export),))
        print("controlled %s" % os.path.basename(path), flush=True)


if __name__ == "__main__":
    main()
