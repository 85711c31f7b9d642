"""The measurements of one make bench run (build/bench), as scripts/bench/report.py
reads them: the runs of each group (scripts/bench/rounds.c: every case once per
round), the cases and groups timing.sh ran, the facts the steps recorded, and the
number formats of the report."""

import collections
import statistics


BLOCKS = 20  # a ratio's spread: over this many blocks of consecutive rounds


class Run:
    def __init__(self, out):
        self.out = out
        self.facts = dict(l.rstrip("\n").split("=", 1) for l in open(f"{out}/facts") if "=" in l)
        self.groups = {}  # name -> (rounds, warmup), in the order timed
        for line in open(f"{out}/groups.tsv"):
            name, rounds, warmup = line.rstrip("\n").split("\t")
            self.groups[name] = (int(rounds), int(warmup))
        self.cases = collections.defaultdict(dict)  # group -> {case: command}
        for line in open(f"{out}/cases.tsv"):
            group, name, command = line.rstrip("\n").split("\t", 2)
            self.cases[group][name] = command
        self.times, self.cpu = {}, {}
        for group in self.groups:
            self.times[group], self.cpu[group] = load(out, group)

    def fact(self, key, default=""):
        return self.facts.get(key, default)

    def rounds(self, group):
        return self.groups[group][0]

    def med(self, group, name):
        """Median wall time over the rounds (one run each), in seconds."""
        return statistics.median(self.times[group][name])

    def ratio(self, group, a, b):
        """The ratio of the medians a/b over the same rounds, and the interquartile
        range of that ratio over BLOCKS blocks of consecutive rounds."""
        ta, tb = self.times[group][a], self.times[group][b]
        size = max(1, len(ta) // BLOCKS)
        blocks = [statistics.median(ta[i:i + size]) / statistics.median(tb[i:i + size])
                  for i in range(0, len(ta) - size + 1, size)]
        q = statistics.quantiles(blocks, n=4) if len(blocks) > 1 else blocks * 3
        return self.med(group, a) / self.med(group, b), q[0], q[2]

    def cpu_med(self, group, name):
        """Median CPU time (user + system of the run's tree) over the rounds."""
        return statistics.median(self.cpu[group][name])

    def cpu_ratio(self, group, a, b):
        """CPU time a/b: the ratio of the medians."""
        return self.cpu_med(group, a) / self.cpu_med(group, b)

    def cpu_per_grant(self, group, name, base, n):
        """(CPU time of name - CPU time of base) / n, at the medians."""
        return (self.cpu_med(group, name) - self.cpu_med(group, base)) / n


def load(out, group):
    """name -> wall times in seconds, and name -> CPU times in seconds, one per
    round in round order (scripts/bench/rounds.c's OUT)."""
    runs, cpu = collections.defaultdict(list), collections.defaultdict(list)
    for line in open(f"{out}/runs/{group}.tsv"):
        _, name, wall_ns, cpu_us = line.rstrip("\n").split("\t")
        runs[name].append(int(wall_ns) / 1e9)
        cpu[name].append(int(cpu_us) / 1e6)
    return runs, cpu


def ms(s):
    return f"{s * 1e3:.3f} ms" if s < 0.01 else f"{s * 1e3:.1f} ms"


def us(s):
    return f"{s * 1e6:.1f} µs"


def x(r):
    return f"{r:.3f}×"
