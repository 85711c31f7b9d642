"""The kernel's Landlock denials of one run against what --explain-json said.

Both sides become (object, right) pairs, the object being what the kernel
names in its record:
  - files: the path; for the rights that change a directory (make_*,
    remove_*, refer) the kernel names the directory, so an explanation's
    "dir/name" stands for "dir"; an unnamed O_TMPFILE file, which the kernel
    names "dir/#INO (deleted)", stands for its directory on both sides;
  - ports: the port number (the kernel leaves port 0 out of its record);
  - signals: the target pid.
Explanations of what the system-call filter refused ("kind":"syscall") are
no Landlock denials and have no record: they are kept apart (filter), and
only their advice is checked, against the tracer's own next report. So are
refusals a capability the launcher dropped made ("kind":"capability"): kept
apart (capability), each checked to have no Landlock record on its file.
The report folds the denials of one kind beneath /proc/PID of many
processes into one record with a "pattern" (/proc/PID/status): its pairs
name the pattern, and every kernel denial of a /proc/PID path has the
pattern's pairs too, so a folded record explains each process's record.
A kernel denial is explained when an explanation shares one of its pairs;
an explanation has a kernel record when a denial shares one of its pairs;
where they meet, the rights must be the same on both sides.

Kernel records that refused nothing are set aside, each with its reason:
a record whose system call failed with an errno the sandbox does not give
(the call failed for another reason first or after: an O_CREAT open of a
missing /proc/PID/fd/N is ENOENT although Landlock refused make_reg), a
file record whose system call succeeded, and a make_reg record of an open
whose name existed (the kernel asks Landlock before it knows, then drops
the answer: a successful `> /dev/stdout` names /proc/PID/fd that way).
"""
import os
import platform
import re
import stat
import subprocess

from auditlog import AUDIT_LANDLOCK_ACCESS, AUDIT_PATH, AUDIT_SYSCALL

MOVES = {"rename", "renameat", "renameat2", "link", "linkat"}
DIR_RIGHTS = {"remove_dir", "remove_file", "make_char", "make_dir", "make_reg", "make_sock",
              "make_fifo", "make_block", "make_sym", "refer"}
KERNEL_NAMES = {"net.bind_tcp": "tcp_bind", "net.connect_tcp": "tcp_connect",
                "net.bind_udp": "udp_bind", "net.connect_udp": "udp_connect",
                "net.connect_send_udp": "udp_connect", "scope.signal": "signal",
                "scope.abstract_unix_socket": "abstract-unix"}
# What the caller sees when Landlock refuses: EACCES, EXDEV for a refer, EPERM
# for a scope.
LANDLOCK_ERRNOS = {"fs": {13, 18}, "net": {13}, "scope": {1}, "other": {1, 13, 18}}
TMPFILE = re.compile(r"^(.*)/#\d+ \(deleted\)$")
PROC_TASK = re.compile(r"^/proc/[1-9]\d*(/task/[1-9]\d*)?(?=/|$)")


def proc_pattern(path):
    """PATH beneath /proc/PID with the numbers as words, as the report folds it
    (trace/fold.c, proc_pattern), or None."""
    if not isinstance(path, str) or not PROC_TASK.match(path):
        return None
    return PROC_TASK.sub(lambda m: "/proc/PID" + ("/task/TID" if m[1] else ""), path)

# Per architecture: (audit arch, kill, io_uring_enter, the opens). Only the
# native ABI is named here; any other arch is another system-call ABI.
ARCH = {
    "x86_64": ("c000003e", 62, 426, {2, 85, 257, 437}),
    "aarch64": ("c00000b7", 129, 426, {56, 437}),
}[platform.machine()]
NATIVE, NR_KILL, NR_IO_URING_ENTER, NR_OPENS = ARCH
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _watched_calls():
    """The tracer's watched calls, name -> number, from platform/linux-*.h."""
    header = {"x86_64": "linux-x64.h", "aarch64": "linux-arm64.h"}[platform.machine()]
    text = open(f"{REPO}/platform/{header}", encoding="utf-8").read()
    return {name: int(nr) for name, nr in re.findall(r"X\((\w+), (\d+)\)", text)}


