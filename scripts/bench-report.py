#!/usr/bin/env python3
"""Turn scripts/bench.sh's raw results into the tables, the target verdicts,
the profile summary and docs/performance.md. Reads $LR_OUT (hyperfine JSON,
strace logs, perf script output); writes $LR_OUT/performance.md,
$LR_OUT/scaling.dat and $LR_OUT/refs.gp; prints the report on stdout.
Only called by scripts/bench.sh, which exports the LR_* variables."""

import collections
import glob
import json
import os
import platform
import re
import statistics
import struct
import subprocess
import time

E = os.environ
OUT = E["LR_OUT"]
GRANTS = [1, 10, 100, 1000, 10000]
TARGET_SIZE = 48 * 1024


def load(group):
    """name -> list (one per round) of lists of wall times in seconds, and
    name -> list (one per round) of mean CPU time (user + system) per run."""
    runs, cpu = collections.defaultdict(list), collections.defaultdict(list)
    for path in sorted(glob.glob(f"{OUT}/json/{group}-*.json")):
        for res in json.load(open(path))["results"]:
            runs[res["command"]].append(res["times"])
            cpu[res["command"]].append(res["user"] + res["system"])
    return runs, cpu


(LAUNCH, LAUNCH_CPU), (SMALL, SMALL_CPU), (BIG, BIG_CPU) = load("launch"), load("small"), load("big")


def cpu_ratio(a, b):
    """CPU time (user + system, hyperfine's per-round means) a/b: median over rounds."""
    return statistics.median(x / y for x, y in zip(LAUNCH_CPU[a], LAUNCH_CPU[b]))


def med(runs, name):
    return statistics.median(t for rnd in runs[name] for t in rnd)


def ratio(runs, a, b):
    """Pooled-median ratio a/b and the IQR of the per-round ratios."""
    per_round = [statistics.median(x) / statistics.median(y) for x, y in zip(runs[a], runs[b])]
    q = statistics.quantiles(per_round, n=4) if len(per_round) > 1 else per_round * 3
    return med(runs, a) / med(runs, b), q[0], q[2]


def ms(s):
    return f"{s * 1e3:.3f} ms" if s < 0.01 else f"{s * 1e3:.1f} ms"


def us(s):
    return f"{s * 1e6:.1f} µs"


def x(r):
    return f"{r:.3f}×"


# --- launch ----------------------------------------------------------------
has_bwrap = "bwrap" in LAUNCH
launch_rows = [
    ("true", "`/bin/true`, bare (dynamic, glibc)"),
    ("floor", "floor: static exec-only wrapper → `/bin/true`"),
    ("floor-landlock", "floor-landlock: floor + the bare Landlock syscalls, same grants → `/bin/true`"),
    ("landlock-run", "**`landlock-run --ro / --rw /tmp --rw /dev/null -- /bin/true`**"),
]
if has_bwrap:
    launch_rows.append(("bwrap", "`bwrap --ro-bind / / --dev /dev --proc /proc -- /bin/true`"))
launch_rows.append(("probe", "`landlock-run --probe` (forks a self-test child)"))
launch_table = [
    "| command | median | vs floor (IQR over rounds) | vs `/bin/true` | CPU time vs floor |",
    "|---|---:|---:|---:|---:|",
]
for name, label in launch_rows:
    r, lo, hi = ratio(LAUNCH, name, "floor")
    rt = ratio(LAUNCH, name, "true")[0]
    launch_table.append(f"| {label} | {ms(med(LAUNCH, name))} | {x(r)} ({lo:.3f}–{hi:.3f}) | {x(rt)} | "
                        f"{x(cpu_ratio(name, 'floor'))} |")
launch_table += [
    "",
    "CPU time = user + system time of the process tree (hyperfine's per-round mean), median over",
    "rounds: less disturbed by other load than wall time, but the targets are read on wall time.",
]
launch_table += [
    "",
    "The same launchers with a static no-op command (`floor` without arguments), where the",
    "launcher's own cost is a larger share:",
    "",
    "| command | median | vs floor → no-op |",
    "|---|---:|---:|",
]
for name, label in [
    ("noop", "static no-op, bare"),
    ("floor-noop", "floor → static no-op"),
    ("landlock-run-noop", "`landlock-run --ro / --rw /tmp --rw /dev/null --` static no-op"),
]:
    r, lo, hi = ratio(LAUNCH, name, "floor-noop")
    launch_table.append(f"| {label} | {ms(med(LAUNCH, name))} | {x(r)} ({lo:.3f}–{hi:.3f}) |")

