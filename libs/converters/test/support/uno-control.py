#!/usr/bin/python3
"""The security tests' positive control: a deliberately PERMISSIVE client of a permissive soffice.

  uno-control.py PIPE OUTPUT_DIR FILE...

Loads each text document visible (so load events fire) and each spreadsheet hidden, with MacroExecutionMode ALWAYS_EXECUTE_NO_WARN and UpdateDocMode
FULL_UPDATE, recalculates spreadsheets, and exports a PDF. Documents are left open (closing a document whose
macros are bound to its unload events can take soffice down); the test kills the instance afterwards. If the
samples are live, this fetches their remote content and runs their macros: what the pool must never do. Give the
macro documents first: soffice 7.4 crashes here when it loads the ODT one after the others.

A .docm's VBA open event is then fired by hand, through LibreOffice's own Writer VBA event processor: soffice 7.4
never fires it on load itself (Writer asks its VBA globals for com.sun.star.script.vba.VBATextEventProcessor, which
7.4 neither offers there nor registers under that name), so a load alone would leave the control proving nothing.
The processor runs ThisDocument.Document_Open and then AutoOpen, as Word does, with the document's own macro
permission: it shows the VBA project was imported executable and that its macros run when allowed.
"""

import os
import sys
import time

import uno
from com.sun.star.beans import PropertyValue

ALWAYS_EXECUTE_NO_WARN = 4
FULL_UPDATE = 3
WRITER_VBA_EVENTS = "com.sun.star.document.vba.VBATextEventProcessor"


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
        if path.endswith(".docm"):
            events = remote.ServiceManager.createInstanceWithArgumentsAndContext(WRITER_VBA_EVENTS, (document,), remote)
            document_open = uno.getConstantByName("com.sun.star.script.vba.VBAEventId.DOCUMENT_OPEN")
            print("VBA Document_Open fired, a handler ran: %s" % events.processVbaEvent(document_open, ()), flush=True)
        print("controlled %s" % os.path.basename(path), flush=True)


if __name__ == "__main__":
    main()