CALLS = _watched_calls()


def right_name(blocker):
    if blocker.startswith("fs."):
        return blocker[3:]
    return KERNEL_NAMES.get(blocker, blocker)


def fs_object(path):
    m = TMPFILE.match(path)
    return m.group(1) if m else path


def _is_dev_tty(path, ino):
    """PATH (the record's name, ino) is the character device 5:0: /dev/tty,
    which the driver refuses with ENXIO to a process with no controlling
    terminal (the record carries no PATH record: items=0)."""
    try:
        st = os.stat(path)
    except (OSError, TypeError):
        return False
    return stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(5, 0) and st.st_ino == ino


class KernelDenial:
    """One AUDIT_LANDLOCK_ACCESS record with what its event says of the call."""

    def __init__(self, record, event):
        f = record.fields
        self.text = record.text
        self.rights = frozenset(right_name(b) for b in f.get("blockers", "").split(","))
        sysc = next((r for r in event if r.kind == AUDIT_SYSCALL), None)
        self.paths = [r.fields for r in event if r.kind == AUDIT_PATH]
        s = sysc.fields if sysc else {}
        self.syscall_text = sysc.text if sysc else None
        self.syscall = int(s["syscall"]) if "syscall" in s else None
        self.arch = s.get("arch")
        self.success = s.get("success")
        self.a0 = int(s.get("a0", "0"), 16)
        self.exit = int(s["exit"]) if re.fullmatch(r"-?\d+", s.get("exit", "")) else None
        self.pid = int(s["pid"]) if "pid" in s else None
        self.uid = int(s["uid"]) if "uid" in s else None
        self.comm = s.get("comm")
        self.tty = s.get("tty")
        self.ino = int(f["ino"]) if f.get("ino", "").isdigit() else None
        self.proc_uid = sysc.proc_uid if sysc else None
        self.pids = {self.pid}  # of every record of the same denial in the run
        self.calls = {self.syscall}
        blockers = f.get("blockers", "")
        if blockers.startswith("fs."):
            self.kind, self.obj = "fs", fs_object(f.get("path", ""))
        elif blockers.startswith("net."):
            self.kind = "net"
            self.obj = int(f.get("src", f.get("dest", "0")))
        elif blockers.startswith("scope.signal"):
            self.kind, self.obj = "scope", int(f.get("opid", "-1"))
        elif blockers.startswith("scope."):  # an abstract socket: its name after a NUL
            name = f.get("path", "")
            self.kind, self.obj = "scope", "@" + name[1:] if name.startswith("\0") else name
        else:
            self.kind, self.obj = "other", f.get("path", f.get("opid"))

    def key(self):
        return (self.kind, self.obj, self.rights)

    def pairs(self):
        pattern = proc_pattern(self.obj) if self.kind == "fs" else None
        objs = (self.obj, pattern) if pattern else (self.obj,)  # (port 0 is an object too)
        return {(self.kind, o, r) for r in self.rights for o in objs}

    def refused_nothing(self):
        """Why this record refused nothing, or None."""
        if self.exit is not None and self.exit < 0 and -self.exit not in LANDLOCK_ERRNOS[self.kind]:
            return f"its system call failed with errno {-self.exit}, not the sandbox's"
        if self.kind != "fs":
            return None
        if self.success == "yes":
            return "its system call succeeded"
        if self.rights == {"make_reg"} and self.syscall in NR_OPENS and \
                any(p.get("nametype") == "NORMAL" and p.get("inode") for p in self.paths):
            return "make_reg of an open whose name existed (the kernel dropped the answer)"
        if self.tty == "(none)" and _is_dev_tty(self.obj, self.ino):
            return "an open of /dev/tty with no controlling terminal (the driver answers ENXIO)"
        return None