# --- scaling ---------------------------------------------------------------
def t(kind, n):
    runs = BIG if n == 10000 else SMALL
    return med(runs, f"{kind}-{n}")


def base(kind, n):
    """--ro / alone, from the same hyperfine invocations as n grants."""
    return med(BIG if n == 10000 else SMALL, f"{kind}-0")


per_grant = {k: {n: (t(k, n) - base(k, n)) / n for n in GRANTS} for k in ("lr", "fl")}


def cpu_per_grant(kind, n):
    """The same from CPU time (user + system): median over rounds."""
    c = BIG_CPU if n == 10000 else SMALL_CPU
    return statistics.median((a - b) / n for a, b in zip(c[f"{kind}-{n}"], c[f"{kind}-0"]))


cpu_grant = {k: {n: cpu_per_grant(k, n) for n in GRANTS} for k in ("lr", "fl")}
scaling_table = [
    "| grants besides `--ro /` | landlock-run | per grant | per grant, CPU | floor-landlock | per grant | "
    "per grant, CPU | landlock-run / floor-landlock |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|",
    f"| 0 | {ms(med(SMALL, 'lr-0'))} | | | {ms(med(SMALL, 'fl-0'))} | | | {x(ratio(SMALL, 'lr-0', 'fl-0')[0])} |",
]
for n in GRANTS:
    runs = BIG if n == 10000 else SMALL
    scaling_table.append(
        f"| {n:,} distinct | {ms(t('lr', n))} | {us(per_grant['lr'][n])} | {us(cpu_grant['lr'][n])} | "
        f"{ms(t('fl', n))} | {us(per_grant['fl'][n])} | {us(cpu_grant['fl'][n])} | "
        f"{x(ratio(runs, f'lr-{n}', f'fl-{n}')[0])} |"
    )
argv_10k = med(BIG, "argv-10000") - med(BIG, "true")
argv_dup = med(BIG, "argv-dup") - med(BIG, "true")
dup_lr = med(BIG, "lr-dup") - med(BIG, "lr-1") - argv_dup
dup_fl = med(BIG, "fl-dup") - med(BIG, "lr-1") - argv_dup
distinct_lr = med(BIG, "lr-10000") - med(BIG, "lr-1") - argv_10k
scaling_table += [
    f"| 10,000 × the same directory | {ms(med(BIG, 'lr-dup'))} | {us((med(BIG, 'lr-dup') - med(BIG, 'lr-0')) / 10000)} | | "
    f"{ms(med(BIG, 'fl-dup'))} | {us((med(BIG, 'fl-dup') - med(BIG, 'fl-0')) / 10000)} | | {x(ratio(BIG, 'lr-dup', 'fl-dup')[0])} |",
    f"| argv only: `/bin/true` + the 10,000 distinct grants' arguments | {ms(med(BIG, 'argv-10000'))} | "
    f"{us(argv_10k / 10000)} | | | | | |",
]

with open(f"{OUT}/scaling.dat", "w") as f:
    f.write("# grants landlock-run_ms floor-landlock_ms lr_per_grant_us fl_per_grant_us\n")
    for n in GRANTS:
        f.write(f"{n} {t('lr', n) * 1e3:.4f} {t('fl', n) * 1e3:.4f} "
                f"{per_grant['lr'][n] * 1e6:.3f} {per_grant['fl'][n] * 1e6:.3f}\n")
with open(f"{OUT}/refs.gp", "w") as f:
    f.write(f"floor_ms = {med(LAUNCH, 'floor') * 1e3:.4f}\n")
    f.write(f"true_ms = {med(LAUNCH, 'true') * 1e3:.4f}\n")
    f.write(f"lr0_ms = {med(SMALL, 'lr-0') * 1e3:.4f}\n")
    f.write(f"bwrap_ms = {med(LAUNCH, 'bwrap') * 1e3 if has_bwrap else -1:.4f}\n")

