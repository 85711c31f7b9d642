#!/usr/bin/env python3
"""shell-job.py PIDFILE COMMAND...: run COMMAND as an interactive shell runs a
job: the shell leads a session whose controlling terminal is a new pty, and
COMMAND runs in a process group of its own, made the terminal's foreground
group, with the pty as its stdin, stdout and stderr. Writes the job's pid to
PIDFILE, prints "stopped" or "continued" each time the shell would see the
job do so, and exits with the job's status (128+N for a death by signal N)."""
import fcntl
import os
import signal
import sys
import termios

master, slave = os.openpty()
shell = os.fork()
if shell == 0:
    os.close(master)
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    # A shell ignores the signals that would stop it when it hands the
    # terminal around.
    for sig in (signal.SIGTTOU, signal.SIGTTIN, signal.SIGTSTP):
        signal.signal(sig, signal.SIG_IGN)
    pid = os.fork()
    if pid == 0:
        os.setpgid(0, 0)
        for sig in (signal.SIGTTOU, signal.SIGTTIN, signal.SIGTSTP):
            signal.signal(sig, signal.SIG_DFL)
        for fd in (0, 1, 2):
            os.dup2(slave, fd)
        os.execvp(sys.argv[2], sys.argv[2:])
    try:
        os.setpgid(pid, pid)  # either side may win the race
    except OSError:
        pass
    os.tcsetpgrp(slave, pid)
    with open(sys.argv[1], "w") as f:
        f.write(str(pid))
    while True:
        _, status = os.waitpid(pid, os.WUNTRACED | os.WCONTINUED)
        if os.WIFSTOPPED(status) or os.WIFCONTINUED(status):
            print("stopped" if os.WIFSTOPPED(status) else "continued", flush=True)
            continue
        code = os.waitstatus_to_exitcode(status)
        os._exit(code if code >= 0 else 128 - code)
os.close(slave)
# Drain the pty, so that what the job writes never blocks it.
while True:
    try:
        if not os.read(master, 4096):
            break
    except OSError:
        break
_, status = os.waitpid(shell, 0)
sys.exit(os.waitstatus_to_exitcode(status))