class Explained:
    """One line of an --explain-json file."""

    def __init__(self, line, d):
        self.line = line
        self.d = d
        self.kind = d.get("kind")
        self.rights = frozenset(d.get("rights") or [])
        self.pid = d.get("pid")
        self.allow = list(d.get("allow") or [])
        self.replace = d.get("replace") or ""  # the option to take out ("--tcp-bind": its none)
        self.scope = d.get("scope")
        if self.kind == "fs":
            self.path = d.get("path")
        elif self.kind == "net":
            self.path = d.get("port")
        else:
            self.path = d.get("target", d.get("path"))

    def obj(self, right):
        if self.kind != "fs" or not isinstance(self.path, str):
            return self.path
        path = fs_object(self.path)
        # a move's rights are all its directories' (the file rights too: what
        # the moved file would gain there)
        moving = self.d.get("syscall") in MOVES
        return os.path.dirname(path) if right in DIR_RIGHTS or moving else path

    def pairs(self):
        if self.kind == "fs" and "pattern" in self.d:  # many processes' /proc/PID: the pattern
            return {(self.kind, proc_pattern(self.obj(r)) or self.obj(r), r) for r in self.rights}
        return {(self.kind, self.obj(r), r) for r in self.rights}

    def advice(self):
        """The advice as a key: what to take out, what to add, a scope to leave out."""
        if not self.allow and not self.scope:
            return None
        return (self.replace, tuple(self.allow), self.scope)


# --- what cannot be seen: the recognizers of tests/audit/not-explained ------


def _pgrp_signal(k, run):
    pid = k.a0 & 0xffffffff  # kill's pid_t, as the kernel reads it
    return k.kind == "scope" and k.syscall == NR_KILL and (pid == 0 or pid >= 1 << 31)


def _non_dumpable(k, run):
    """Unprivileged, the kernel says it: the process's /proc entries turned
    root's. A root launcher's tracer has no CAP_SYS_PTRACE either, but a root
    process's /proc is root's anyway: then the report's own unseen line must
    name the denying process."""
    if run.launcher_uid != 0:
        return k.uid not in (None, 0) and k.proc_uid == 0
    return bool(run.unseen) and run.unseen.get("pid") in k.pids


UNSEEN = {
    "other-abi": lambda k, run: k.arch is not None and (k.arch != NATIVE or
                                                        (k.syscall or 0) & 0x40000000),
    "pgrp-signal": _pgrp_signal,
    "inherited-fd": lambda k, run: False,
    "io-uring": lambda k, run: k.syscall is None or k.syscall == NR_IO_URING_ENTER,
    "non-dumpable": lambda k, run: _non_dumpable(k, run),
}


def read_not_explained(path):
    """The KEY -> README words of the not-explained list."""
    entries = {}
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        if not line.strip() or line.startswith("#"):
            continue
        key, sep, words = line.rstrip("\n").partition("\t")
        if not sep or not words.strip():
            raise ValueError(f"{path}:{n}: not KEY<tab>WORDS: {line!r}")
        entries[key] = words.strip()
    return entries


def man_sentence(page):
    """The man page's sentence of what --explain does not explain (the contract's
    home: the README is the newcomer's page), rendered, spaces folded, lower case."""
    text = subprocess.run(["man", "-l", page], capture_output=True, text=True, check=True,
                          env={**os.environ, "MANWIDTH": "2000", "MAN_KEEP_FORMATTING": ""}).stdout
    text = " ".join(re.sub(r".\x08", "", text).split())
    m = re.search(r"Calls made through another.*?are not explained", text)
    return m.group(0).lower() if m else ""


# --- one run --------------------------------------------------------------


