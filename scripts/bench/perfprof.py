"""Where the CPU time goes, from scripts/bench/perf.sh's samples, for
scripts/bench/report.py: per run, the CPU µs of the launcher process by where the
samples fall (a system call, page faults, entering and leaving the kernel, the
launcher's own code), its functions, and the functions that took page faults."""

import collections
import os
import re

PERF_HZ = 20000  # perf record -F in scripts/bench/perf.sh
AFTER_SYSCALL = "user: address right after a syscall instruction (entering/leaving the kernel)"
ENTRY = "kernel: system call entry/exit (mitigations, audit)"
KERNEL_ENTRY = ("entry_SYSCALL", "syscall_", "do_syscall", "el0_svc", "audit", "__audit")


def sites(out, binary):
    """The addresses right after a system call instruction in binary (perf.sh)."""
    path = f"{out}/sites-{binary}"
    return {int(a, 16) for a in open(path).read().split()} if os.path.exists(path) else set()


def kernel_category(frames, user):
    """The category of a kernel sample, and the user function of a page fault."""
    sysname = None
    for _, s, _ in frames:
        m = re.match(r"^__(?:x64|arm64|se|do)_sys_(\w+)", s)
        if m:
            sysname = m.group(1)
    if any("page_fault" in s for _, s, _ in frames) and not sysname:
        return "kernel: page faults", user[0][1] if user else "?"
    if sysname:
        return f"kernel: {'open/openat' if sysname in ('open', 'openat') else sysname}(2)", None
    if any(s.startswith(KERNEL_ENTRY) for _, s, _ in frames):
        return ENTRY, None
    return "kernel: other (scheduling, interrupts)", None


def profile(out, name, comm, runs):
    """(categories, functions, faulting functions), each CPU µs per run, of the
    samples of process comm in perf-name.txt; None when there is no such file."""
    path = f"{out}/perf-{name}.txt"
    if not os.path.exists(path):
        return None
    known = {}
    cats, funcs, faults = collections.Counter(), collections.Counter(), collections.Counter()
    for block in open(path).read().split("\n\n"):
        lines = block.strip().splitlines()
        if not lines or lines[0].split()[0] != comm:
            continue
        frames = []
        for l in lines[1:]:
            m = re.match(r"\s*([0-9a-f]+) (.*) \((.*)\)$", l)
            if m:
                frames.append((int(m.group(1), 16), m.group(2).split("+")[0], m.group(3)))
        if not frames:
            continue
        ip, sym, dso = frames[0]
        if "kernel" in dso:
            cat, fault = kernel_category(frames, [f for f in frames if "kernel" not in f[2]])
            cats[cat] += 1
            if fault:
                faults[fault] += 1
            continue
        base = os.path.basename(dso)
        if base not in known:
            known[base] = sites(out, base)
        if ip in known[base]:
            cats[AFTER_SYSCALL] += 1
        else:
            cats["user: launcher code"] += 1
            funcs[sym] += 1
    scale = 1e6 / PERF_HZ / runs
    return tuple({k: n * scale for k, n in c.items()} for c in (cats, funcs, faults))


def top(d, k=4, unit="µs"):
    return ", ".join(f"{f} {v:.1f} {unit}" for f, v in sorted(d.items(), key=lambda kv: -kv[1])[:k])


