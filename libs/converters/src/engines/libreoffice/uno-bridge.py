#!/usr/bin/python3
"""Fileshift's bridge between Node and one listening LibreOffice (soffice) instance, over UNO.

Run it with Debian's /usr/bin/python3 (python3-uno):

  uno-bridge.py --pipe NAME [--connect-timeout-ms N] [--instance-dir DIR] [-- SOFFICE ARGUMENTS...]

Given the soffice command line after "--", it starts soffice itself (in a session of its own), so that both live in
one sandbox and talk over the pipe; when soffice ends, it says {"event": "office-exited", "code"} (a negative code:
the signal that ended it) and exits 3. It connects to the instance's UNO pipe (retrying while soffice starts),
loads Writer, Calc and Impress once,
says {"event": "ready", "version"} on stdout (or {"event": "failed", "error"} and exits 2), then converts one
document per JSON line read on stdin, answering one JSON line each, in order:

  in:  {"id", "input", "output", "family", "filter", "filterOptions"?, "exportData"?,
        "importFilter"?, "importFilterOptions"?, "acceptImports"?, "maxPages"?}
  out: {"id", "ok": true, "importedWith", "pages"?} or {"id", "ok": false, "kind", "error", "pages"?}

kind: "load" (LibreOffice cannot read the input), "family" (not a text document / spreadsheet /
presentation as asked), "format" (type detection read it with a filter not in acceptImports), "too_many_pages"
(the PDF would have more than maxPages pages), "no_pages" (the page range selects none), "store" (the export
failed), "dead" (the instance was gone before the document was touched), "disconnected" (the instance died
during the conversion), "request" (a malformed request line). After "dead" or "disconnected" the bridge exits
(3): the supervisor replaces the instance. When stdin closes, the supervisor is gone: the bridge kills the
office process group and removes the instance directory and pipes, then exits 0.

Documents are loaded hidden and read-only, macros never executed (MacroExecutionMode NEVER_EXECUTE), links
never updated (UpdateDocMode NO_UPDATE), without an interaction handler (no dialogs, no repair), and closed
whatever happens. Once warm, the bridge puts its file guard in front of soffice's "file" content provider: a file
a document refers to (a linked picture, a style sheet, a background, a linked section or object) is refused unless
it is the document itself, its output, or LibreOffice's own (temporary files, profile, installation): see FileGuard.
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from urllib.parse import unquote, urlsplit

import uno
import unohelper
from com.sun.star.beans import PropertyValue
from com.sun.star.ucb import IllegalIdentifierException, XContentProvider

# com.sun.star.document.MacroExecMode.NEVER_EXECUTE and UpdateDocMode.NO_UPDATE
NEVER_EXECUTE = 0
NO_UPDATE = 0

FAMILY_SERVICES = {
    "text": "com.sun.star.text.TextDocument",
    "sheet": "com.sun.star.sheet.SpreadsheetDocument",
    "slide": "com.sun.star.presentation.PresentationDocument",
}

PAGE_RANGE = re.compile(r"^\d+(-\d+)?(,\d+(-\d+)?)*$")


class Dead(Exception):
    """The instance was gone before this conversion touched it: retrying elsewhere is safe."""


class Failure(Exception):
    def __init__(self, kind, message, pages=None):
        super().__init__(message)
        self.kind = kind
        self.pages = pages


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def props(**values):
    return tuple(prop(name, value) for name, value in values.items())


OUTPUT = threading.Lock()


def emit(message):
    with OUTPUT:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def launch_office(argv):
    """Starts soffice in a session of its own (one signal to its group ends launcher and soffice.bin) and watches
    it: when it ends, the instance is over."""
    office = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True)

    def watch():
        code = office.wait()
        emit({"event": "office-exited", "code": code})
        os._exit(3)

    threading.Thread(target=watch, daemon=True).start()
    return office


def log(text):
    sys.stderr.write("uno-bridge: %s\n" % text)
    sys.stderr.flush()


def connect(pipe, timeout_s):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            remote = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
            desktop = remote.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", remote)
            return remote, desktop
        except Exception as error:  # NoConnectException while soffice starts
            if time.monotonic() > deadline:
                raise RuntimeError("no connection to the instance: %s" % error)
            time.sleep(0.1)


def office_version(remote):
    try:
        provider = remote.ServiceManager.createInstanceWithContext("com.sun.star.configuration.ConfigurationProvider", remote)
        access = provider.createInstanceWithArguments(
            "com.sun.star.configuration.ConfigurationAccess", props(nodepath="/org.openoffice.Setup/Product")
        )
        return "%s %s" % (access.getByName("ooName"), access.getByName("ooSetupVersionAboutBox"))
    except Exception:
        return "LibreOffice"


# utl::TempFile's names ("lu" and a base-36 number): soffice's temporary files and directories, beside an output
# it stores and in its temporary directory.
OFFICE_TEMPORARY = re.compile(r"^lu[0-9a-z]+\.tmp$")


def file_url_path(url):
    """The path of a local file: URL, percent-decoded; None for any other URL, a remote host, or a path with "."
    or ".." segments (soffice makes its own URLs absolute and normalized: such a path comes from a document)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() != "file" or parts.netloc not in ("", "localhost"):
        return None
    path = unquote(parts.path)
    if not path.startswith("/") or "\0" in path or any(segment in (".", "..") for segment in path.split("/")):
        return None
    return path.rstrip("/") or "/"


