#!/usr/bin/python3
"""
UNO bridge of the conversion worker: starts one headless LibreOffice, keeps it warm and converts
documents to PDF on request. Python only because UNO has no Node binding (Debian's python3-uno,
run by /usr/bin/python3). The Node side (src/conversion/office.ts) owns timeouts and restarts.

Protocol: one JSON object per line.
  stdout, once started:   {"ready": true}            or {"ready": false, "error": "..."}
  stdin request:          {"id": 1, "input": "/abs/in.docx", "output": "/abs/out.pdf",
                           "pageRange": "1-301", "filter": "csv" | "txt" | null}
  stdout reply:           {"id": 1, "ok": true}      or {"id": 1, "ok": false, "error": "..."}
  liveness:               {"id": 2, "ping": true} -> {"id": 2, "pong": true} (the office answered a UNO call)
  the office died:        {"id": 1, "ok": false, "dead": true, "error": "..."} or, when idle,
                          {"dead": true}; the bridge then exits (the Node side starts a fresh one)
LibreOffice's own output goes to stderr; stdout carries the protocol only. The bridge runs in the
worker's sandbox with the office (no network, only the profile and the inbox in view).
"""
import json
import os
import subprocess
import sys
import threading
import time

import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException

# com.sun.star.document.MacroExecMode.NEVER_EXECUTE / UpdateDocMode.NO_UPDATE
NEVER_EXECUTE = 0
NO_UPDATE = 0


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


_out = threading.Lock()


def reply(obj):
    with _out:
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()


def alive(desktop, office):
    """the office process is up and answers a UNO call"""
    if office.poll() is not None:
        return False
    try:
        desktop.getFrames()
        return True
    except Exception:
        return False


def watch(office):
    """process watch: an office that dies while the bridge waits for work is reported at once"""
    office.wait()
    reply({"dead": True, "error": "LibreOffice exited with code %s" % office.returncode})
    os._exit(3)


def start_office(soffice, profile_dir, pipe_name):
    # a named pipe, not a TCP port: the office runs without a network (unshare -n) and the pipe
    # (a Unix socket in the filesystem) still reaches it
    args = [
        soffice,
        "-env:UserInstallation=" + uno.systemPathToFileUrl(profile_dir),
        "--headless",
        "--invisible",
        "--norestore",
        "--nodefault",
        "--nologo",
        "--nofirststartwizard",
        "--nolockcheck",
        "--accept=pipe,name=%s;urp;StarOffice.ComponentContext" % pipe_name,
    ]
    return subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=sys.stderr, stderr=sys.stderr)


def connect(pipe_name, office, timeout_s):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    deadline = time.time() + timeout_s
    while True:
        try:
            ctx = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe_name)
            return ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        except NoConnectException:
            if office.poll() is not None:
                raise RuntimeError("LibreOffice exited with code %s while starting" % office.returncode)
            if time.time() > deadline:
                raise RuntimeError("LibreOffice did not start within %d s" % timeout_s)
            time.sleep(0.05)


def export_filter(doc):
    if doc.supportsService("com.sun.star.presentation.PresentationDocument"):
        return "impress_pdf_Export"
    if doc.supportsService("com.sun.star.drawing.DrawingDocument"):
        return "draw_pdf_Export"
    if doc.supportsService("com.sun.star.sheet.SpreadsheetDocument"):
        return "calc_pdf_Export"
    if doc.supportsService("com.sun.star.text.WebDocument"):
        return "writer_web_pdf_Export"
    if doc.supportsService("com.sun.star.text.TextDocument"):
        return "writer_pdf_Export"
    raise RuntimeError("unsupported document kind")


def convert(desktop, req):
    load = [
        prop("Hidden", True),
        prop("ReadOnly", True),
        prop("MacroExecutionMode", NEVER_EXECUTE),
        prop("UpdateDocMode", NO_UPDATE),
        prop("Silent", True),
        prop("RepairPackage", False),
    ]
    kind = req.get("filter")
    if kind == "csv":
        # comma, double quote, UTF-8 (76), start at line 1
        load += [prop("FilterName", "Text - txt - csv (StarCalc)"), prop("FilterOptions", "44,34,76,1")]
    elif kind == "txt":
        load += [prop("FilterName", "Text (encoded)"), prop("FilterOptions", "UTF8,LF,,,")]
    doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(req["input"]), "_blank", 0, tuple(load))
    if doc is None:
        raise RuntimeError("the document could not be opened")
    try:
        filter_data = uno.Any("[]com.sun.star.beans.PropertyValue", (prop("PageRange", req["pageRange"]),))
        store = (prop("FilterName", export_filter(doc)), prop("FilterData", filter_data), prop("Overwrite", True))
        uno.invoke(doc, "storeToURL", (uno.systemPathToFileUrl(req["output"]), store))
    finally:
        try:
            doc.close(True)
        except Exception:
            doc.dispose()


def main():
    soffice, profile_dir, pipe_name = sys.argv[1], sys.argv[2], sys.argv[3]
    office = start_office(soffice, profile_dir, pipe_name)
    try:
        desktop = connect(pipe_name, office, 60)
    except Exception as e:
        reply({"ready": False, "error": str(e)})
        office.kill()
        return 1
    reply({"ready": True, "pid": office.pid})
    threading.Thread(target=watch, args=(office,), daemon=True).start()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        req = json.loads(line)
        if req.get("quit"):
            break
        if req.get("ping"):
            if alive(desktop, office):
                reply({"id": req["id"], "pong": True})
                continue
            reply({"id": req["id"], "ok": False, "dead": True, "error": "LibreOffice does not answer"})
            os._exit(3)
        try:
            convert(desktop, req)
            reply({"id": req["id"], "ok": True})
        except Exception as e:
            message = getattr(e, "Message", None) or str(e) or e.__class__.__name__
            if not alive(desktop, office):
                # the office died under the document: not the document's failure
                reply({"id": req["id"], "ok": False, "dead": True, "error": message[:500]})
                os._exit(3)
            reply({"id": req["id"], "ok": False, "error": message[:500]})
    try:
        desktop.terminate()
    except Exception:
        pass
    try:
        office.wait(5)
    except subprocess.TimeoutExpired:
        office.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
