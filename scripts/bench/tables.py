"""The timing tables of docs/performance.md, for scripts/bench/report.py: launch,
scaling with the number of grants, and one generic table per other group of
scripts/bench/cases.sh; plus the data gnuplot draws (scaling.dat, refs.gp)."""

import os

from stats import ms, us, x

GRANTS = [1, 10, 100, 1000, 10000]  # the scaling cases lr-N, fl-N (0: --ro / alone)
TABLED = ("launch", "small", "big")  # groups with a table of their own below

LAUNCH_ROWS = [
    ("true", "`/bin/true`, bare (dynamic, glibc)"),
    ("floor", "floor: static exec-only wrapper → `/bin/true`"),
    ("floor-landlock", "floor-landlock: floor + the bare Landlock syscalls, same grants → `/bin/true`"),
    ("floor-seccomp", "floor-seccomp: floor-landlock + a one-instruction seccomp filter → `/bin/true`"),
    ("floor-promise", "floor-promise: floor-landlock + the terminal filter + the capability drop → `/bin/true`"),
    ("floor-baseline", "floor-baseline: floor-promise + the baseline's and root's metadata rules → `/bin/true`"),
    ("floor-promise-checks", "floor-promise-checks: floor-promise + the terminal's and the policy directories' checks → `/bin/true`"),
    ("floor-baseline-checks", "floor-baseline-checks: floor-baseline + the same checks → `/bin/true`"),
    ("landlock-run", "**`landlock-run --ro / --rw /tmp --rw /dev/null -- /bin/true`**"),
    ("landlock-run-keep-caps", "the same with `--keep-caps` (as root: no capability drop)"),
    ("landlock-run-tiocsti", "the same with every `--allow-syscalls` group: only the TIOCSTI filter's rules"),
    ("landlock-run-kill-tree", "the same with `--kill-tree` (the whole-tree mode: the launcher and a supervisor stay)"),
    ("landlock-run-private-tmp", "`--ro / --private-tmp --rw /dev/null` (a private /tmp made, granted, removed)"),
    ("landlock-run-no-unix", "the same with `--no-unix` (AF_UNIX sockets refused but socketpair)"),
    ("bwrap", "`bwrap --ro-bind / / --dev /dev --proc /proc -- /bin/true`"),
    ("probe", "`landlock-run --probe` (forks a self-test child)"),
]
MODE_ROWS = [
    ("landlock-run-kill-tree", "`--kill-tree`: the launcher waits, a supervisor forks the command and ends its tree"),
    ("landlock-run-private-tmp", "`--private-tmp` in place of `--rw /tmp`: a directory made, granted and removed"),
    ("landlock-run-no-unix", "`--no-unix`: the filter's rules on `socket` and `socketpair`"),
]
NOOP_ROWS = [
    ("noop", "static no-op, bare"),
    ("floor-noop", "floor → static no-op"),
    ("landlock-run-noop", "`landlock-run --ro / --rw /tmp --rw /dev/null --` static no-op"),
]


