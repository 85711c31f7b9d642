"""The measurements of one make bench run (build/bench), as scripts/bench/report.py
reads them: hyperfine's JSON per group and round, the cases and groups timing.sh
ran, the facts the steps recorded, and the number formats of the report."""

import collections
import glob
import json
import statistics


class Run:
    def __init__(self, out):
        self.out = out
        self.facts = dict(l.rstrip("\n").split("=", 1) for l in open(f"{out}/facts") if "=" in l)
        self.groups = {}  # name -> (runs, warmup, rounds), in the order timed
        for line in open(f"{out}/groups.tsv"):
            name, runs, warmup, rounds = line.rstrip("\n").split("\t")
            self.groups[name] = (int(runs), int(warmup), int(rounds))
        self.cases = collections.defaultdict(dict)  # group -> {case: command}
        for line in open(f"{out}/cases.tsv"):
            group, name, command = line.rstrip("\n").split("\t", 2)
            self.cases[group][name] = command
        self.times, self.cpu = {}, {}
        for group in self.groups:
            self.times[group], self.cpu[group] = load(out, group)

    def fact(self, key, default=""):
        return self.facts.get(key, default)

    def med(self, group, name):
        """Median wall time of every run of a case, in seconds."""
        return statistics.median(t for rnd in self.times[group][name] for t in rnd)

    def ratio(self, group, a, b):
        """Pooled-median ratio a/b and the IQR of the per-round ratios."""
        ta, tb = self.times[group][a], self.times[group][b]
        per_round = [statistics.median(x) / statistics.median(y) for x, y in zip(ta, tb)]
        q = statistics.quantiles(per_round, n=4) if len(per_round) > 1 else per_round * 3
        return self.med(group, a) / self.med(group, b), q[0], q[2]

    def cpu_med(self, group, name):
        """Median over rounds of the mean CPU time (user + system) per run."""
        return statistics.median(self.cpu[group][name])

    def cpu_ratio(self, group, a, b):
        """CPU time a/b: median over rounds."""
        return statistics.median(x / y for x, y in zip(self.cpu[group][a], self.cpu[group][b]))

    def cpu_per_grant(self, group, name, base, n):
        """(CPU time of name - CPU time of base) / n, median over rounds."""
        return statistics.median((a - b) / n for a, b in zip(self.cpu[group][name], self.cpu[group][base]))


def load(out, group):
    """name -> list (one per round) of lists of wall times in seconds, and
    name -> list (one per round) of mean CPU time (user + system) per run."""
    runs, cpu = collections.defaultdict(list), collections.defaultdict(list)
    for path in sorted(glob.glob(f"{out}/json/{group}-*.json")):
        for res in json.load(open(path))["results"]:
            runs[res["command"]].append(res["times"])
            cpu[res["command"]].append(res["user"] + res["system"])
    return runs, cpu


def ms(s):
    return f"{s * 1e3:.3f} ms" if s < 0.01 else f"{s * 1e3:.1f} ms"


def us(s):
    return f"{s * 1e6:.1f} µs"


def x(r):
    return f"{r:.3f}×"