# --- strace: system calls before the command's execve ----------------------
def syscalls(path, stop_at_second_execve=True):
    counts, execs = collections.Counter(), 0
    if not HAVE_STRACE:
        return counts
    for line in open(path):
        m = re.match(r"^(?:\d+\s+)?(\w+)\(", line)
        if not m or "resumed>" in line:
            continue
        if m.group(1) == "execve":
            execs += 1
            if execs == 2 and stop_at_second_execve:
                break
        counts[m.group(1)] += 1
    return counts


def fmt_counts(c, scale=1, top=None):
    items = sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    return ", ".join(f"{name} {round(n / scale, 2):g}" for name, n in items)


HAVE_STRACE = not E.get("LR_STRACE_NOTE")


def sx(text):
    """Text that quotes strace's counts: dropped when strace could not run."""
    return text if HAVE_STRACE else ""


sc = {k: syscalls(f"{OUT}/strace-{k}") for k in
      ("launch.lr", "launch.fl", "launch.floor", "0.lr", "0.fl", "10k.lr", "10k.fl", "dup.lr")}
sc["probe.lr"] = syscalls(f"{OUT}/strace-probe.lr", stop_at_second_execve=False)
per_grant_calls = {k: (sum(sc[f"10k.{k}"].values()) - sum(sc[f"0.{k}"].values())) / 10000
                   for k in ("lr", "fl")}
per_dup_calls = (sum(sc["dup.lr"].values()) - sum(sc["0.lr"].values())) / 10000
strace_c = open(f"{OUT}/strace-c-10k.lr").read().splitlines() if HAVE_STRACE else [E.get("LR_STRACE_NOTE", "")]
strace_c = [l for l in strace_c if l.strip()][:9]

# --- perf: where the samples of the launcher process fall ------------------
def elf_reader(path):
    """address -> bytes reader for a static ELF64."""
    try:
        data = open(path, "rb").read()
    except OSError:
        return lambda addr, n: b""
    if data[:4] != b"\x7fELF" or data[4] != 2:
        return lambda addr, n: b""
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    loads = []
    for i in range(phnum):
        p_type, _, p_offset, p_vaddr, _, p_filesz = struct.unpack_from("<IIQQQQ", data, phoff + i * phentsize)
        if p_type == 1:
            loads.append((p_vaddr, p_offset, p_filesz))

    def read(addr, n):
        for vaddr, off, size in loads:
            if vaddr <= addr and addr + n <= vaddr + size:
                return data[off + addr - vaddr: off + addr - vaddr + n]
        # perf script prints a user address relative to its file mapping.
        return data[addr: addr + n]
    return read


SYSCALL_INSN = {"x86_64": b"\x0f\x05", "aarch64": b"\x01\x00\x00\xd4"}.get(platform.machine(), b"")
PERF_HZ = 20000  # perf record -F in scripts/bench.sh
AFTER_SYSCALL = "user: address right after a syscall instruction (entering/leaving the kernel)"
ENTRY = "kernel: system call entry/exit (mitigations, audit)"


def perf_profile(name, comm, runs):
    """CPU µs per run of the launcher process by where the samples fall,
    the user functions, and the user functions that took page faults."""
    readers = {}
    cats, funcs, faults = collections.Counter(), collections.Counter(), collections.Counter()
    path = f"{OUT}/perf-{name}.txt"
    if not os.path.exists(path):
        return None
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
        user = [(a, s, d) for a, s, d in frames if "kernel" not in d]
        if "kernel" in dso:
            sysname = None
            for _, s, _ in frames:
                m = re.match(r"^__(?:x64|arm64|se|do)_sys_(\w+)", s)
                if m:
                    sysname = m.group(1)
            if any("page_fault" in s for _, s, _ in frames) and not sysname:
                cats["kernel: page faults"] += 1
                faults[user[0][1] if user else "?"] += 1
            elif sysname:
                sysname = "open/openat" if sysname in ("open", "openat") else sysname
                cats[f"kernel: {sysname}(2)"] += 1
            elif any(s.startswith(("entry_SYSCALL", "syscall_", "do_syscall", "el0_svc", "audit", "__audit"))
                     for _, s, _ in frames):
                cats[ENTRY] += 1
            else:
                cats["kernel: other (scheduling, interrupts)"] += 1
            continue
        base = os.path.basename(dso)
        if base not in readers:
            readers[base] = elf_reader(f"{OUT}/{base}")
        if SYSCALL_INSN and readers[base](ip - len(SYSCALL_INSN), len(SYSCALL_INSN)) == SYSCALL_INSN:
            cats[AFTER_SYSCALL] += 1
        else:
            cats["user: launcher code"] += 1
            funcs[sym] += 1
    scale = 1e6 / PERF_HZ / runs
    return ({c: n * scale for c, n in cats.items()}, {f: n * scale for f, n in funcs.items()},
            {f: n * scale for f, n in faults.items()})


