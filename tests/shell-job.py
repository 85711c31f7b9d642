#!/usr/bin/env python3
"""shell-job.py PIDFILE COMMAND...: run COMMAND as a shell runs a job: in a
process group of its own, in this session, with this process (the shell)
outside the group, so the kernel does not discard stop signals as it does
for an orphaned group. Writes the job's pid to PIDFILE, prints "stopped" or
"continued" each time the shell would see the job do so, and exits with the
job's status (128+N for a death by signal N)."""
import os
import sys

pid = os.fork()
if pid == 0:
    os.setpgid(0, 0)
    os.execvp(sys.argv[2], sys.argv[2:])
try:
    os.setpgid(pid, pid)  # either side may win the race
except OSError:
    pass
with open(sys.argv[1], "w") as f:
    f.write(str(pid))
while True:
    _, status = os.waitpid(pid, os.WUNTRACED | os.WCONTINUED)
    if os.WIFSTOPPED(status) or os.WIFCONTINUED(status):
        print("stopped" if os.WIFSTOPPED(status) else "continued", flush=True)
        continue
    code = os.waitstatus_to_exitcode(status)
    sys.exit(code if code >= 0 else 128 - code)
