"""The targets of docs/performance.md, for scripts/bench/report.py: each MET or
NOT MET with the numbers behind it. A target is a figure, never a failure of
make bench."""

import statistics

from stats import ms, us, x
from tables import GRANTS


# Two cases of one group (scripts/bench/cases.sh), from the same rounds:
# (group, case, baseline, case/baseline at most, what the target is).
RATIOS = [
    ("launch", "landlock-run", "floor", 1.03, "launch within 3% of the floor (exec-only) at the median"),
    ("launch", "landlock-run", "floor-landlock", 1.03,
     "launch within 3% of floor-landlock (the floor plus the Landlock syscalls) "
     "at the median"),
    ("small", "lr-1000", "fl-1000", 1.05, "1,000 directory grants within 1.05× of floor-landlock"),
    ("launch", "landlock-run", "floor-landlock", 1.05,
     "launch with the TIOCSTI filter and root's capability drop within 1.05× of floor-landlock, "
     "so a run without --explain pays nothing for it"),
    ("launch", "landlock-run", "floor-baseline", 1.03,
     "launch within 1.03× of floor-baseline, the least that keeps a default run's promises as root "
     "(Landlock, the terminal filter, the baseline's and the metadata rules, the capability drop)"),
    ("launch", "landlock-run-tiocsti", "floor-promise", 1.03,
     "with every `--allow-syscalls` group, launch within 1.03× of floor-promise, the least that keeps "
     "that run's promises (Landlock, the terminal filter, the capability drop)"),
    ("launch", "landlock-run", "floor-baseline-checks", 1.03,
     "launch within 1.03× of floor-baseline-checks, floor-baseline with the checks of the two promises "
     "every run keeps beside its filter (no terminal shared; no write grant on, above or in a policy "
     "directory)"),
    ("launch", "landlock-run-tiocsti", "floor-promise-checks", 1.03,
     "with every `--allow-syscalls` group, launch within 1.03× of floor-promise-checks, floor-promise "
     "with the same checks"),
    ("launch", "landlock-run-keep-caps", "floor-seccomp", 1.03,
     "without the capability drop, launch within 3% of floor-seccomp (the Landlock floor plus a filter)"),
    ("compile", "compile-explain", "compile", 1.05,
     "--explain on a gcc compile of a 1,000-line C file within 1.05× of the same confined run"),
    ("find", "find-explain", "find", 1.15,
     "--explain on `find /usr -xdev` under `--ro /` within 1.15× of the same confined run ("
     "under --ro / read-only opens need not stop)"),
    ("build", "build-explain", "build", 1.05,
     "--explain on a zlib-sized `./configure && make -j2` within 1.05× of the same confined run"),
    ("tar", "tar-explain", "tar", 1.05,
     "--explain on `tar x` of some 800 headers within 1.05× of the same confined run"),
    ("unzip", "unzip-explain", "unzip", 1.05,
     "--explain on `unzip` of the same tree within 1.05× of the same confined run"),
    ("make", "make-explain", "make", 1.05,
     "--explain on `make -B` of nine small C files within 1.05× of the same confined run"),
    ("fail", "fail-explain", "fail", 1.05,
     "--explain on a short command that fails with one denial within 1.05× of the same confined run"),
    ("tar", "tar-explain", "tar-floor-trace", 1.05,
     "--explain on `tar x` within 1.05× of floor-trace, the least tracer that sees the result of each call "
     "the policy can refuse"),
    ("unzip", "unzip-explain", "unzip-floor-trace", 1.05,
     "--explain on `unzip` within 1.05× of floor-trace"),
    ("make", "make-explain", "make-floor-trace", 1.05,
     "--explain on `make -B` within 1.05× of floor-trace"),
    ("fail", "fail-explain", "fail-floor-trace", 1.05,
     "--explain on the short failing command within 1.05× of floor-trace"),
    ("compile", "compile-explain", "compile", 1.5,
     "--explain on a gcc compile of a 1,000-line C file within 1.5× of the same confined run"),
    ("launch", "landlock-run", "landlock-run-tiocsti", 1.05,
     "launch with the system-call baseline (and root's metadata rules) within 1.05× of the same launcher "
     "with only the TIOCSTI filter, every group allowed: the baseline's marginal cost"),
    ("filter", "find-xdev", "find-xdev-tiocsti", 1.01,
     "`find /usr -xdev` under the baseline within 1.01× of the same with only the TIOCSTI filter: the "
     "kernel's seccomp action cache answers the calls without a rule"),
    ("compile", "compile", "compile-tiocsti", 1.01,
     "the gcc compile under the baseline within 1.01× of the same with only the TIOCSTI filter"),
    ("compile", "compile-kill-tree", "compile", 1.01,
     "the gcc compile in the whole-tree mode within 1.01× of the plain run: the supervisor costs its launch, "
     "nothing while the command runs"),
]
MAX_CALLS_PER_GRANT = 2.1  # strace -c -f, beyond a fixed start-up
MAX_HIDE = 1.5  # --ro / --hide ~/.ssh against --ro / at launch, a home of 200 entries