def top(d, k=4, unit="µs"):
    return ", ".join(f"{f} {v:.1f} {unit}" for f, v in sorted(d.items(), key=lambda kv: -kv[1])[:k])


perf_sections, perf_launch, perf_10k, perf_probe = [], None, None, None
if not E.get("LR_PERF_NOTE") or E["LR_PERF_NOTE"].startswith("(symbols"):
    p = {k: perf_profile(*k) for k in (("launch-floor", "floor", 1000), ("launch-fl", "floor-landlock", 1000),
                                         ("launch-lr", "landlock-run", 1000), ("10k-fl", "floor-landlock", 10),
                                         ("10k-lr", "landlock-run", 10))}
    if all(p.values()):
        fl0, fl1, lr1 = (p[k][0] for k in (("launch-floor", "floor", 1000), ("launch-fl", "floor-landlock", 1000),
                                           ("launch-lr", "landlock-run", 1000)))
        cats = sorted(set(fl0) | set(fl1) | set(lr1), key=lambda c: -lr1.get(c, 0))
        rows = ["| where (CPU µs per call) | floor | floor-landlock | landlock-run | landlock-run − floor |",
                "|---|---:|---:|---:|---:|"]
        for c in cats:
            rows.append(f"| {c} | {fl0.get(c, 0):.1f} | {fl1.get(c, 0):.1f} | {lr1.get(c, 0):.1f} | "
                        f"{lr1.get(c, 0) - fl0.get(c, 0):+.1f} |")
        tot = [sum(d.values()) for d in (fl0, fl1, lr1)]
        rows.append(f"| **total** | {tot[0]:.1f} | {tot[1]:.1f} | {tot[2]:.1f} | {tot[2] - tot[0]:+.1f} |")
        lr_launch = p[("launch-lr", "landlock-run", 1000)]
        perf_launch = (tot, fl0, fl1, lr1, lr_launch[1], lr_launch[2])
        perf_sections.append(
            "**Launch** (1,000 calls each of `... --ro / --rw /tmp --rw /dev/null -- /bin/true`; the launcher "
            "process until it has become `/bin/true`, including that execve):\n\n" + "\n".join(rows)
            + f"\n\nlandlock-run's own code: {top(lr_launch[1]) or 'none sampled'}. "
            f"Its page faults, by the function that took them: {top(lr_launch[2]) or 'none sampled'}.")
        f10, l10 = p[("10k-fl", "floor-landlock", 10)][0], p[("10k-lr", "landlock-run", 10)][0]
        cats = sorted(set(f10) | set(l10), key=lambda c: -l10.get(c, 0))
        rows = ["| where (CPU ms per call) | floor-landlock | landlock-run | difference |", "|---|---:|---:|---:|"]
        for c in cats:
            a, b = f10.get(c, 0) / 1e3, l10.get(c, 0) / 1e3
            if max(a, b) >= 0.05:
                rows.append(f"| {c} | {a:.2f} | {b:.2f} | {b - a:+.2f} |")
        tot10 = [sum(d.values()) / 1e3 for d in (f10, l10)]
        rows.append(f"| **total** | {tot10[0]:.2f} | {tot10[1]:.2f} | {tot10[1] - tot10[0]:+.2f} |")
        perf_10k = (tot10, f10, l10)
        perf_sections.append("**10,000 distinct grants** (10 calls each):\n\n" + "\n".join(rows))
    probe_prof = perf_profile("probe", "landlock-run", 500)
    if probe_prof:
        pc = probe_prof[0]
        rows = ["| where (CPU µs per call) | `--probe` |", "|---|---:|"]
        for c, v in sorted(pc.items(), key=lambda kv: -kv[1]):
            if v >= 1:
                rows.append(f"| {c} | {v:.1f} |")
        rows.append(f"| **total** (parent and self-test child) | {sum(pc.values()):.1f} |")
        perf_probe = pc
        perf_sections.append("**--probe** (500 calls; parent and self-test child):\n\n" + "\n".join(rows))

