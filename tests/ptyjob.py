"""The job-control shell that tests/shell-job.py and tests/takeover.py play:
a session whose controlling terminal is a new pty, led by the shell, and a
command as its job."""
import fcntl
import os
import signal
import termios

# What would stop the shell as it hands the terminal around; a job gets
# them back.
STOPS = (signal.SIGTTOU, signal.SIGTTIN, signal.SIGTSTP)


def lead(slave):
    """In the shell's process: a new session whose controlling terminal is
    SLAVE, the stops ignored, as a shell does."""
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    for sig in STOPS:
        signal.signal(sig, signal.SIG_IGN)


def start(slave, command, stdio=None):
    """COMMAND as the shell's job: a process group of its own, made the
    terminal's foreground; descriptors 0-2 are STDIO's three (the pty's when
    None). Returns its pid. Python's own descriptors close on exec."""
    job = os.fork()
    if job == 0:
        os.setpgid(0, 0)
        for sig in STOPS:
            signal.signal(sig, signal.SIG_DFL)
        for fd, to in zip((0, 1, 2), stdio or (slave, slave, slave)):
            os.dup2(to, fd)
        os.execvp(command[0], command)
    try:
        os.setpgid(job, job)  # either side may win the race
    except OSError:
        pass
    os.tcsetpgrp(slave, job)
    return job
