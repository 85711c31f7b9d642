#!/usr/bin/env python3
"""scripts/bench/report.py OUT: turn one make bench run (OUT = build/bench) into
OUT/performance.md (from scripts/bench/performance.md.in), OUT/scaling.dat and
OUT/refs.gp (for scripts/bench/plot.gp), and print the tables and targets.
Run by scripts/bench.sh. The pieces: stats.py (the measurements), tables.py,
targets.py, syscalls.py (strace), perfprof.py (perf)."""

import os
import platform
import statistics
import sys
import time

import perfprof
import tables
import targets
from stats import Run, ms, us, x
from syscalls import Syscalls, fmt_counts

HERE = os.path.dirname(os.path.abspath(__file__))


def machine(run):
    try:
        cpu = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
    except StopIteration:
        cpu = platform.machine()
    vdir = "/sys/devices/system/cpu/vulnerabilities"
    active = sorted({open(f"{vdir}/{v}").read().split(";")[0].strip() for v in os.listdir(vdir)}
                    - {"Not affected"}) if os.path.isdir(vdir) else []
    mitigations = ", ".join(a.split(":", 1)[1].strip() for a in active if a.startswith("Mitigation:"))
    dirty = run.fact("dirty", "0")
    bwrap = run.fact("bwrap_version") if "bwrap" in run.cases["launch"] else "bubblewrap: " + run.fact("bwrap_note")
    method = "; ".join(f"{g}: {rounds} rounds ({warm} warm-up)" for g, (rounds, warm) in run.groups.items())
    return [
        f"- Machine: {cpu}, {os.cpu_count()} CPUs, `uname -r` {platform.release()}, Landlock ABI {run.fact('abi')}",
        f"- CPU mitigations in force (they set the price of every system call): {mitigations or 'none reported'}",
        f"- Load average at start / end: {run.fact('load_start')} / {run.fact('load_end')} "
        f"(other work on the machine adds noise; every ratio is from the same rounds)",
        f"- Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        f"- {run.fact('version')}, commit {run.fact('commit')}"
        + (f" with uncommitted changes in {dirty} launcher source file(s)" if dirty != "0" else ""),
        f"- {bwrap}",
        f"- Method: interleaved single runs (`scripts/bench/rounds.c`, no shell): each round runs every "
        f"case of a group once, in an order rotated by one case each round, so drift and the cost of "
        f"running first fall on every case alike (loops of one command at a time drifted by ±10% here); "
        f"{method}. A figure is the median over the rounds; a ratio is between the medians of the same "
        f"rounds, its spread the interquartile range of that ratio over 20 blocks of consecutive rounds.",
    ]


def reading(run, s, sc):
    """The bullets of "Where the time goes"."""
    launch = "launch"
    cpu = lambda n: statistics.median(run.cpu[launch][n])  # noqa: E731
    d = {n: run.med(launch, n) for n in ("landlock-run", "floor-landlock", "floor")}
    calls = {k: sc.total(f"launch.{k}") for k in ("lr", "fl", "floor")}
    return [
        f"- **Launch.** landlock-run costs {us(d['landlock-run'] - d['floor'])} of wall time "
        f"({us(cpu('landlock-run') - cpu('floor'))} of CPU time) more than the floor per call. Of that, "
        f"{us(d['floor-landlock'] - d['floor'])} ({us(cpu('floor-landlock') - cpu('floor'))} CPU) is what the "
        f"kernel charges for Landlock itself (floor-landlock − floor: the ruleset, three rules, restrict_self, and "
        f"the command's own path walks now checked against the domain) and {us(d['landlock-run'] - d['floor-landlock'])} "
        f"({us(cpu('landlock-run') - cpu('floor-landlock'))} CPU) is the launcher's own (landlock-run − "
        f"floor-landlock: its larger binary to exec, argument checks"
        + sc.sx(f", and {calls['lr']} system calls before the command's execve against floor-landlock's "
                f"{calls['fl']} and the floor's {calls['floor']}") + ")."
        + sc.sx(f"\n  landlock-run: {fmt_counts(sc.sc['launch.lr'])}.\n  floor-landlock: "
                f"{fmt_counts(sc.sc['launch.fl'])}."),
        promises(run),
        tracer_floor(run),
        f"- **Grants.** Each grant costs landlock-run {us(s.per_grant['lr'][10000])} at 10,000 grants and "
        f"floor-landlock {us(s.per_grant['fl'][10000])}; copying the arguments alone (exec of `/bin/true` "
        f"with the same argv) is {us(s.argv_10k / 10000)} of it. "
        + sc.sx(f"Per grant landlock-run makes {sc.per_grant('lr'):.2f} system calls "
                f"({fmt_counts(sc.sc['10k.lr'] - sc.sc['0.lr'], 10000, 6)}); floor-landlock makes "
                f"{sc.per_grant('fl'):.2f} ({fmt_counts(sc.sc['10k.fl'] - sc.sc['0.fl'], 10000, 6)}). ")
        + "The cost stays linear: each rule is a red-black tree insert (O(log n)) in the kernel, "
        "and landlock_restrict_self merges the ruleset into the new domain once.",
        f"- **Duplicates.** The same directory 10,000 times is 10,000 rules on one inode, which the kernel "
        f"unions into one; it costs landlock-run {us(s.dup_lr / 9999)} per duplicate beyond the argv copy, "
        f"against {us(s.dup_fl / 9999)} for floor-landlock"
        + sc.sx(f" ({sc.per_dup():.2f} system calls per duplicate)") + ".",
        f"- **--hide** around `~/.ssh` in a home of {run.fact('hide_home_entries', '?')} entries "
        f"(`{run.fact('hide_home', '?')}`), beneath "
        f"`--ro /`, adds {run.fact('hide_rules', '?')} rules (one per entry of each directory on the way, "
        f"from `/` down to the home, but the one that leads to `.ssh`): "
        f"{ms(run.med('hide', 'hide'))} against {ms(run.med('hide', 'ro-root'))} for `--ro /` alone, "
        f"{x(run.ratio('hide', 'hide', 'ro-root')[0])}"
        + sc.sx(f"; {fmt_counts(sc.sc['hide.lr'] - sc.sc['0.lr'])} system calls more") + ".",
        f"- **--probe** costs {ms(run.med(launch, 'probe'))}: it forks a child that builds a ruleset, restricts "
        f"itself and tries the denied operations" + sc.sx(f"; {sc.total('probe.lr')} system calls in all") + ".",
    ]