# --- targets ---------------------------------------------------------------
verdicts = []


def target(ok, what, numbers):
    verdicts.append(f"- {'MET' if ok else 'NOT MET'}: {what}: {numbers}")


r_launch, lo, hi = ratio(LAUNCH, "landlock-run", "floor")
target(r_launch <= 1.03, "launch within 3% of the floor (exec-only) at the median",
       f"landlock-run/floor = {r_launch:.3f} (IQR over {len(LAUNCH['floor'])} rounds {lo:.3f}–{hi:.3f}); "
       f"{us(med(LAUNCH, 'landlock-run') - med(LAUNCH, 'floor'))} over the floor's {ms(med(LAUNCH, 'floor'))}; "
       f"CPU time ratio {cpu_ratio('landlock-run', 'floor'):.3f}")
r_ll, lo, hi = ratio(LAUNCH, "landlock-run", "floor-landlock")
target(r_ll <= 1.03, "launch within 3% of floor-landlock (the floor plus the Landlock syscalls, "
       "as issue 7 defines the floor) at the median",
       f"landlock-run/floor-landlock = {r_ll:.3f} (IQR {lo:.3f}–{hi:.3f}); "
       f"CPU time ratio {cpu_ratio('landlock-run', 'floor-landlock'):.3f}")
def spread_of(values):
    return max(values) / min(values) if min(values) > 0 else float("inf")  # inf: lost in the noise


spread = spread_of([per_grant["lr"][n] for n in GRANTS if n >= 10])
cpu_spread = spread_of([cpu_grant["lr"][n] for n in GRANTS if n >= 10])
note = ""
if spread > 2 and cpu_spread <= 2:
    note = " — on CPU time it is flat, so the wall-time spread is other load on the machine: rerun when it is quiet"
target(spread <= 2, "per-grant cost flat from 10 to 10,000 (largest/smallest ≤ 2, wall-time medians)",
       ", ".join(f"{n:,}: {us(per_grant['lr'][n])}" for n in GRANTS if n >= 10) + f" (largest/smallest {spread:.2f}); "
       "CPU time: " + ", ".join(f"{n:,}: {us(cpu_grant['lr'][n])}" for n in GRANTS if n >= 10)
       + f" ({cpu_spread:.2f}){note}")
dup_share = dup_lr / distinct_lr if distinct_lr > 0 else float("inf")
target(dup_share <= 0.10, "10,000 duplicates cost about one rule (what they add beyond one grant, "
       "net of the argv copy, ≤ 10% of what 10,000 distinct grants add)",
       f"duplicates add {ms(dup_lr)} ({us(dup_lr / 9999)} each), distinct grants {ms(distinct_lr)} "
       f"({us(distinct_lr / 9999)} each): {100 * dup_share:.0f}%; "
       + sx(f"{per_dup_calls:.1f} system calls per duplicate; ") + "rules made: 2 (/ and the directory)")
probe = med(LAUNCH, "probe")
target(probe < 0.001, "`--probe` under 1 ms",
       f"{ms(probe)} at the median (CPU time {ms(statistics.median(LAUNCH_CPU['probe']))}), "
       f"{x(ratio(LAUNCH, 'probe', 'true')[0])} `/bin/true`"
       + sx(f", {sum(sc['probe.lr'].values())} system calls (parent and child)"))
size_x86, size_arm = int(E["LR_SIZE_X86"]), int(E["LR_SIZE_ARM"])
target(size_x86 < TARGET_SIZE, "x86_64 binary under 48 KiB",
       f"{size_x86:,} bytes ({size_x86 / 1024:.1f} KiB); aarch64 {size_arm:,} bytes ({size_arm / 1024:.1f} KiB)")

# --- reading ---------------------------------------------------------------
def cpu(name):
    return statistics.median(LAUNCH_CPU[name])


