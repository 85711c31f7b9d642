#!/usr/bin/env python3
"""Read Landlock denials from the kernel's audit log, for tests/log.bats.

  audit-watch.py status          print 1 or 0: is audit enabled?
  audit-watch.py enable 1|0      switch audit on or off (AUDIT_SET)
  audit-watch.py run CMD [ARG]...
      run CMD, then print each Landlock denial record (type 1423) that
      CMD's process or a child of it caused, as "denial: <record>" lines
      after CMD's own output; exit with CMD's status.

Records come from the audit netlink socket's read-only multicast group
(root, CAP_AUDIT_READ), so no auditd is needed. A record belongs to CMD
when the SYSCALL record of the same event has CMD's pid as pid or ppid.
Exit 77 when the audit socket cannot be used here (the tests then skip).
"""
import os
import select
import socket
import struct
import subprocess
import sys
import time

NETLINK_AUDIT = 9
AUDIT_GET, AUDIT_SET = 1000, 1001
AUDIT_SYSCALL, AUDIT_LANDLOCK_ACCESS = 1300, 1423
AUDIT_NLGRP_READLOG = 1
AUDIT_STATUS_ENABLED = 1
NLM_F_REQUEST, NLM_F_ACK = 1, 4
NLMSG_ERROR = 2
DRAIN_SECONDS = 0.5


def audit_socket(groups=0):
    try:
        s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_AUDIT)
        s.bind((0, groups))
        return s
    except OSError as e:
        print("audit-watch: no audit socket: %s" % e, file=sys.stderr)
        sys.exit(77)


def messages(data):
    while len(data) >= 16:
        length, kind, _flags, _seq, _pid = struct.unpack("=IHHII", data[:16])
        yield kind, data[16:length]
        data = data[(length + 3) & ~3:]


def request(s, kind, payload=b""):
    s.send(struct.pack("=IHHII", 16 + len(payload), kind, NLM_F_REQUEST | NLM_F_ACK, 1, 0) + payload)


def status():
    s = audit_socket()
    # An unprivileged caller gets only an EPERM ack: do not wait for more.
    s.settimeout(5)
    request(s, AUDIT_GET)
    for _ in range(4):
        for kind, body in messages(s.recv(8192)):
            if kind == AUDIT_GET:
                return struct.unpack("=II", body[:8])[1]
            if kind == NLMSG_ERROR and struct.unpack("=i", body[:4])[0] != 0:
                sys.exit("audit-watch: AUDIT_GET failed: %s" % os.strerror(-struct.unpack("=i", body[:4])[0]))
    sys.exit("audit-watch: no answer to AUDIT_GET")


def enable(on):
    s = audit_socket()
    # struct audit_status: mask, enabled, then fields the mask leaves alone
    request(s, AUDIT_SET, struct.pack("=8I", AUDIT_STATUS_ENABLED, on, 0, 0, 0, 0, 0, 0))
    for kind, body in messages(s.recv(8192)):
        if kind == NLMSG_ERROR and struct.unpack("=i", body[:4])[0] != 0:
            sys.exit("audit-watch: AUDIT_SET failed: %s" % os.strerror(-struct.unpack("=i", body[:4])[0]))


def field(record, name):
    for word in record.split():
        if word.startswith(name + "="):
            return word[len(name) + 1:]
    return None


def run(argv):
    s = audit_socket(AUDIT_NLGRP_READLOG)
    child = subprocess.Popen(argv)
    rc = child.wait()
    events = {}  # audit serial -> records
    end = time.time() + DRAIN_SECONDS
    while time.time() < end:
        ready, _, _ = select.select([s], [], [], 0.05)
        if ready:
            for kind, body in messages(s.recv(65536)):
                text = body.rstrip(b"\0").decode(errors="replace")
                serial = text.split(")", 1)[0]
                events.setdefault(serial, []).append((kind, text))
    sys.stdout.flush()
    pid = str(child.pid)
    for records in events.values():
        ours = any(kind == AUDIT_SYSCALL and pid in (field(t, "pid"), field(t, "ppid"))
                   for kind, t in records)
        for kind, text in records:
            if ours and kind == AUDIT_LANDLOCK_ACCESS:
                print("denial: " + text.split(": ", 1)[-1])
    return rc


def main():
    args = sys.argv[1:]
    if args == ["status"]:
        print(status())
    elif len(args) == 2 and args[0] == "enable" and args[1] in ("0", "1"):
        enable(int(args[1]))
    elif len(args) >= 2 and args[0] == "run":
        sys.exit(run(args[1:]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