def promises(run):
    """The floor of each promise, and what the launcher adds to it."""
    m = {n: run.med("launch", n) for n in ("floor-landlock", "floor-promise", "floor-baseline",
                                             "floor-promise-checks", "floor-baseline-checks",
                                             "landlock-run", "landlock-run-tiocsti")}
    base_floor = run.ratio("launch", "floor-baseline", "floor-promise")[0]
    base_lr = run.ratio("launch", "landlock-run", "landlock-run-tiocsti")[0]
    return (
        f"- **The floor of each promise.** The terminal filter and the capability drop cost the least "
        f"launcher {us(m['floor-promise'] - m['floor-landlock'])} (floor-promise − floor-landlock); the "
        f"baseline's and root's metadata rules {us(m['floor-baseline'] - m['floor-promise'])} more "
        f"(floor-baseline − floor-promise, {x(base_floor)}): that is what the kernel charges any filter "
        f"with these rules, for translating it and running it once per system-call number of every ABI "
        f"to fill its action cache. In landlock-run the same rules cost "
        f"{us(m['landlock-run'] - m['landlock-run-tiocsti'])} ({x(base_lr)}), and the launcher's own work "
        f"beside its filter is {us(m['landlock-run'] - m['floor-baseline'])} over floor-baseline and "
        f"{us(m['landlock-run-tiocsti'] - m['floor-promise'])} over floor-promise with every group allowed. "
        f"Of that, the checks of the two promises every run keeps beside its filter (no terminal shared: "
        f"three TCGETS and an open of /dev/tty; no write grant on, above or in a policy directory: a stat "
        f"per component of their paths, an fstat per write grant and a stat per level up from a directory "
        f"one) cost the least launcher {us(m['floor-baseline-checks'] - m['floor-baseline'])} "
        f"(floor-baseline-checks − floor-baseline) and "
        f"{us(m['floor-promise-checks'] - m['floor-promise'])} with every group allowed; what is left is "
        f"the launcher's own: {us(m['landlock-run'] - m['floor-baseline-checks'])} over "
        f"floor-baseline-checks ({x(run.ratio('launch', 'landlock-run', 'floor-baseline-checks')[0])}) and "
        f"{us(m['landlock-run-tiocsti'] - m['floor-promise-checks'])} over floor-promise-checks "
        f"({x(run.ratio('launch', 'landlock-run-tiocsti', 'floor-promise-checks')[0])})."
        + install_times(run)
    )


REAL = [("tar", "`tar x` of some 800 headers"), ("unzip", "`unzip` of the same tree"),
        ("make", "`make -B` of nine small C files"), ("fail", "a short command that fails with one denial")]