c_total = cpu("landlock-run") - cpu("floor")
c_kernel = cpu("floor-landlock") - cpu("floor")
c_own = cpu("landlock-run") - cpu("floor-landlock")
d_total = med(LAUNCH, "landlock-run") - med(LAUNCH, "floor")
d_kernel = med(LAUNCH, "floor-landlock") - med(LAUNCH, "floor")
d_own = med(LAUNCH, "landlock-run") - med(LAUNCH, "floor-landlock")
calls = {k: sum(sc[f"launch.{k}"].values()) for k in ("lr", "fl", "floor")}
reading = [
    f"- **Launch.** landlock-run costs {us(d_total)} of wall time ({us(c_total)} of CPU time) more than "
    f"the floor per call. Of that, {us(d_kernel)} ({us(c_kernel)} CPU) is what the kernel charges for "
    f"Landlock itself (floor-landlock − floor: the ruleset, three rules, restrict_self, and the command's "
    f"own path walks now checked against the domain) and {us(d_own)} ({us(c_own)} CPU) is the launcher's own "
    f"(landlock-run − floor-landlock: its larger binary to exec, argument checks"
    + sx(f", and {calls['lr']} system calls before the command's execve against floor-landlock's "
         f"{calls['fl']} and the floor's {calls['floor']}") + ")."
    + sx(f"\n  landlock-run: {fmt_counts(sc['launch.lr'])}.\n  floor-landlock: {fmt_counts(sc['launch.fl'])}."),
    f"- **Grants.** Each grant costs landlock-run {us(per_grant['lr'][10000])} at 10,000 grants and "
    f"floor-landlock {us(per_grant['fl'][10000])}; copying the arguments alone (exec of `/bin/true` "
    f"with the same argv) is {us(argv_10k / 10000)} of it. "
    + sx(f"Per grant landlock-run makes {per_grant_calls['lr']:.1f} system calls "
         f"({fmt_counts(sc['10k.lr'] - sc['0.lr'], 10000, 6)}); floor-landlock makes "
         f"{per_grant_calls['fl']:.1f} ({fmt_counts(sc['10k.fl'] - sc['0.fl'], 10000, 6)}). ")
    + f"The cost stays linear: each rule is a red-black tree insert (O(log n)) in the kernel, "
    f"and landlock_restrict_self merges the ruleset into the new domain once.",
    f"- **Duplicates.** The same directory 10,000 times ends as one rule, but costs landlock-run "
    f"{us(dup_lr / 9999)} per duplicate beyond the argv copy, against {us(dup_fl / 9999)} for "
    f"floor-landlock (which lets the kernel merge: it ORs the rights of a rule it already has)"
    + sx(f": {per_dup_calls:.1f} system calls per duplicate") + ".",
    f"- **--probe** costs {ms(probe)}: it forks a child that builds a ruleset, restricts itself and "
    f"tries the denied operations" + sx(f"; {sum(sc['probe.lr'].values())} system calls in all") + ".",
]
if perf_launch:
    tot, fl0, fl1, lr1, funcs, faults = perf_launch
    diff = {c: lr1.get(c, 0) - fl1.get(c, 0) for c in set(fl1) | set(lr1)}
    reading.append(
        f"- **perf, launch.** CPU time per call in the launcher process: floor {tot[0]:.0f} µs, floor-landlock "
        f"{tot[1]:.0f} µs, landlock-run {tot[2]:.0f} µs. What landlock-run spends beyond floor-landlock, largest "
        f"first: {top({c: v for c, v in diff.items() if v > 0}, 5)}.")
if perf_probe:
    reading.append(f"- **perf, --probe.** {sum(perf_probe.values()):.0f} µs of CPU per call; largest shares: "
                   f"{top(perf_probe, 5)}.")
if perf_10k:
    tot10, f10, l10 = perf_10k
    diff = {c: (l10.get(c, 0) - f10.get(c, 0)) / 1e3 for c in set(f10) | set(l10)}
    reading.append(
        f"- **perf, 10,000 grants.** {tot10[1]:.1f} ms of CPU per call against floor-landlock's {tot10[0]:.1f} ms; "
        f"the difference, largest first: {top({c: v for c, v in diff.items() if v > 0}, 5, 'ms')}.")

# --- output ----------------------------------------------------------------
try:
    cpu = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
except StopIteration:
    cpu = subprocess.run(["uname", "-m"], capture_output=True, text=True).stdout.strip()