def within(path, directory):
    return path == directory or path.startswith(directory + "/")


def temporaries_only(path, directory):
    """Whether path is directory itself or made of soffice's temporary names below it."""
    if path == directory:
        return True
    if not path.startswith(directory + "/"):
        return False
    return all(OFFICE_TEMPORARY.match(name) for name in path[len(directory) + 1:].split("/"))


def file_permitted(path, conversion, places):
    """Pure: whether soffice may open this local path. The conversion's input and output (a package's output is
    also opened by its inner paths) and soffice's temporaries beside them, its temporary directory's own files,
    its profile's user files (application Basic libraries, UI configuration, table autoformats…: refusing them
    crashes exports) and its installation; nothing else: not a file beside the input, nothing of the machine a
    document names."""
    if within(path, places.installation) or temporaries_only(path, places.temp_dir):
        return True
    if places.profile and within(path, os.path.join(places.profile, "user")):
        return True
    if conversion is None:
        return False
    source, target = conversion
    return path == source or within(path, target) or temporaries_only(path, os.path.dirname(target))


class FileGuard(unohelper.Base, XContentProvider):
    """soffice opens file: URLs through the Universal Content Broker's "file" provider: the document, and the files
    a document refers to (HTML images, style sheets and backgrounds, OOXML external relationships, ODF xlink:href
    pictures, backgrounds, sections and objects, Calc's external references and linked tables). Registered in its
    place, this provider hands the original one only what file_permitted allows; any other URL is refused as
    unknown, and the importer goes on without the linked content. soffice asks it once per content it creates (tens
    per conversion), not per byte read. One reader opens files around it: RTF's INCLUDEPICTURE, whose fields the
    runtime blanks before loading (rtf-file-fields.ts)."""

    def __init__(self, original, places):
        self.original = original
        self.places = places
        # (input, output) of the conversion under way, else None.
        self.conversion = None

    def queryContent(self, identifier):
        url = identifier.getContentIdentifier()
        path = file_url_path(url)
        if path is None or not file_permitted(path, self.conversion, self.places):
            log("refused a file the document refers to: %r" % url[:300])
            raise IllegalIdentifierException("not a file of this conversion", self)
        return self.original.queryContent(identifier)

    def compareContentIds(self, first, second):
        return self.original.compareContentIds(first, second)


class OfficePlaces:
    """Where soffice keeps its own files: installation, profile (the -env:UserInstallation directory), temporaries."""

    def __init__(self, office, temp_dir):
        program = os.path.dirname(os.path.realpath(office[0])) if office else "/usr/lib/libreoffice/program"
        self.installation = os.path.dirname(program)
        self.temp_dir = os.path.normpath(temp_dir)
        self.profile = None
        for argument in office[1:]:
            if argument.startswith("-env:UserInstallation="):
                self.profile = file_url_path(argument.split("=", 1)[1])


def install_file_guard(remote, places):
    """Puts a FileGuard in front of soffice's file content provider; returns it."""
    broker = remote.ServiceManager.createInstanceWithContext("com.sun.star.ucb.UniversalContentBroker", remote)
    original = broker.queryContentProvider("file:///")
    if original is None:
        raise RuntimeError("soffice has no file content provider")
    guard = FileGuard(original, places)
    broker.registerContentProvider(guard, "file", True)
    return guard