def tracer_floor(run):
    """--explain against floor-trace, the least ptrace tracer that sees the result of
    every call the policy can refuse, on the short real work."""
    rows = []
    for group, label in REAL:
        if f"{group}-floor-trace" not in run.cases.get(group, {}):
            continue
        plain, floor, explain = (run.med(group, f"{group}{k}") for k in ("", "-floor-trace", "-explain"))
        rows.append(f"{label}: confined {ms(plain)}, floor-trace {ms(floor)} "
                    f"({x(run.ratio(group, f'{group}-floor-trace', group)[0])} the confined run), "
                    f"`--explain` {ms(explain)} "
                    f"({x(run.ratio(group, f'{group}-explain', f'{group}-floor-trace')[0])} floor-trace, "
                    f"{us(explain - floor)} more)")
    if not rows:
        return "- **The floor of `--explain`**: not timed in this run (no floor-trace cases)."
    return ("- **The floor of `--explain`.** floor-trace (scripts/bench/floor-trace.c) is floor-baseline-checks "
            "with the least tracer that sees the result of each call the policy can refuse: one fork, "
            "the same calls stopped (two stops for a call Landlock can refuse, one for an ioctl on what is no "
            "device or a change of owner, mode or times of a file the caller owns), one line per refused "
            "call, no policy, no advice. Its ratio to the confined run is what any ptrace `--explain` pays "
            "the kernel: " + "; ".join(rows) + "." + fixed_cost(run))


def fixed_cost(run):
    """What the short failure pays beyond floor-trace, in three parts: the whole-tree mode
    --explain always runs in, the explanation of its one denial (each tracer's cost of the
    denial against the same command with the write granted), and the rest, the tracer's own
    start (its policy, its box, the traced filter of every ABI)."""
    need = ("fail-kill-tree", "granted", "granted-explain", "granted-floor-trace")
    if not all(c in run.cases.get("fail", {}) for c in need):
        return ""
    m = {c: run.med("fail", c) for c in ("fail", "fail-explain", "fail-floor-trace") + need}
    over = m["fail-explain"] - m["fail-floor-trace"]
    tree = m["fail-kill-tree"] - m["fail"]
    told = (m["fail-explain"] - m["granted-explain"]) - (m["fail-floor-trace"] - m["granted-floor-trace"])
    return (f" Of the short failure's {us(over)} over floor-trace, the whole-tree mode that `--explain` "
            f"always runs in (the launcher waits, a supervisor traces and ends the tree, the observer's "
            f"filter) is {us(tree)} (`--kill-tree` − the plain run); explaining the denial (its process, "
            f"path, rule and advice) rather than only seeing it is {us(told)} (each tracer's failing run "
            f"− its run with the write granted, `--explain`'s − floor-trace's); the rest, {us(over - tree - told)}, "
            f"is the tracer's own start (the policy it explains by, its box, the traced filter of every ABI). "
            f"So `--explain` is {x(m['fail-explain'] / (m['fail-floor-trace'] + tree))} floor-trace with the "
            f"whole-tree mode's cost added.")


def install_times(run):
    """The kernel's install of each filter, from strace -T (scripts/bench/strace.sh)."""
    names = [("lr", "landlock-run"), ("lr_tiocsti", "landlock-run with every group"),
             ("floor_baseline", "floor-baseline"), ("floor_promise", "floor-promise")]
    if run.fact("install_note") or not run.fact("install_us_lr"):
        return ""
    return (" The install of the filter alone (`strace -T` of the `seccomp` call, median of 200 launches): "
            + "; ".join(f"{label} {run.fact('install_us_' + k)} µs for {run.fact('filter_len_' + k)} instructions"
                        for k, label in names) + ".")


def main(out):
    run = Run(out)
    s, sc, perf = tables.Scaling(run), Syscalls(run), perfprof.Perf(run)
    s.write_plot_data(out)
    sizes = [(f"build/{a}/landlock-run", int(run.fact(f"size_{a}"))) for a in ("x86_64", "aarch64")]
    sizes.append(("floor (x86_64, for scale)", int(run.fact("size_floor"))))
    parts = {
        "machine": "\n".join(machine(run)),
        "launch": "\n".join(tables.launch(run)),
        "targets": "\n".join(targets.targets(run, s, sc)),
        "scaling": "\n".join(s.table()),
        "others": "".join(f"{t}\n\n" for t in tables.others(run)),
        "sizes": "\n".join(f"| {name} | {n:,} | {n / 1024:.1f} |" for name, n in sizes),
        "reading": "\n".join(reading(run, s, sc) + perf.reading()),
        "strace_n": f"{2 * sc.n:,}",
        "strace": "\n".join(sc.table(f"{2 * sc.n}.lr")),
        "perf": "\n\n".join(perf.sections) if perf.sections else f"No perf profile: {perf.note}",
    }
    doc = open(f"{HERE}/performance.md.in").read().format(**parts)
    open(f"{out}/performance.md", "w").write(doc)
    for key in ("launch", "scaling", "others", "sizes", "reading", "perf", "targets"):
        print(parts[key], end="\n\n")


if __name__ == "__main__":
    main(sys.argv[1])