def launch(run):
    rows = [
        "| command | median | vs floor (IQR over rounds) | vs `/bin/true` | CPU time vs floor |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, label in LAUNCH_ROWS:
        if name not in run.cases["launch"]:
            continue
        r, lo, hi = run.ratio("launch", name, "floor")
        rows.append(f"| {label} | {ms(run.med('launch', name))} | {x(r)} ({lo:.3f}–{hi:.3f}) | "
                    f"{x(run.ratio('launch', name, 'true')[0])} | {x(run.cpu_ratio('launch', name, 'floor'))} |")
    rows += ["", "The modes against the plain run (the bold row), from the same rounds:", "",
             "| mode | vs the plain run (IQR over rounds) | more than it |", "|---|---:|---:|"]
    for name, label in MODE_ROWS:
        if name in run.cases["launch"]:
            r, lo, hi = run.ratio("launch", name, "landlock-run")
            rows.append(f"| {label} | {x(r)} ({lo:.3f}–{hi:.3f}) | "
                        f"{us(run.med('launch', name) - run.med('launch', 'landlock-run'))} |")
    rows += [
        "",
        "CPU time = user + system time of the process tree, median over rounds: less disturbed by",
        "other load than wall time, but the targets are read on wall time.",
        "",
        "The same launchers with a static no-op command (`floor` without arguments), where the",
        "launcher's own cost is a larger share:",
        "",
        "| command | median | vs floor → no-op |",
        "|---|---:|---:|",
    ]
    for name, label in NOOP_ROWS:
        r, lo, hi = run.ratio("launch", name, "floor-noop")
        rows.append(f"| {label} | {ms(run.med('launch', name))} | {x(r)} ({lo:.3f}–{hi:.3f}) |")
    return rows


class Scaling:
    """Time and cost per grant of landlock-run (lr) and floor-landlock (fl)."""

    def __init__(self, run):
        self.run = run
        self.per_grant = {k: {n: (self.t(k, n) - self.base(k, n)) / n for n in GRANTS} for k in ("lr", "fl")}
        self.cpu_grant = {k: {n: run.cpu_per_grant(self.group(n), f"{k}-{n}", f"{k}-0", n) for n in GRANTS}
                          for k in ("lr", "fl")}
        true = run.med("big", "true")
        self.argv_10k = run.med("big", "argv-10000") - true
        argv_dup = run.med("big", "argv-dup") - true
        self.dup_lr = run.med("big", "lr-dup") - run.med("big", "lr-1") - argv_dup
        self.dup_fl = run.med("big", "fl-dup") - run.med("big", "lr-1") - argv_dup
        self.distinct_lr = run.med("big", "lr-10000") - run.med("big", "lr-1") - self.argv_10k

    @staticmethod
    def group(n):
        return "big" if n == 10000 else "small"

    def t(self, kind, n):
        return self.run.med(self.group(n), f"{kind}-{n}")

    def base(self, kind, n):
        """--ro / alone, from the same rounds as n grants."""
        return self.run.med(self.group(n), f"{kind}-0")

    def table(self):
        run, pg, cg = self.run, self.per_grant, self.cpu_grant
        rows = [
            "| grants besides `--ro /` | landlock-run | per grant | per grant, CPU | floor-landlock | per grant | "
            "per grant, CPU | landlock-run / floor-landlock |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|",
            f"| 0 | {ms(run.med('small', 'lr-0'))} | | | {ms(run.med('small', 'fl-0'))} | | | "
            f"{x(run.ratio('small', 'lr-0', 'fl-0')[0])} |",
        ]
        for n in GRANTS:
            rows.append(
                f"| {n:,} distinct | {ms(self.t('lr', n))} | {us(pg['lr'][n])} | {us(cg['lr'][n])} | "
                f"{ms(self.t('fl', n))} | {us(pg['fl'][n])} | {us(cg['fl'][n])} | "
                f"{x(run.ratio(self.group(n), f'lr-{n}', f'fl-{n}')[0])} |")
        dup = {k: (run.med("big", f"{k}-dup") - run.med("big", f"{k}-0")) / 10000 for k in ("lr", "fl")}
        rows += [
            f"| 10,000 × the same directory | {ms(run.med('big', 'lr-dup'))} | {us(dup['lr'])} | | "
            f"{ms(run.med('big', 'fl-dup'))} | {us(dup['fl'])} | | {x(run.ratio('big', 'lr-dup', 'fl-dup')[0])} |",
            f"| argv only: `/bin/true` + the 10,000 distinct grants' arguments | {ms(run.med('big', 'argv-10000'))} | "
            f"{us(self.argv_10k / 10000)} | | | | | |",
        ]
        return rows

    def write_plot_data(self, out):
        run = self.run
        with open(f"{out}/scaling.dat", "w") as f:
            f.write("# grants landlock-run_ms floor-landlock_ms lr_per_grant_us fl_per_grant_us\n")
            for n in GRANTS:
                f.write(f"{n} {self.t('lr', n) * 1e3:.4f} {self.t('fl', n) * 1e3:.4f} "
                        f"{self.per_grant['lr'][n] * 1e6:.3f} {self.per_grant['fl'][n] * 1e6:.3f}\n")
        bwrap = run.med("launch", "bwrap") * 1e3 if "bwrap" in run.cases["launch"] else -1
        with open(f"{out}/refs.gp", "w") as f:
            f.write(f"floor_ms = {run.med('launch', 'floor') * 1e3:.4f}\n")
            f.write(f"true_ms = {run.med('launch', 'true') * 1e3:.4f}\n")
            f.write(f"lr0_ms = {run.med('small', 'lr-0') * 1e3:.4f}\n")
            f.write(f"bwrap_ms = {bwrap:.4f}\n")


def others(run):
    """A section per group without a table of its own ("## GROUP"): each case
    against the group's first."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(run.out)))
    sections = []
    for group, cases in run.cases.items():
        if group in TABLED:
            continue
        names = list(cases)
        rows = [f"## {group}", "", f"| case | command | median | vs `{names[0]}` (IQR over rounds) |",
                "|---|---|---:|---:|"]
        for name in names:
            r, lo, hi = run.ratio(group, name, names[0])
            command = cases[name].replace(f"{root}/build/bench/", "").replace(f"{root}/", "")
            words = command.split(" ")
            if len(words) > 24:  # floor-hide's grants: the first and a count
                grants = words[:-2].count("--ro")
                command = " ".join(words[:5] + [f"… ({grants:,} grants in all)"] + words[-2:])
            rows.append(f"| {name} | `{command}` | {ms(run.med(group, name))} | {x(r)} ({lo:.3f}–{hi:.3f}) |")
        sections.append("\n".join(rows))
    return sections
