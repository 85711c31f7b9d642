#!/usr/bin/env python3
"""Read Landlock denials from the kernel's audit log, for tests/log.bats.

  audit-watch.py status          print 1 or 0: is audit enabled?
  audit-watch.py enable 1|0      switch audit on or off (AUDIT_SET)
  audit-watch.py run CMD [ARG]...
      run CMD, then print each Landlock denial record (type 1423) that
      CMD's process or a child of it caused, as "denial: <record>" lines
      after CMD's own output; exit with CMD's status.

The records come through tests/audit/auditlog.py (the audit netlink
socket's read-only multicast group: root, CAP_AUDIT_READ, no auditd). A
record belongs to CMD when the SYSCALL record of the same event has CMD's
pid as pid or ppid. Exit 77 when the audit socket cannot be used here (the
tests then skip).
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "audit"))
import auditlog  # noqa: E402


def run(argv):
    collector = auditlog.Collector()
    try:
        start = collector.mark()
        child = subprocess.Popen(argv)
        rc = child.wait()
        collector.barrier()
        records = collector.since(start)
    finally:
        collector.close()
    sys.stdout.flush()
    pid = str(child.pid)
    ours = {r.serial for r in records if r.kind == auditlog.AUDIT_SYSCALL and
            pid in (r.fields.get("pid"), r.fields.get("ppid"))}
    for r in records:
        if r.serial in ours and r.kind == auditlog.AUDIT_LANDLOCK_ACCESS:
            print("denial: " + r.text)
    return rc


def main():
    args = sys.argv[1:]
    try:
        if args == ["status"]:
            print(auditlog.status()["enabled"])
        elif len(args) == 2 and args[0] == "enable" and args[1] in ("0", "1"):
            auditlog.set_status(enabled=int(args[1]))
        elif len(args) >= 2 and args[0] == "run":
            sys.exit(run(args[1:]))
        else:
            sys.exit(__doc__)
    except auditlog.Unavailable as e:
        print(f"audit-watch: {e}", file=sys.stderr)
        sys.exit(77)


if __name__ == "__main__":
    main()