def warm_up(desktop, scratch_dir):
    """Loads Writer, Calc and Impress once (an empty hidden document each) and the PDF export, so the first
    conversions do not pay for it."""
    for factory in ("swriter", "scalc", "simpress"):
        try:
            document = desktop.loadComponentFromURL("private:factory/" + factory, "_blank", 0, props(Hidden=True))
            try:
                if factory == "swriter" and scratch_dir:
                    target = os.path.join(scratch_dir, "warm-up.pdf")
                    document.storeToURL(uno.systemPathToFileUrl(target), props(FilterName="writer_pdf_Export"))
                    os.unlink(target)
            finally:
                close(document)
        except Exception as error:
            log("warm-up of %s failed: %s" % (factory, error))


def alive(desktop):
    try:
        desktop.getFrames().getCount()
        return True
    except Exception:
        return False


def selected_pages(page_range, page_count):
    """How many of page_count pages "1-3,5" selects."""
    selected = set()
    for part in page_range.split(","):
        bounds = [int(n) for n in part.split("-")]
        first, last = bounds[0], bounds[-1]
        selected.update(range(first, min(last, page_count) + 1))
    return len(selected)


def page_count(document):
    """The pages a PDF export would render (Writer pages, Calc print pages, slides)."""
    return int(document.getRendererCount(document, ()))


def export_data(values):
    """The filter's FilterData: typed as a sequence of PropertyValue, as the PDF export reads it."""
    return uno.Any("[]com.sun.star.beans.PropertyValue", tuple(prop(k, v) for k, v in values.items()))


def load(desktop, request):
    url = uno.systemPathToFileUrl(request["input"])
    load_props = {
        "Hidden": True,
        "ReadOnly": True,
        "Silent": True,
        "MacroExecutionMode": NEVER_EXECUTE,
        "UpdateDocMode": NO_UPDATE,
        "RepairPackage": False,
    }
    if request.get("importFilter"):
        load_props["FilterName"] = request["importFilter"]
        if request.get("importFilterOptions"):
            load_props["FilterOptions"] = request["importFilterOptions"]
    try:
        document = desktop.loadComponentFromURL(url, "_blank", 0, props(**load_props))
    except Exception as error:
        if not alive(desktop):
            raise Failure("disconnected", "the instance died while loading: %s" % error)
        raise Failure("load", "cannot load: %s: %s" % (type(error).__name__, str(error)[:500]))
    if document is None:
        if not alive(desktop):
            raise Failure("disconnected", "the instance died while loading")
        raise Failure("load", "cannot load: no document")
    return document


def import_filter(document):
    """The filter LibreOffice's type detection (or the request) chose to read the input."""
    try:
        for arg in document.getArgs():
            if arg.Name == "FilterName":
                return str(arg.Value)
    except Exception:
        pass
    return ""


def close(document):
    try:
        document.close(True)
    except Exception:
        try:
            document.dispose()
        except Exception:
            pass


def convert(desktop, guard, request):
    if not alive(desktop):
        raise Dead("the instance is gone")
    guard.conversion = (os.path.normpath(request["input"]), os.path.normpath(request["output"]))
    try:
        return convert_guarded(desktop, request)
    finally:
        guard.conversion = None


WORD_97_FILTER = "MS Word 97"


def end_with_paragraph(document):
    """A text whose body ends in a table (DOCX allows it, pandoc writes it; Word always adds a paragraph) loses that
    table in a Word 97 export: its cells run together as one word. An empty paragraph after it keeps the table."""
    if not document.supportsService("com.sun.star.text.TextDocument"):
        return
    text = document.getText()
    last = None
    elements = text.createEnumeration()
    while elements.hasMoreElements():
        last = elements.nextElement()
    if last is not None and last.supportsService("com.sun.star.text.TextTable"):
        text.insertTextContentAfter(document.createInstance("com.sun.star.text.Paragraph"), last)