def verdict(ok, what, numbers):
    return f"- {'MET' if ok else 'NOT MET'}: {what}: {numbers}"


def ratio_target(run, group, case, base, most, what):
    r, lo, hi = run.ratio(group, case, base)
    return verdict(r <= most, what,
                   f"{case}/{base} = {r:.3f} (IQR over {run.rounds(group)} rounds in blocks {lo:.3f}–{hi:.3f}); "
                   f"{us(run.med(group, case) - run.med(group, base))} over {base}'s {ms(run.med(group, base))}; "
                   f"CPU time ratio {run.cpu_ratio(group, case, base):.3f}")


def spread_of(values):
    return max(values) / min(values) if min(values) > 0 else float("inf")  # inf: lost in the noise


def flat(scaling):
    pg, cg = scaling.per_grant["lr"], scaling.cpu_grant["lr"]
    spread = spread_of([pg[n] for n in GRANTS if n >= 10])
    cpu_spread = spread_of([cg[n] for n in GRANTS if n >= 10])
    note = ""
    if spread > 2 and cpu_spread <= 2:
        note = " — on CPU time it is flat, so the wall-time spread is other load on the machine: rerun when it is quiet"
    return verdict(spread <= 2, "per-grant cost flat from 10 to 10,000 (largest/smallest ≤ 2, wall-time medians)",
                   ", ".join(f"{n:,}: {us(pg[n])}" for n in GRANTS if n >= 10) + f" (largest/smallest {spread:.2f}); "
                   "CPU time: " + ", ".join(f"{n:,}: {us(cg[n])}" for n in GRANTS if n >= 10)
                   + f" ({cpu_spread:.2f}){note}")


def calls_per_grant(sc):
    what = (f"at most {MAX_CALLS_PER_GRANT} system calls per directory grant beyond a fixed start-up "
            f"(`strace -c -f`, {sc.n:,} against {2 * sc.n:,} grants)")
    if not sc.ok:
        return verdict(False, what, sc.note)
    lr, fl = sc.slope("lr"), sc.slope("fl")
    return verdict(lr <= MAX_CALLS_PER_GRANT, what,
                   f"landlock-run {lr:.3f} ({sc.counted(f'{sc.n}.lr'):,} and {sc.counted(f'{2 * sc.n}.lr'):,} "
                   f"calls in all), floor-landlock {fl:.3f}")


def nofile(run):
    rc, err = run.fact("nofile64_rc", "?"), run.fact("nofile64_err")
    return verdict(rc == "0", "10,000 grants work under `prlimit --nofile=64:64`",
                   "exit 0" if rc == "0" else f"exit {rc}: {err or 'no message'}")


def hide(run, sc):
    rules, entries = run.fact("hide_rules", "?"), run.fact("hide_home_entries", "?")
    return ratio_target(run, "hide", "hide", "ro-root", MAX_HIDE,
                        f"`--ro / --hide ~/.ssh` with a home of {entries} entries within {MAX_HIDE}× of `--ro /` at "
                        f"launch: the walk adds {rules} rules"
                        + sc.sx(f", {sc.total('hide.lr') - sc.total('0.lr')} system calls more before the "
                                f"command's execve"))


def targets(run, scaling, sc):
    out = [ratio_target(run, *t) for t in RATIOS]
    out.append(hide(run, sc))
    out.append(flat(scaling))
    out.append(calls_per_grant(sc))
    out.append(nofile(run))
    probe = run.med("launch", "probe")
    out.append(verdict(probe < 0.001, "`--probe` under 1 ms",
                       f"{ms(probe)} at the median (CPU time {ms(statistics.median(run.cpu['launch']['probe']))}), "
                       f"{x(run.ratio('launch', 'probe', 'true')[0])} `/bin/true`"
                       + sc.sx(f", {sc.total('probe.lr')} system calls (parent and child)")))
    size_x86, size_arm = int(run.fact("size_x86_64")), int(run.fact("size_aarch64"))
    budget, target = int(run.fact("size_budget_x86_64")), int(run.fact("size_target_x86_64"))
    out.append(verdict(size_x86 <= target, f"x86_64 binary within {target / 1024:.0f} KiB ("
                       "SIZE_TARGET in platform/linux-x64.env)",
                       f"{size_x86:,} bytes ({size_x86 / 1024:.1f} KiB), the gate (SIZE_BUDGET) "
                       f"{budget / 1024:.0f} KiB; aarch64 {size_arm:,} bytes ({size_arm / 1024:.1f} KiB)"))
    return out