class Comparison:
    """The verdict on one run: every list holds what a reviewer needs to see."""

    def __init__(self, run, events, explained, documented):
        self.run = run
        self.explained = explained
        self.ignored = []  # (KernelDenial, why)
        self.kernel = self._distinct(events)
        self.jpairs, self.kpairs = {}, {}
        for j in explained:
            for p in j.pairs():
                self.jpairs.setdefault(p, []).append(j)
        for k in self.kernel:
            for p in k.pairs():
                self.kpairs.setdefault(p, []).append(k)
        self.rights_differ = []  # (KernelDenial or Explained, the rights only it has)
        self._kernel_side(run, documented)
        self._explained_side()

    def _distinct(self, events):
        """One KernelDenial per (kind, object, rights), with every pid and call
        of its records; the records that refused nothing set aside."""
        distinct = {}
        for records in events.values():
            for r in records:
                if r.kind != AUDIT_LANDLOCK_ACCESS:
                    continue
                k = KernelDenial(r, records)
                why = k.refused_nothing()
                if why:
                    self.ignored.append((k, why))
                elif k.key() in distinct:
                    distinct[k.key()].pids.add(k.pid)
                    distinct[k.key()].calls.add(k.syscall)
                else:
                    distinct[k.key()] = k
        return list(distinct.values())

    def _kernel_side(self, run, documented):
        self.matched, self.unexplained, self.documented = [], [], []
        for k in self.kernel:
            shared = {p for p in k.pairs() if p in self.jpairs}
            if shared:
                self.matched.append(k)
                only = sorted({p[2] for p in k.pairs()} - {p[2] for p in shared})
                if only:
                    self.rights_differ.append((k, only))
                continue
            kinds = [key for key in documented if UNSEEN[key](k, run)]
            if kinds:
                self.documented.append((k, kinds[0]))
            else:
                self.unexplained.append(k)

    def _explained_side(self):
        self.without_record, self.wrong_pid = [], []
        self.filter = [j for j in self.explained if j.kind == "syscall"]
        self.capability = [j for j in self.explained if j.kind == "capability"]
        for j in self.explained:
            if j.kind in ("syscall", "capability"):
                continue  # the filter's refusal, a dropped capability's: Landlock logs nothing
            shared = {p for p in j.pairs() if p in self.kpairs}
            if not shared:
                self.without_record.append(j)
                continue
            only = sorted({p[2] for p in j.pairs()} - {p[2] for p in shared})
            if only:
                self.rights_differ.append((j, only))
            pids = {pid for p in shared for k in self.kpairs[p] for pid in k.pids}
            calls = {nr for p in shared for k in self.kpairs[p] for nr in k.calls}
            if j.pid not in pids:
                self.wrong_pid.append((j, f"pid {j.pid}, the kernel's "
                                       f"{sorted(p for p in pids if p is not None)}"))
            elif CALLS.get(j.d.get("syscall")) not in calls:
                self.wrong_pid.append((j, f"{j.d.get('syscall')}, the kernel's "
                                       f"{sorted(str(c) for c in calls)}"))

    def covered(self, advice):
        """The kernel denials that the explanations giving ADVICE account for."""
        out = []
        for j in self.explained:
            if j.advice() == advice:
                for p in j.pairs():
                    out += [k for k in self.kpairs.get(p, []) if k not in out]
        return out

    def advices(self):
        seen = []
        for j in self.explained:
            a = j.advice()
            if a and a not in seen:
                seen.append(a)
        return seen

    def counts(self):
        return (f"kernel {len(self.kernel)} denials ({len(self.ignored)} records set aside), "
                f"explained {len(self.explained)}, matched {len(self.matched)}, "
                f"unexplained {len(self.unexplained)} (+{len(self.documented)} documented), "
                f"without record {len(self.without_record)}, rights differ "
                f"{len(self.rights_differ)}, filter {len(self.filter)}")


FS_RIGHTS = DIR_RIGHTS | {"execute", "write_file", "read_file", "read_dir", "truncate",
                          "ioctl_dev", "resolve_unix"}
