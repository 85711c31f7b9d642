"""The kernel's Landlock audit records, read as root from the audit netlink
socket's read-only multicast group (AUDIT_NLGRP_READLOG): no auditd needed.

  status()                  the kernel's struct audit_status, as a dict
  set_status(enabled=..., backlog_limit=...)   AUDIT_SET of those fields
  Collector()               a thread that keeps every record from now on;
                            .mark(), .barrier(), .denials(mark, pid, ...)

The records of one event share the stamp audit(TIME:SERIAL): a Landlock
denial is a 1423 AUDIT_LANDLOCK_ACCESS record, followed (when the denial
came from a system call) by the event's 1300 SYSCALL record, its 1302 PATH
records and its proctitle. A domain is announced once, by a 1424
AUDIT_LANDLOCK_DOMAIN record "status=allocated ... pid=P" (P: the process
that called landlock_restrict_self) in the event of its first denial, and
retired by "status=deallocated denials=N" when its last process is gone.
The collector sees every Landlock record on the host: a run's records are
those of the domains whose allocation names the run's own pid.
"""
import os
import re
import select
import socket
import struct
import threading
import time

NETLINK_AUDIT = 9
AUDIT_GET, AUDIT_SET, AUDIT_USER = 1000, 1001, 1005
AUDIT_SYSCALL, AUDIT_PATH = 1300, 1302
AUDIT_LANDLOCK_ACCESS, AUDIT_LANDLOCK_DOMAIN = 1423, 1424
AUDIT_NLGRP_READLOG = 1
NLMSG_ERROR = 2
NLM_F_REQUEST, NLM_F_ACK = 1, 4
STATUS_FIELDS = ("mask", "enabled", "failure", "pid", "rate_limit", "backlog_limit", "lost",
                 "backlog")
MASK = {"enabled": 1, "backlog_limit": 0x10}

# Values the kernel writes with audit_log_untrustedstring: quoted, or in hex
# when they hold a space, a quote or a control byte.
UNTRUSTED = {"path", "comm", "exe", "ocomm", "name", "cwd", "proctitle"}
FIELD = re.compile(r'([a-z_0-9]+)=("[^"]*"|\S+)')


class Unavailable(Exception):
    """The audit socket cannot be used here; the message says why."""


def _socket(groups=0):
    try:
        s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_AUDIT)
        s.bind((0, groups))
        return s
    except OSError as e:
        raise Unavailable(f"no audit netlink socket (groups {groups}): {e.strerror}") from e


def _messages(data):
    while len(data) >= 16:
        length, kind = struct.unpack("=IH", data[:6])
        if length < 16:
            return
        yield kind, data[16:length]
        data = data[(length + 3) & ~3:]


def _request(s, kind, payload=b""):
    s.send(struct.pack("=IHHII", 16 + len(payload), kind, NLM_F_REQUEST | NLM_F_ACK, 1, 0) +
           payload)


def _answer(s, kind):
    """The body of the answer of type KIND; an NLMSG_ERROR other than an ack raises."""
    end = time.time() + 2
    while time.time() < end:
        if not select.select([s], [], [], 0.2)[0]:
            continue
        for k, body in _messages(s.recv(65536)):
            if k == NLMSG_ERROR:
                err = struct.unpack("=i", body[:4])[0]
                if err:
                    raise Unavailable(f"audit request refused: {os.strerror(-err)}")
                if kind is None:
                    return b""
            elif k == kind:
                return body
    raise Unavailable("no answer from the audit subsystem")


def status():
    s = _socket()
    try:
        _request(s, AUDIT_GET)
        body = _answer(s, AUDIT_GET)
    finally:
        s.close()
    return dict(zip(STATUS_FIELDS, struct.unpack("=8I", body[:32])))


def set_status(**fields):
    """AUDIT_SET the named fields (enabled, backlog_limit) and nothing else."""
    values = dict.fromkeys(STATUS_FIELDS, 0)
    values.update(fields)
    values["mask"] = sum(MASK[k] for k in fields)
    s = _socket()
    try:
        _request(s, AUDIT_SET, struct.pack("=8I", *(values[k] for k in STATUS_FIELDS)))
        _answer(s, None)
    finally:
        s.close()


def _value(key, raw):
    if raw.startswith('"') and raw.endswith('"') and len(raw) >= 2:
        return raw[1:-1]
    if key in UNTRUSTED and raw != "(null)" and re.fullmatch(r"(?:[0-9A-F]{2})+", raw):
        return bytes.fromhex(raw).decode("utf-8", "surrogateescape")
    return raw


def fields(text):
    """The key=value fields of a record's text (after 'audit(...): ')."""
    return {k: _value(k, v) for k, v in FIELD.findall(text)}