class Perf:
    """The perf tables of the report (sections) and the figures its text quotes."""

    def __init__(self, run):
        self.note = run.fact("perf_note")
        self.sections, self.launch, self.grants, self.probe = [], None, None, None
        if self.note:
            return
        o = run.out
        floor, fl, lr = (profile(o, "launch-floor", "floor", 1000), profile(o, "launch-fl", "floor-landlock", 1000),
                         profile(o, "launch-lr", "landlock-run", 1000))
        f10, l10 = profile(o, "10k-fl", "floor-landlock", 10), profile(o, "10k-lr", "landlock-run", 10)
        if all((floor, fl, lr, f10, l10)):
            self.launch_section(floor[0], fl[0], lr)
            self.grants_section(f10[0], l10[0])
        probe = profile(o, "probe", "landlock-run", 500)
        if probe:
            self.probe_section(probe[0])

    def launch_section(self, fl0, fl1, lr):
        lr1 = lr[0]
        rows = ["| where (CPU µs per call) | floor | floor-landlock | landlock-run | landlock-run − floor |",
                "|---|---:|---:|---:|---:|"]
        for c in sorted(set(fl0) | set(fl1) | set(lr1), key=lambda c: -lr1.get(c, 0)):
            rows.append(f"| {c} | {fl0.get(c, 0):.1f} | {fl1.get(c, 0):.1f} | {lr1.get(c, 0):.1f} | "
                        f"{lr1.get(c, 0) - fl0.get(c, 0):+.1f} |")
        tot = [sum(d.values()) for d in (fl0, fl1, lr1)]
        rows.append(f"| **total** | {tot[0]:.1f} | {tot[1]:.1f} | {tot[2]:.1f} | {tot[2] - tot[0]:+.1f} |")
        self.launch = (tot, fl1, lr1)
        self.sections.append(
            "**Launch** (1,000 calls each of `... --ro / --rw /tmp --rw /dev/null -- /bin/true`; the launcher "
            "process until it has become `/bin/true`, including that execve):\n\n" + "\n".join(rows)
            + f"\n\nlandlock-run's own code: {top(lr[1]) or 'none sampled'}. "
            f"Its page faults, by the function that took them: {top(lr[2]) or 'none sampled'}.")

    def grants_section(self, f10, l10):
        rows = ["| where (CPU ms per call) | floor-landlock | landlock-run | difference |", "|---|---:|---:|---:|"]
        for c in sorted(set(f10) | set(l10), key=lambda c: -l10.get(c, 0)):
            a, b = f10.get(c, 0) / 1e3, l10.get(c, 0) / 1e3
            if max(a, b) >= 0.05:
                rows.append(f"| {c} | {a:.2f} | {b:.2f} | {b - a:+.2f} |")
        tot = [sum(d.values()) / 1e3 for d in (f10, l10)]
        rows.append(f"| **total** | {tot[0]:.2f} | {tot[1]:.2f} | {tot[1] - tot[0]:+.2f} |")
        self.grants = (tot, f10, l10)
        self.sections.append("**10,000 distinct grants** (10 calls each):\n\n" + "\n".join(rows))

    def probe_section(self, pc):
        rows = ["| where (CPU µs per call) | `--probe` |", "|---|---:|"]
        for c, v in sorted(pc.items(), key=lambda kv: -kv[1]):
            if v >= 1:
                rows.append(f"| {c} | {v:.1f} |")
        rows.append(f"| **total** (parent and self-test child) | {sum(pc.values()):.1f} |")
        self.probe = pc
        self.sections.append("**--probe** (500 calls; parent and self-test child):\n\n" + "\n".join(rows))

    def reading(self):
        """The bullets of "Where the time goes" that perf gives."""
        out = []
        if self.launch:
            tot, fl1, lr1 = self.launch
            diff = {c: lr1.get(c, 0) - fl1.get(c, 0) for c in set(fl1) | set(lr1)}
            out.append(
                f"- **perf, launch.** CPU time per call in the launcher process: floor {tot[0]:.0f} µs, "
                f"floor-landlock {tot[1]:.0f} µs, landlock-run {tot[2]:.0f} µs. What landlock-run spends beyond "
                f"floor-landlock, largest first: {top({c: v for c, v in diff.items() if v > 0}, 5)}.")
        if self.probe:
            out.append(f"- **perf, --probe.** {sum(self.probe.values()):.0f} µs of CPU per call; largest shares: "
                       f"{top(self.probe, 5)}.")
        if self.grants:
            tot, f10, l10 = self.grants
            diff = {c: (l10.get(c, 0) - f10.get(c, 0)) / 1e3 for c in set(f10) | set(l10)}
            out.append(
                f"- **perf, 10,000 grants.** {tot[1]:.1f} ms of CPU per call against floor-landlock's {tot[0]:.1f} "
                f"ms; the difference, largest first: {top({c: v for c, v in diff.items() if v > 0}, 5, 'ms')}.")
        return out