GRANTS = {"--ro": {"execute", "read_file", "read_dir"}, "--rw": FS_RIGHTS,
          "--unix": {"resolve_unix"}, "--tcp-bind": {"tcp_bind"},
          "--tcp-connect": {"tcp_connect"}, "--udp-bind": {"udp_bind"},
          "--udp-connect": {"udp_connect"}}
PROC_PID = re.compile(r"^/proc/\d+(?=/|$)")


def same_object(a, b):
    """One object in two runs: /proc/PID/... is the same for any PID."""
    if isinstance(a, str) and isinstance(b, str):
        return PROC_PID.sub("/proc/PID", a) == PROC_PID.sub("/proc/PID", b)
    return a == b


def allows(advice, x):
    """Does following ADVICE allow the access the kernel denial X refused?"""
    _, allow, scope = advice
    if scope:
        return x.kind == "scope" and scope in x.rights
    if len(allow) != 2 or allow[0] not in GRANTS or not x.rights & GRANTS[allow[0]]:
        return False
    if x.kind == "net":
        return str(x.obj) == allow[1]
    path = PROC_PID.sub("/proc/PID", allow[1]).rstrip("/") or "/"
    obj = PROC_PID.sub("/proc/PID", x.obj) if isinstance(x.obj, str) else ""
    return x.kind == "fs" and (obj == path or obj.startswith(path.rstrip("/") + "/"))


def still_denied(k, advice, comparison):
    """The denials of COMPARISON (a rerun with ADVICE followed) that show the
    advice did not allow what K refused: K's object with one of K's rights
    again, or any right the advice grants on what the advice grants it on."""
    return [x for x in comparison.kernel if x.kind == k.kind and (
        (same_object(x.obj, k.obj) and x.rights & k.rights) or allows(advice, x))]


# --- what is never advised: trace/never.c's own table, read from it -----------

NEVER_ROW = re.compile(r'^\s*\{"([^"]*)", (EXACT|TREE|PID|HOME|BLOCK), (ANY|WRITE|ROOT_WRITE),',
                       re.M)
NEVER = NEVER_ROW.findall(open(os.path.join(REPO, "trace", "never.c"), encoding="utf-8").read())
if len(NEVER) < 10:
    raise RuntimeError("trace/never.c: its never-advised table was not read")
FS_GRANTS = {"--ro", "--rw", "--unix", "--ro-try", "--rw-try"}


def _within(path, top):
    return top == "/" or path == top or path.startswith(top + "/")


def _is_block(path):
    try:
        return stat.S_ISBLK(os.stat(path).st_mode)
    except OSError:
        return False


def never_advised(option, path, home, root):
    """The row of trace/never.c's table the grant OPTION PATH falls in (HOME:
    the caller's $HOME, canonical; ROOT: the launcher ran as root), or None.
    Checked on the path as written and on what it opens now."""
    if option not in FS_GRANTS:
        return None
    write = option not in ("--ro", "--ro-try")
    for p in dict.fromkeys([path, os.path.realpath(path)]):
        for top, match, when in NEVER:
            if (when == "WRITE" and not write) or (when == "ROOT_WRITE" and not (write and root)):
                continue
            if ((match == "EXACT" and p == top) or (match == "TREE" and _within(p, top)) or
                    (match == "PID" and re.match(r"^/proc/\d+(/|$)", p)) or
                    (match == "HOME" and home not in ("", "/") and _within(home, p)) or
                    (match == "BLOCK" and _is_block(p))):
                return f"{option} {path}: never.c's row {top or match} {match} {when}"
    return None


# The check can fail: the issue's own proofs of concept are in the table, and
# a narrow grant beside them is not.
assert never_advised("--rw", "/proc/1/oom_score_adj", "/home/u", False)
assert never_advised("--rw", "/home", "/home/u", False)
assert never_advised("--rw", "/etc", "/home/u", True)
assert not never_advised("--rw", "/etc", "/home/u", False)
assert not never_advised("--rw", "/home/u/.npm", "/home/u", True)
assert not never_advised("--ro", "/proc", "/home/u", True)