class Record:
    __slots__ = ("kind", "serial", "text", "fields", "proc_uid")

    def __init__(self, kind, text):
        self.kind = kind
        stamp, _, rest = text.partition("): ")
        self.serial = stamp.rpartition(":")[2]
        self.text = rest
        self.fields = fields(rest)
        self.proc_uid = None  # SYSCALL records: the owner of /proc/PID when it arrived


class Collector:
    """Every audit record from the moment it is made, kept in arrival order.

    A reading thread drains the socket at once (the kernel drops multicast
    records a full socket buffer cannot take); for each SYSCALL record of an
    event that holds a Landlock denial it notes who owns /proc/PID/status
    right then: the kernel makes a non-dumpable process's /proc entries
    root's (the directory /proc/PID keeps the owner it was first seen with)."""

    def __init__(self):
        self.sock = _socket(AUDIT_NLGRP_READLOG)
        try:
            self.sock.setsockopt(socket.SOL_SOCKET, 33, 32 << 20)  # SO_RCVBUFFORCE
        except OSError:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 32 << 20)
        self.records = []
        self.cond = threading.Condition()
        self.denied_serials = set()
        self.stopping = False
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        while not self.stopping:
            if not select.select([self.sock], [], [], 0.1)[0]:
                continue
            try:
                data = self.sock.recv(1 << 20)
            except OSError:
                continue
            batch = []
            for kind, body in _messages(data):
                r = Record(kind, body.rstrip(b"\0").decode("utf-8", "replace"))
                if kind == AUDIT_LANDLOCK_ACCESS:
                    self.denied_serials.add(r.serial)
                elif kind == AUDIT_SYSCALL and r.serial in self.denied_serials:
                    try:
                        r.proc_uid = os.stat(f"/proc/{r.fields.get('pid')}/status").st_uid
                    except OSError:
                        pass
                batch.append(r)
            with self.cond:
                self.records.extend(batch)
                self.cond.notify_all()

    def close(self):
        self.stopping = True
        self.thread.join()
        self.sock.close()

    def mark(self):
        with self.cond:
            return len(self.records)

    def wait_for(self, start, test, timeout):
        """Wait until TEST(the records from index START on) is true; return it."""
        end = time.time() + timeout
        with self.cond:
            while True:
                if test(self.records[start:]):
                    return True
                left = end - time.time()
                if left <= 0:
                    return False
                self.cond.wait(left)

    def barrier(self, timeout=5):
        """Log a user message and wait for it: the kernel's audit queue is in
        order, so every record logged before it has arrived once it has."""
        token = f"lr-audit-barrier {os.getpid()} {time.monotonic_ns()}"
        start = self.mark()
        s = _socket()
        try:
            s.send(struct.pack("=IHHII", 16 + len(token) + 1, AUDIT_USER, NLM_F_REQUEST, 1, 0) +
                   token.encode() + b"\0")
        finally:
            s.close()
        came = lambda rs: any(r.kind == AUDIT_USER and token in r.text for r in rs)
        if not self.wait_for(start, came, timeout):
            raise Unavailable("the audit barrier message never came back")

    def since(self, start):
        with self.cond:
            return list(self.records[start:])

    def run_records(self, start, pids, settle=5.0):
        """The events from index START on of the domains that PIDS created.

        Waits for each such domain's deallocation (its last process gone),
        at most SETTLE seconds. Returns (events, domains): events maps a
        serial to its records, in order, for each event holding a denial of
        those domains; domains maps each domain id to
        {"pid", "denials" (the kernel's count, None until deallocated), "records"}."""
        self.barrier()
        pids = {str(p) for p in pids}

        def ours():
            found = {}
            for r in self.since(start):
                f = r.fields
                if r.kind == AUDIT_LANDLOCK_DOMAIN and f.get("status") == "allocated" and \
                        f.get("pid") in pids:
                    found[f["domain"]] = {"pid": int(f["pid"]), "denials": None, "records": 0}
            return found

        domains = ours()

        def freed(records):
            gone = {r.fields["domain"] for r in records if r.kind == AUDIT_LANDLOCK_DOMAIN and
                    r.fields.get("status") == "deallocated"}
            return set(domains) <= gone

        if domains:
            self.wait_for(start, freed, settle)
        events = {}
        for r in self.since(start):
            f = r.fields
            if r.kind == AUDIT_LANDLOCK_DOMAIN and f.get("status") == "deallocated" and \
                    f.get("domain") in domains:
                domains[f["domain"]]["denials"] = int(f.get("denials", -1))
            if r.kind == AUDIT_LANDLOCK_ACCESS and f.get("domain") in domains:
                domains[f["domain"]]["records"] += 1
                events.setdefault(r.serial, [])
        for r in self.since(start):
            if r.serial in events:
                events[r.serial].append(r)
        return events, domains
