#!/usr/bin/env python3
"""denials.py FILE [--allow]: check every line of an --explain-json FILE
against the documented shape, and print each denial as the stderr line says
it, without the pid: 'RIGHTS WHAT (SYSCALL by COMM): allow with OPTION ARG'
(or 'not advised: WHY' for a record with a why instead of an allow); a
record that stands for the denials of one kind beneath /proc/PID as
'RIGHTS PATTERN of N processes, e.g. PATH (...)' (threads, when the
pattern has a TID).
A path is written as its exact bytes (the JSON's \\udcXX escapes turned
back into the bytes they stand for). With --allow, print instead the words
of every "allow" array, one a line. The last line may count the denials
past the listed ones ({"kind":"unlisted","denials":N}), and count the
failed calls of non-dumpable processes ({"kind":"unseen","calls":N,...}).
Exits 1 with a message on the first line that does not fit."""
import json
import re
import sys

ERRNOS = {"EACCES", "EPERM", "EXDEV"}
FILTER_ERRNOS = {"EAFNOSUPPORT", "ENOSYS", "EPERM", "EACCES", "EOPNOTSUPP"}  # metadata: the last


def fail(number, why):
    sys.exit(f"denials.py: line {number}: {why}")


PROC_PID = re.compile(r"^/proc/[1-9][0-9]*(/task/[1-9][0-9]*)?(?=/|$)")


def folded(number, d):
    """A fold's pattern is its first path with the pid (and tid) as words, and
    it stands for two processes or more; b"" for a record of one denial."""
    if "pattern" not in d and "count" not in d:
        return b""
    want = PROC_PID.sub(lambda m: "/proc/PID" + ("/task/TID" if m[1] else ""), d["path"])
    if d.get("pattern") != want or d["kind"] != "fs" or not isinstance(d.get("count"), int) \
            or d["count"] < 2:
        fail(number, f"pattern is not the path's, or count not 2 or more: {d}")
    unit = "threads" if "/task/TID" in want else "processes"
    return b"%s of %d %s, e.g. " % (want.encode("utf-8", "surrogateescape"), d["count"], unit.encode())


def what(number, d):
    if d["kind"] == "syscall":
        return d.get("family", "").encode()
    if d["kind"] in ("fs", "capability") or "path" in d:
        if not isinstance(d.get("path"), str):
            fail(number, "no path")
        return folded(number, d) + d["path"].encode("utf-8", "surrogateescape")
    if d["kind"] == "net":
        return b"port %d" % d["port"]
    return b"to pid %d" % d["target"]


def advice(d):
    if d.get("remove"):
        return f"allow by removing {d['remove']}"
    if d.get("replace"):
        none = "" if d["replace"].startswith("--no-") else " none"
        return f"replace {d['replace']}{none} with " + " ".join(d["allow"])
    if d.get("hidden"):
        return f"hidden by --hide {d['hidden']}"
    if d.get("hidden_beneath"):
        return f"no grant allows it while --hide {d['hidden_beneath']} is beneath it"
    if "why" in d:
        return "not advised: " + d["why"]
    if d["allow"]:
        return "allow with " + " ".join(d["allow"])
    if "scope" in d:
        return f"allow by leaving {d['scope']} out of --scope"
    return "no option allows it"


def check(number, d):
    types = {"kind": str, "pid": int, "comm": str, "syscall": str, "right": str,
             "rights": list, "errno": str, "allow": list}
    # a grant never advised (never.c) has its why instead of an allow
    if ("why" in d) == ("allow" in d) or not isinstance(d.get("why", ""), str):
        fail(number, f"neither allow nor why, or both: {d}")
    if "why" in d:
        types["allow"] = type(None)
    for key, kind in types.items():
        if not isinstance(d.get(key), kind):
            fail(number, f"{key} is missing or not a {kind.__name__}: {d}")
    if d["kind"] not in ("fs", "net", "scope", "syscall", "capability") or \
            d["errno"] not in (FILTER_ERRNOS if d["kind"] == "syscall" else ERRNOS):
        fail(number, f"kind or errno unknown: {d}")
    if d["right"] != d["rights"][0] or len(d.get("allow") or []) not in (0, 2, 4):
        fail(number, f"right is not the first of rights, or allow is not an option: {d}")


def main():
    data = open(sys.argv[1], "rb").read()
    if data and not data.endswith(b"\n"):
        fail(0, "the file does not end with a newline")
    out = sys.stdout.buffer
    for number, line in enumerate(data.splitlines(), 1):
        d = json.loads(line)
        if d.get("kind") == "unlisted":  # the count past the distinct ones listed
            if set(d) != {"kind", "denials"} or not isinstance(d["denials"], int):
                fail(number, f"unlisted is not a count: {d}")
            out.write(b"(%d more not listed)\n" % d["denials"])
            continue
        if d.get("kind") == "unseen":  # calls of processes closed to the tracer
            if set(d) != {"kind", "calls", "pid", "comm"} or not isinstance(d["calls"], int):
                fail(number, f"unseen is not a count with a process: {d}")
            out.write(b"(%d calls of %s not seen)\n" % (d["calls"], d["comm"].encode()))
            continue
        check(number, d)
        if sys.argv[2:] == ["--allow"]:
            out.writelines(w.encode("utf-8", "surrogateescape") + b"\n" for w in d.get("allow", []))
            continue
        w = what(number, d)
        if d.get("also_refused_by", "mode_bits") != "mode_bits":
            fail(number, f"also_refused_by is not mode_bits: {d}")
        too = b"the mode bits refuse it too; " if d.get("also_refused_by") else b""
        out.write(b"%s%s (%s by %s): %s%s\n" % (
            ",".join(d["rights"]).encode(), b" " + w if w else b"", d["syscall"].encode(),
            d["comm"].encode("utf-8", "surrogateescape"), too, advice(d).encode()))


main()