def convert_guarded(desktop, request):
    document = load(desktop, request)
    try:
        service = FAMILY_SERVICES.get(request.get("family", ""))
        if service and not document.supportsService(service):
            raise Failure("family", "not a %s document" % request["family"])
        imported_with = import_filter(document)
        accepted = request.get("acceptImports")
        if accepted and not any(imported_with.startswith(prefix) for prefix in accepted):
            raise Failure("format", "read as %s, not as one of %s" % (imported_with or "nothing", ", ".join(accepted)))
        if request["filter"] == WORD_97_FILTER:
            end_with_paragraph(document)
        data = request.get("exportData") or {}
        pages = None
        max_pages = request.get("maxPages")
        if max_pages is not None:
            pages = page_count(document)
            page_range = data.get("PageRange")
            selected = selected_pages(page_range, pages) if page_range and PAGE_RANGE.match(page_range) else pages
            if page_range and selected == 0:
                raise Failure("no_pages", "%d pages, none in the range asked for" % pages, pages)
            if selected > max_pages:
                raise Failure("too_many_pages", "%d pages to render, at most %d" % (selected, max_pages), selected)
        store = {"FilterName": request["filter"], "Overwrite": True}
        if request.get("filterOptions"):
            store["FilterOptions"] = request["filterOptions"]
        if data:
            store["FilterData"] = export_data(data)
        try:
            document.storeToURL(uno.systemPathToFileUrl(request["output"]), props(**store))
        except Exception as error:
            if not alive(desktop):
                raise Failure("disconnected", "the instance died while storing: %s" % error)
            raise Failure("store", "cannot store: %s: %s" % (type(error).__name__, str(error)[:500]))
        return {"importedWith": imported_with, **({"pages": pages} if pages is not None else {})}
    finally:
        close(document)


def orphaned_cleanup(args, office):
    """stdin closed: the supervisor is gone (it would have killed us first). Take the instance down with us."""
    if office is not None:
        try:
            os.killpg(office.pid, signal.SIGKILL)
        except OSError:
            pass
    if args.instance_dir:
        time.sleep(0.5)
        profile_url = uno.systemPathToFileUrl(os.path.join(args.instance_dir, "profile"))
        digest = hashlib.md5(profile_url.encode("utf-16-le")).digest()
        for name in (args.pipe, "SingleOfficeIPC_" + "".join("%x" % byte for byte in digest)):
            for directory in ("/tmp", "/var/tmp"):
                try:
                    os.unlink("%s/OSL_PIPE_%d_%s" % (directory, os.getuid(), name))
                except OSError:
                    pass
        shutil.rmtree(args.instance_dir, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pipe", required=True)
    parser.add_argument("--connect-timeout-ms", type=int, default=60000)
    parser.add_argument("--instance-dir", default="")
    parser.add_argument("office", nargs=argparse.REMAINDER, help="-- then soffice and its arguments")
    args = parser.parse_args()
    if args.office[:1] == ["--"]:
        args.office = args.office[1:]
    try:
        return serve(args)
    except KeyboardInterrupt:
        return 1


def serve(args):
    office = launch_office(args.office) if args.office else None
    try:
        remote, desktop = connect(args.pipe, args.connect_timeout_ms / 1000)
    except Exception as error:
        emit({"event": "failed", "error": str(error)[:500]})
        return 2
    temp_dir = os.environ.get("TMPDIR") or (os.path.join(args.instance_dir, "tmp") if args.instance_dir else "/tmp")
    warm_up(desktop, os.path.join(args.instance_dir, "tmp") if args.instance_dir else "")
    try:
        guard = install_file_guard(remote, OfficePlaces(args.office, temp_dir))
    except Exception as error:
        # Without the guard a document could pull in files it names: the instance must not convert at all.
        emit({"event": "failed", "error": "no file guard: %s" % str(error)[:500]})
        return 2
    emit({"event": "ready", "version": office_version(remote)})

    for line in sys.stdin:
        if not line.strip():
            continue
        request_id = None
        try:
            request = json.loads(line)
            request_id = request.get("id")
            for key in ("input", "output", "filter"):
                if not isinstance(request.get(key), str):
                    raise ValueError("%s missing" % key)
        except Exception as error:
            emit({"id": request_id, "ok": False, "kind": "request", "error": str(error)[:200]})
            continue
        try:
            emit({"id": request_id, "ok": True, **convert(desktop, guard, request)})
        except Dead as error:
            emit({"id": request_id, "ok": False, "kind": "dead", "error": str(error)})
            return 3
        except Failure as failure:
            reply = {"id": request_id, "ok": False, "kind": failure.kind, "error": str(failure)}
            if failure.pages is not None:
                reply["pages"] = failure.pages
            emit(reply)
            if failure.kind == "disconnected":
                return 3
        except Exception as error:
            dead = not alive(desktop)
            emit({"id": request_id, "ok": False, "kind": "disconnected" if dead else "store", "error": "%s: %s" % (type(error).__name__, str(error)[:500])})
            if dead:
                return 3
    orphaned_cleanup(args, office)
    return 0


if __name__ == "__main__":
    sys.exit(main())
