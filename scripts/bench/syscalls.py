"""System call counts from scripts/bench/strace.sh's traces, for
scripts/bench/report.py. Without strace (a fact says why) every count is empty
and the text that would quote one is left out."""

import collections
import re


class Syscalls:
    def __init__(self, run):
        self.out = run.out
        self.note = run.fact("strace_note")
        self.ok = not self.note
        self.n = int(run.fact("strace_n", "0") or 0)
        self.sc = {k: self.trace(k) for k in
                   ("launch.lr", "launch.fl", "launch.floor", "0.lr", "0.fl", "10k.lr", "10k.fl", "dup.lr",
                         "hide.lr")}
        self.sc["probe.lr"] = self.trace("probe.lr", stop_at_second_execve=False)

    def trace(self, name, stop_at_second_execve=True):
        """name -> Counter of system calls in strace -f's log, up to the command's
        own execve (the second one) unless told otherwise."""
        counts, execs = collections.Counter(), 0
        if not self.ok:
            return counts
        for line in open(f"{self.out}/strace-{name}"):
            m = re.match(r"^(?:\d+\s+)?(\w+)\(", line)
            if not m or "resumed>" in line:
                continue
            if m.group(1) == "execve":
                execs += 1
                if execs == 2 and stop_at_second_execve:
                    break
            counts[m.group(1)] += 1
        return counts

    def total(self, name):
        return sum(self.sc[name].values())

    def per_grant(self, kind):
        """System calls per grant from the full traces: (10,000 grants - none) / 10,000."""
        return (self.total(f"10k.{kind}") - self.total(f"0.{kind}")) / 10000

    def per_dup(self):
        return (self.total("dup.lr") - self.total("0.lr")) / 10000

    def counted(self, name):
        """The total of strace -c -f's table for a run (its "total" line)."""
        for line in open(f"{self.out}/strace-c-{name}"):
            f = line.split()
            if f and f[-1] == "total":
                return int(f[3])
        raise ValueError(f"no total in strace-c-{name}")

    def slope(self, kind):
        """strace -c -f at N and 2N grants: system calls per grant beyond a fixed start-up."""
        return (self.counted(f"{2 * self.n}.{kind}") - self.counted(f"{self.n}.{kind}")) / self.n

    def table(self, name, lines=9):
        """The first lines of strace -c -f's table for a run, or why there is none."""
        if not self.ok:
            return [self.note]
        return [l for l in open(f"{self.out}/strace-c-{name}").read().splitlines() if l.strip()][:lines]

    def sx(self, text):
        """Text that quotes strace's counts: dropped when strace could not run."""
        return text if self.ok else ""


def fmt_counts(c, scale=1, top=None):
    items = sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    return ", ".join(f"{name} {round(n / scale, 2):g}" for name, n in items)
