#!/usr/bin/env python3
"""shell-job.py PIDFILE COMMAND...: run COMMAND as an interactive shell runs a
job: the shell leads a session whose controlling terminal is a new pty, and
COMMAND runs in a process group of its own, made the terminal's foreground
group, with the pty as its stdin, stdout and stderr. Writes the job's pid to
PIDFILE, prints "stopped" or "continued" each time the shell would see the
job do so, and exits with the job's status (128+N for a death by signal N)."""
import os
import sys

import ptyjob

master, slave = os.openpty()
shell = os.fork()
if shell == 0:
    os.close(master)
    ptyjob.lead(slave)
    pid = ptyjob.start(slave, sys.argv[2:])
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