mitigations = ""
vdir = "/sys/devices/system/cpu/vulnerabilities"
if os.path.isdir(vdir):
    active = sorted({open(f"{vdir}/{v}").read().split(";")[0].strip() for v in os.listdir(vdir)}
                    - {"Not affected"})
    mitigations = ", ".join(a.split(":", 1)[1].strip() for a in active if a.startswith("Mitigation:"))
machine = [
    f"- Machine: {cpu}, {os.cpu_count()} CPUs, `uname -r` {platform.release()}, Landlock ABI {E['LR_ABI']}",
    f"- CPU mitigations in force (they set the price of every system call): {mitigations or 'none reported'}",
    f"- Load average at start / end: {E['LR_LOAD_START']} / {E['LR_LOAD_END']} "
    f"(other work on the machine adds noise; every ratio is from the same rounds)",
    f"- Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
    f"- {E['LR_VERSION']}, commit {E['LR_COMMIT']}"
    + (f" with uncommitted changes in {E['LR_DIRTY']} launcher source file(s)" if E["LR_DIRTY"] != "0" else ""),
    f"- {E['LR_HYPERFINE']}, {E['LR_BWRAP_VERSION'] if has_bwrap else 'bubblewrap: ' + E['LR_BWRAP_NOTE']}",
    f"- Method: `hyperfine -N`; launch: {E['LR_ROUNDS']} rounds × 50 runs (10 warm-up) of every command; "
    f"scaling: {3 * int(E['LR_SROUNDS'])} rounds × 20 runs up to 1,000 grants, {E['LR_SROUNDS']} rounds × 8 runs at 10,000. A figure is the median of all runs; "
    f"a ratio is between medians of the same rounds, its spread the interquartile range of per-round ratios.",
]

report = f"""# Performance

Generated by `make bench` (scripts/bench.sh, scripts/bench-report.py, scripts/floor.c,
scripts/bench-plot.gp). Rerun it rather than editing this file.

{chr(10).join(machine)}

The **floor** is `scripts/floor.c` built static with musl: it only execs its arguments.
**floor-landlock** is the same file built with `-DWITH_LANDLOCK`: the fewest system calls
that confine a command (a ruleset; per grant one `openat(O_PATH)` and one `landlock_add_rule`;
`no_new_privs`; `restrict_self`; `execve`), with no checks, messages or merging of its own.

## Launch

{chr(10).join(launch_table)}

## Targets

{chr(10).join(verdicts)}

## Scaling with the number of grants

![time per call and per grant against the number of grants](bench-scaling.svg)

Per grant = (time with n grants − time with `--ro /` alone) / n, from the same rounds; "CPU" is the
same from user + system time (median over rounds), which other load on the machine disturbs less.

{chr(10).join(scaling_table)}

## Binary size

| binary | bytes | KiB |
|---|---:|---:|
| build/x86_64/landlock-run | {size_x86:,} | {size_x86 / 1024:.1f} |
| build/aarch64/landlock-run | {size_arm:,} | {size_arm / 1024:.1f} |
| floor (x86_64, for scale) | {int(E['LR_FLOOR_SIZE']):,} | {int(E['LR_FLOOR_SIZE']) / 1024:.1f} |

## Where the time goes

{chr(10).join(reading)}

`strace -c -f` of landlock-run with 10,000 grants (strace inflates each call; the counts are exact,
the shares indicative):

```
{chr(10).join(strace_c)}
```

perf (software `cpu-clock` sampling: this VM exposes no hardware counters), on an unstripped build
of the same sources. A sample whose user-space address sits right after a `syscall` instruction is
the cost of entering and leaving the kernel, which the sampling charges to user space.
{E.get('LR_PERF_NOTE', '')}

{(chr(10) * 2).join(perf_sections) if perf_sections else 'No perf profile: ' + E.get('LR_PERF_NOTE', '')}
"""
open(f"{OUT}/performance.md", "w").write(report)

print("\n".join(launch_table))
print()
print("\n".join(scaling_table))
print()
print(f"sizes: x86_64 {size_x86:,} bytes, aarch64 {size_arm:,} bytes")
print()
print("\n".join(reading))
print()
if perf_sections:
    print("\n\n".join(perf_sections))
    print()
print("Targets:")
print("\n".join(verdicts))
