#!/usr/bin/python3
"""tests/audit/run.py [WORKLOAD...]: --explain checked against the kernel's own
Landlock audit records, workload by workload (tests/audit/workloads.py).
tests/audit/run.py --compare OPTION... -- COMMAND...: the same for one
command line, run in the current directory, everything it saw printed.

Each run is `landlock-run --log-subprocesses --explain-json FILE --status-fd N
POLICY -- COMMAND` while tests/audit/auditlog.py collects every Landlock
record on the host; the run's records are those of the domains its own
AUDIT_LANDLOCK_DOMAIN records announce for the command's pid (from the status
descriptor). tests/audit/compare.py matches them with the explanations.
Then each piece of advice is added on its own to the policy and the command
run again: the kernel must no longer refuse what it refused. A workload with
rounds > 1 then runs with all the advice followed, and so on, as a user
would; with learn, --learn writes a policy and a clean confined rerun from
it must have no denial at all.

Needs root, Landlock ABI 7 (--log-subprocesses) and the audit netlink socket;
elsewhere every check is skipped with the reason. Audit is switched on for
the run and back off if it was off (LR_TEST_AUDIT=0, as for tests/log.bats,
keeps it off: then everything is skipped). Holds /tmp/lr-heavy.lock throughout
(unless an ancestor process holds it): the collector sees the whole host.
Prints TAP, a "# " line of counts per run, and ends "N passed, N failed".
LR_AUDIT_KEEP=1 keeps the workloads' trees (in /var/tmp) and each run's
report and log (in /run); the paths are printed.
"""
import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the tree
import auditlog  # noqa: E402
import compare  # noqa: E402
import workloads  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
LOCK = "/tmp/lr-heavy.lock"
ARCH = os.uname().machine
LR = os.environ.get("LR_BIN") or f"{REPO}/landlock-run"
HELPERS = f"{REPO}/build/{ARCH}"
NOBODY = ["setpriv", f"--reuid={workloads.NOBODY}", f"--regid={workloads.NOBODY}",
          "--clear-groups"]


class Tap:
    def __init__(self):
        self.n = self.passed = self.failed = 0

    def check(self, name, ok, details=()):
        self.n += 1
        print(f"{'ok' if ok else 'not ok'} {self.n} - {name}", flush=True)
        if not ok:
            for line in details:
                print(f"#   {line}", flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed += 1

    def note(self, text):
        print(f"# {text}", flush=True)

    def end(self, skip=None):
        print(f"1..{self.n}" + (f" # SKIP {skip}" if skip else ""))
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0


class Run:
    """One launcher run and what came of it."""

    def __init__(self, label, argv):
        self.label, self.argv = label, argv
        self.status = None
        self.stdout = self.stderr = ""
        self.pids = []
        self.launcher_failed = None  # the launcher's line when it did not exec
        self.comparison = None
        self.domains = {}
        self.events = {}
        self.unlisted = None  # the JSON's count of denials past those it lists
        self.unseen = None  # the JSON's count of calls of non-dumpable processes, and the first
        self.seconds = 0.0
        self.launcher_uid = 0

    def shell(self):
        """The command line, a script argument (one with a newline) shown as $SCRIPT."""
        return " ".join("\"$SCRIPT\"" if "\n" in a else _quote(a) for a in self.argv)


def _quote(word):
    if word and all(c.isalnum() or c in "@%+=:,./-_" for c in word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


class Context:
    def __init__(self, root, private, collector, documented):
        self.root, self.collector, self.documented = root, collector, documented
        self.private = private  # reports and policies: beneath no grant a workload is advised
        os.makedirs(f"{root}/bin")
        for src, name in ((LR, "landlock-run"), (f"{HELPERS}/tryop", "tryop"),
                          (f"{HELPERS}/edgeop", "edgeop")):
            shutil.copy(src, f"{root}/bin/{name}")
        self.lr, self.tryop, self.edgeop = (f"{root}/bin/{n}" for n in
                                            ("landlock-run", "tryop", "edgeop"))
        self.last_run = None
        self.runs = 0
        self.abi = int(subprocess.run([self.tryop, "abi"], capture_output=True, text=True).stdout)

    def enter(self, w):
        self.w = w
        self.work = f"{self.root}/{w.name}"
        self.tree, self.home = f"{self.work}/tree", f"{self.work}/home"
        self.reports = f"{self.private}/{w.name}"
        # the workload's policy directory ($XDG_CONFIG_HOME/landlock-run), the
        # only place @FILE reads a learned policy from, beneath no grant
        self.config = f"{self.reports}/config"
        os.makedirs(self.reports)
        for d in (self.config, f"{self.config}/landlock-run"):
            os.mkdir(d, 0o700)
        for d in (self.reports, self.config, f"{self.config}/landlock-run"):
            if w.as_nobody:
                os.chown(d, workloads.NOBODY, workloads.NOBODY)

    def reset(self, w, home=True):
        """A fresh tree (and home) for the next run, as the workload makes them."""
        if isinstance(w, workloads.AdHoc):
            return  # run.py --compare runs where it is
        for d, make in ((self.tree, w.make_tree), (self.home, w.make_home)):
            if d == self.home and not home and os.path.isdir(d):
                continue
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
            make(self)
            if w.as_nobody:
                for top, dirs, files in os.walk(d):
                    for n in [top] + [f"{top}/{x}" for x in dirs + files]:
                        os.lchown(n, workloads.NOBODY, workloads.NOBODY)

    def base_env(self):
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "LANG": "C.UTF-8",
               "HOME": self.home}
        if getattr(self, "config", None):
            env["XDG_CONFIG_HOME"] = self.config
        return env

    def launch(self, w, label, argv, reset=True, home=True, streams=True):
        """Run ARGV (the launcher and its command; "--status-fd N" gets a pipe)
        and collect its Landlock records. Audit switched off meanwhile (by a
        suite that ignored the lock) is switched on again and the run repeated."""
        for attempt in range(2):
            if reset:
                self.reset(w, home)
            run = Run(label, NOBODY + argv if w.as_nobody else list(argv))
            run.launcher_uid = workloads.NOBODY if w.as_nobody else 0
            mark = self.collector.mark()
            status = self.spawn(w, run, w.streams(self) if streams else None)
            if auditlog.status()["enabled"]:
                break
            print(f"# audit was switched off during '{label}': on again, once more", flush=True)
            auditlog.set_status(enabled=1)
        run.pids = sorted({s["pid"] for s in status if "pid" in s})
        fail = next((s for s in status if s.get("exec") is False), None)
        if fail:
            run.launcher_failed = fail.get("error", "exec false")
        elif "--status-fd" in argv and not run.pids:
            run.launcher_failed = run.launcher_failed or "no pid on the status descriptor"
        run.events, run.domains = self.collector.run_records(mark, run.pids)
        with open(f"{self.reports}/{self.runs:03d}.log", "w", encoding="utf-8") as f:
            f.write(f"{label}\n{run.shell()}\nstatus {run.status}\n--- stdout\n{run.stdout}"
                    f"--- stderr\n{run.stderr}--- kernel\n" +
                    "".join(f"{r.kind} {r.serial} {r.text}\n" for rs in run.events.values()
                            for r in rs))
        self.runs += 1
        return run

    def spawn(self, w, run, streams):
        """Run RUN.argv to its end (STREAMS: stdout, stderr and {fd: file} the
        workload hands over, else pipes); return the status descriptor's lines."""
        rfd, pipe_w = os.pipe()
        wfd = fcntl.fcntl(pipe_w, fcntl.F_DUPFD, 10)  # above the descriptors handed over
        os.close(pipe_w)
        if "--status-fd" in run.argv:
            run.argv[run.argv.index("--status-fd") + 1] = str(wfd)
        out, err, extra = streams or (subprocess.PIPE, subprocess.PIPE, {})

        def hand_over():
            for n, f in extra.items():
                os.dup2(f.fileno(), n)

        start = time.monotonic()
        p = subprocess.Popen(run.argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                             env=dict(self.base_env(), **w.env(self)), cwd=self.tree,
                             pass_fds=(wfd, *extra), start_new_session=True,
                             preexec_fn=hand_over if extra else None)
        os.close(wfd)
        try:
            so, se = p.communicate(timeout=w.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            so, se = p.communicate()
            run.launcher_failed = f"timed out after {w.timeout} s"
        run.seconds = time.monotonic() - start
        run.status = p.returncode
        if streams:
            for f in (out, err, *extra.values()):
                f.close()
            so, se = (open(f.name, "rb").read() for f in (out, err))
        run.stdout = (so or b"").decode("utf-8", "replace")
        run.stderr = (se or b"").decode("utf-8", "replace")
        with os.fdopen(rfd, "rb") as f:
            return [json.loads(line) for line in f.read().splitlines() if line.strip()]

    def confined(self, w, policy, label, explain=True, command=None, reset=True, home=True):
        """A confined run under --log-subprocesses (and --explain-json), compared."""
        report = f"{self.reports}/{self.runs:03d}.json"  # each run's, for LR_AUDIT_KEEP=1
        argv = [self.lr, "--log-subprocesses"] + (["--explain-json", report] if explain else [])
        argv += ["--status-fd", "N"] + list(policy) + ["--"] + list(command or w.command(self))
        run = self.launch(w, label, argv, reset, home, streams=command is None)
        explained = []
        if explain and os.path.exists(report):
            for line in open(report, encoding="utf-8", errors="surrogateescape"):
                d = json.loads(line)
                if d.get("kind") == "unlisted":
                    run.unlisted = d.get("denials")
                elif d.get("kind") == "unseen":
                    run.unseen = d
                else:
                    explained.append(compare.Explained(line.rstrip("\n"), d))
        run.comparison = compare.Comparison(run, run.events, explained, self.documented)
        self.last_run = run
        return run


# --- applying advice ------------------------------------------------------------


def take_out(policy, option):
    """POLICY without OPTION as advice names it ("replace": "--tcp-bind" is the
    --tcp-bind none that closed the kind, "--no-tcp" the flag), in either spelling."""
    out, i = [], 0
    while i < len(policy):
        word = policy[i]
        if word == option and policy[i + 1:i + 2] == ["none"]:
            i += 2
            continue
        if word == f"{option}=none" or (word == option and option.startswith("--no-")):
            i += 1
            continue
        out.append(word)
        i += 1
    return out


def leave_scope(policy, scope):
    out, i = [], 0
    while i < len(policy):
        opt, value = policy[i], None
        if opt == "--scope" and i + 1 < len(policy):
            value, i = policy[i + 1], i + 2
        elif opt.startswith("--scope="):
            value, i = opt.split("=", 1)[1], i + 1
        else:
            out.append(opt)
            i += 1
            continue
        left = [s for s in value.split(",") if s != scope]
        if left:
            out += ["--scope", ",".join(left)]
    return out


def follow(policy, advice):
    """POLICY with one piece of advice (compare.Explained.advice()) followed."""
    replace, allow, scope = advice
    p = take_out(policy, replace) if replace else list(policy)
    if scope:
        p = leave_scope(p, scope)
    return p + list(allow)


def describe(advice):
    replace, allow, scope = advice
    parts = []
    if replace:
        parts.append(f"replace {replace} with")
    elif allow:
        parts.append("add")
    if allow:
        parts.append(" ".join(allow))
    if scope:
        parts.append(f"leave {scope} out of --scope")
    return " ".join(parts)


# --- one workload ----------------------------------------------------------------


class Findings:
    """What all the runs of one workload found, each mismatch once."""

    def __init__(self):
        self.lists = {k: {} for k in ("unexplained", "without_record", "rights", "pid", "advice",
                                      "incomplete", "documented", "set_aside", "filter")}

    def add(self, kind, key, lines):
        self.lists[kind].setdefault(key, lines)

    def details(self, kind):
        return [line for lines in self.lists[kind].values() for line in lines]


def kernel_lines(k, run):
    return [f"kernel: {k.text}",
            f"  call: {k.syscall_text or '(no SYSCALL record)'}",
            f"  run ({run.label}): {run.shell()}"]


def explained_lines(j, run):
    return [f"explain: {j.line}", f"  run ({run.label}): {run.shell()}"]


def record(found, run):
    c = run.comparison
    for k in c.unexplained:
        found.add("unexplained", k.key(), kernel_lines(k, run))
    for k, kind in c.documented:
        found.add("documented", k.key(), [f"documented ({kind}): {k.text}"])
    for k, why in c.ignored:
        found.add("set_aside", (k.key(), why), [f"set aside ({why}): {k.text}"])
    for j in c.without_record:
        found.add("without_record", (j.kind, j.path, j.rights), explained_lines(j, run))
    for x, only in c.rights_differ:
        side = "kernel" if isinstance(x, compare.KernelDenial) else "explain"
        what = x.text if side == "kernel" else x.line
        found.add("rights", (side, x.kind, x.obj if side == "kernel" else x.path, x.rights),
                  [f"{side} only ({','.join(only)}): {what}",
                   f"  run ({run.label}): {run.shell()}"])
    for j in c.filter:
        found.add("filter", (j.d.get("syscall"), j.rights),
                  [f"the system-call filter's ({run.label}): {j.line}"])
    for j, which in c.wrong_pid:
        found.add("pid", (j.kind, j.path, j.rights),
                  [f"explain names {which}: {j.line}", f"  run ({run.label}): {run.shell()}"])
    if run.unlisted:
        found.add("incomplete", (run.label, "unlisted"),
                  [f"{run.label}: {run.unlisted} denials past the listed ones: not compared"])
    for d, info in run.domains.items():
        if info["denials"] != info["records"]:
            found.add("incomplete", (run.label, d),
                      [f"domain {d} ({run.label}): the kernel counted {info['denials']} "
                       f"denials, {info['records']} records arrived"])


def try_advice(ctx, w, policy, run, found, tally):
    """Each piece of advice of RUN on its own: the kernel must allow what it refused."""
    c = run.comparison
    for advice in c.advices():
        covered = c.covered(advice)
        refused = {(j.d.get("syscall"), j.rights) for j in c.filter if j.advice() == advice}
        if not covered and not refused:
            continue  # an explanation without a kernel record: reported as such
        tally["tried"] += 1
        rerun = ctx.confined(w, follow(policy, advice), f"{run.label}, {describe(advice)}")
        record(found, rerun)
        if rerun.launcher_failed:
            found.add("advice", advice, [f"advice '{describe(advice)}': the launcher did not run "
                                         f"the command: {rerun.launcher_failed}",
                                         f"  rerun: {rerun.shell()}"])
            continue
        left = []
        for k in covered:
            left += [x for x in compare.still_denied(k, advice, rerun.comparison) if x not in left]
        # No kernel record shows a filter's refusal: the tracer's own report must go.
        again = [j for j in rerun.comparison.filter if (j.d.get("syscall"), j.rights) in refused]
        if left or again:
            found.add("advice", advice, [f"advice '{describe(advice)}' followed, the kernel "
                                         f"still refuses:"] +
                      [f"  kernel: {x.text}" for x in left] +
                      [f"  explain (the filter's, again): {j.line}" for j in again] +
                      [f"  rerun: {rerun.shell()}"])
        else:
            tally["worked"] += 1


def follow_rounds(ctx, tap, w, found, tally):
    """Round 0 runs the workload's policy; each next one follows all the advice
    of the last, as a user would. True once a round has no denial and succeeds."""
    policy = w.policy(ctx)
    ctx.round_runs = []
    for rnd in range(w.rounds):
        run = ctx.confined(w, policy, f"round {rnd}")
        ctx.round_runs.append(run)
        record(found, run)
        before = dict(tally)
        if not run.launcher_failed:
            try_advice(ctx, w, policy, run, found, tally)
        c = run.comparison
        tap.note(f"{w.name} round {rnd}: {c.counts()}; advice {tally['tried'] - before['tried']} "
                 f"tried, {tally['worked'] - before['worked']} worked; status {run.status}, "
                 f"{run.seconds:.1f} s")
        if run.launcher_failed:
            tap.note(f"  the launcher did not run the command: {run.launcher_failed}")
            return False
        if not c.kernel and not c.explained:
            return run.status == 0
        if not c.advices():
            return False
        for a in c.advices():
            policy = follow(policy, a)
    return False


def compare_workload(ctx, tap, w):
    found = Findings()
    tally = {"tried": 0, "worked": 0}
    converged = follow_rounds(ctx, tap, w, found, tally)
    tap.check(f"{w.name}: the records are complete (the kernel's count per domain; no "
              "denial left unlisted)",
              not found.lists["incomplete"], found.details("incomplete"))
    for line in found.details("documented") + found.details("set_aside") + \
            found.details("filter"):
        tap.note(f"  {line}")
    total = [r.comparison for r in ctx.round_runs]
    tap.note(f"{w.name}, {len(total)} rounds: kernel {sum(len(c.kernel) for c in total)} denials, "
             f"explained {sum(len(c.explained) for c in total)}, matched "
             f"{sum(len(c.matched) for c in total)}, unexplained "
             f"{sum(len(c.unexplained) for c in total)} (+"
             f"{sum(len(c.documented) for c in total)} documented), without record "
             f"{sum(len(c.without_record) for c in total)}; advice {tally['tried']} tried, "
             f"{tally['worked']} worked")
    tap.check(f"{w.name}: every kernel denial is explained (or of a kind tests/audit/"
              "not-explained lists)", not found.lists["unexplained"], found.details("unexplained"))
    tap.check(f"{w.name}: every explained denial has a kernel record",
              not found.lists["without_record"], found.details("without_record"))
    tap.check(f"{w.name}: the rights explained are the rights the kernel refused, by the "
              "process and system call it names",
              not found.lists["rights"] and not found.lists["pid"],
              found.details("rights") + found.details("pid"))
    tap.check(f"{w.name}: each piece of advice, added on its own, makes the kernel allow the "
              f"access ({tally['worked']} of {tally['tried']})", not found.lists["advice"],
              found.details("advice"))
    caps = [j for c in total for j in c.capability]
    logged = [j.line for c in total for j in c.capability
              if any(k.kind == "fs" and k.obj in (j.path, os.path.dirname(j.path)) for k in c.kernel)]
    if caps or w.name == "dropped-caps":
        tap.check(f"{w.name}: the refusals of a dropped capability ({len(caps)}) have no Landlock "
                  "record on their file", caps and not logged, logged)
    home = os.path.realpath(ctx.home)
    never = [f"{j.line} ({why})" for r in ctx.round_runs for j in r.comparison.explained
             for why in [compare.never_advised(*(j.allow + ["", ""])[:2], home,
                                               r.launcher_uid == 0)] if why]
    tap.check(f"{w.name}: no advice is a grant trace/never.c's table never advises", not never,
              never)
    if w.converge:
        last = ctx.round_runs[-1]
        tap.check(f"{w.name}: following the advice round by round reaches a run with no denial "
                  "that succeeds", converged,
                  [f"last round ({last.label}, status {last.status}): {last.shell()}",
                   f"  {last.comparison.counts()}"] +
                  [f"  stderr: {line}" for line in last.stderr.splitlines()[-8:]])


def learn_workload(ctx, tap, w):
    """--learn, then clean confined reruns from the learned policy."""
    policy_file = f"{ctx.config}/landlock-run/learned.policy"
    learn = ctx.launch(w, "--learn", [ctx.lr, "--learn", policy_file, "--"] + w.command(ctx))
    tap.note(f"{w.name} --learn: status {learn.status}, {learn.seconds:.1f} s")
    text = open(policy_file, encoding="utf-8").read() if os.path.exists(policy_file) else ""
    home = os.path.realpath(ctx.home)
    broad = [line for line in text.splitlines() if _covers(line, home)]
    tap.check(f"{w.name} --learn: the learned policy grants neither $HOME nor a directory above "
              "it (/ included)", learn.status == 0 and bool(text) and not broad,
              [f"learn: status {learn.status}: {learn.shell()}"] +
              [f"policy: {line}" for line in broad] +
              [f"stderr: {line}" for line in learn.stderr.splitlines()[-5:]])
    per_boot = [line for line in text.splitlines() if _per_boot(line)]
    tap.check(f"{w.name} --learn: the learned policy names no per-boot or per-machine path "
              "(/proc/PID, a cgroup below /sys/fs/cgroup/CONTROLLER)",
              learn.status == 0 and bool(text) and not per_boot,
              [f"policy: {line}" for line in per_boot])
    never = [f"policy: {line} ({why})" for line in text.splitlines() if _grant(line) is not None
             for why in [compare.never_advised(line.split("=", 1)[0], _grant(line), home,
                                               learn.launcher_uid == 0)] if why]
    tap.check(f"{w.name} --learn: the learned policy has no grant trace/never.c's table never "
              "advises", learn.status == 0 and bool(text) and not never, never)
    learned = learn.status == 0 and bool(text)

    def rerun(stage):
        run = ctx.confined(w, ["@" + policy_file], f"from the learned policy, {stage}",
                           home=False)
        c = run.comparison
        tap.note(f"{w.name} rerun {stage}: {c.counts()}; status {run.status}")
        problems = [f"kernel: {k.text}" for k in c.kernel] + [f"explain: {j.line}"
                                                              for j in c.explained]
        if run.launcher_failed:
            problems.insert(0, f"the launcher did not run the command: {run.launcher_failed}")
        elif run.status != 0:
            problems.insert(0, f"status {run.status}")
            problems += [f"stderr: {line}" for line in run.stderr.splitlines()[-6:]]
        tap.check(f"{w.name} --learn: a clean confined rerun from the policy ({stage}) has no "
                  "denial and succeeds", learned and not problems,
                  problems + [f"rerun: {run.shell()}"] +
                  [f"policy: {line}" for line in text.splitlines() if not line.startswith("#")])

    rerun("after --learn")
    for what in w.after_learn(ctx):
        rerun(f"after {what}")


def _grant(line):
    """The path of a grant line of a learned policy, or None."""
    for opt in ("--ro=", "--rw=", "--ro-try=", "--rw-try=", "--unix="):
        if line.startswith(opt):
            return line[len(opt):]
    return None


def _per_boot(line):
    path = _grant(line) or ""
    cgroup = path.split("/")[4:] if path.startswith("/sys/fs/cgroup/") else []
    return bool(re.match(r"^/proc/\d+(/|$)", path)) or len(cgroup) > 1


def _covers(line, home):
    path = _grant(line)
    if path is None or line.startswith("--unix="):
        return False
    path = os.path.realpath(path)
    return path == "/" or path == home or home.startswith(path.rstrip("/") + "/")


# --- the harness -----------------------------------------------------------------


def held_by_ancestor(path):
    """Is the flock on PATH held by this process or one of its ancestors?"""
    try:
        st = os.stat(path)
    except OSError:
        return False
    ident = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    holders = set()
    for line in open("/proc/locks"):
        w = line.split()
        if len(w) >= 6 and w[1] == "FLOCK" and w[5] == ident:
            holders.add(int(w[4]))
    pid = os.getpid()
    while pid > 1:
        if pid in holders:
            return True
        try:
            pid = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            return False
    return False


def unusable():
    """Why this host cannot run the harness, or None."""
    if os.geteuid() != 0:
        return "needs root (the audit log is root's)"
    if not os.access(LR, os.X_OK) or not os.access(f"{HELPERS}/edgeop", os.X_OK):
        return None  # a missing build is a failure, not a skip: see main()
    abi = subprocess.run([f"{HELPERS}/tryop", "abi"], capture_output=True, text=True).stdout
    if not abi.strip().isdigit() or int(abi) < 7:
        return f"needs Landlock ABI 7 for --log-subprocesses, the kernel has {abi.strip()}"
    try:
        enabled = auditlog.status()["enabled"]
        auditlog.Collector().close()
    except auditlog.Unavailable as e:
        return str(e)
    if not enabled and os.environ.get("LR_TEST_AUDIT") == "0":
        return "the audit log is off and LR_TEST_AUDIT=0 keeps it off"
    return None


def compare_one(argv):
    """run.py --compare OPTION... -- COMMAND...: one confined run of COMMAND in
    the current directory, with the caller's environment, its kernel records
    beside its explanations, and each piece of advice tried; for reproducing
    what the workloads found."""
    if "--" not in argv:
        sys.exit("usage: tests/audit/run.py --compare OPTION... -- COMMAND...")
    cut = argv.index("--")
    tap = Tap()
    reason = unusable()
    if reason:
        return tap.end(skip=reason)
    return harness(tap, [workloads.AdHoc(argv[:cut], argv[cut + 1:])], adhoc=True)


def main(names):
    tap = Tap()
    reason = unusable()
    if reason:
        return tap.end(skip=reason)
    chosen = [w for w in workloads.ALL if not names or w.name in names]
    unknown = set(names) - {w.name for w in workloads.ALL}
    if unknown:
        tap.check("known workloads", False, [f"no workload {n}" for n in sorted(unknown)])
        return tap.end()
    return harness(tap, chosen)


def check_list(tap, documented):
    """The not-explained list against the man page, and against the recognizers."""
    sentence = compare.man_sentence(f"{REPO}/landlock-run.1")
    missing = [f"{k}: '{words}'" for k, words in documented.items() if words.lower() not in sentence]
    tap.check("tests/audit/not-explained: each kind is in the man page's \"not explained\" "
              "sentence", not missing, missing + [f"landlock-run.1: {sentence or '(no such sentence)'}"])
    unknown = [k for k in documented if k not in compare.UNSEEN]
    tap.check("tests/audit/not-explained: each kind has a recognizer (compare.UNSEEN)",
              not unknown, unknown)


def harness(tap, chosen, adhoc=False):
    for need in (LR, f"{HELPERS}/edgeop", f"{HELPERS}/tryop"):
        if not os.access(need, os.X_OK):
            tap.check(f"{need} is built (make all test-helpers)", False)
            return tap.end()
    lock = None
    if not held_by_ancestor(LOCK):
        lock = open(LOCK, "a")
        tap.note(f"waiting for {LOCK}")
        fcntl.flock(lock, fcntl.LOCK_EX)
    documented = compare.read_not_explained(f"{HERE}/not-explained")
    if not adhoc:
        check_list(tap, documented)
    before = auditlog.status()
    tap.note(f"audit: enabled {before['enabled']}, backlog_limit {before['backlog_limit']}, "
             f"lost {before['lost']}")
    if not before["enabled"]:
        auditlog.set_status(enabled=1)
    collector = auditlog.Collector()
    # The workloads' trees in /var/tmp; the reports and policies in /run, which
    # no workload writes (the launcher refuses a report or policy beneath a --rw
    # grant, and python's tempfile falls back from /tmp to /var/tmp).
    root = tempfile.mkdtemp(prefix="lr-audit.", dir="/var/tmp")
    private = tempfile.mkdtemp(prefix="lr-audit.", dir="/run" if os.path.isdir("/run") else
                               f"{REPO}/build")
    for d in (root, private):
        os.chmod(d, 0o755)
    ctx = Context(root, private, collector, [k for k in documented if k in compare.UNSEEN])
    started = time.monotonic()
    try:
        for w in chosen:
            run_workload(ctx, tap, w, adhoc)
    finally:
        collector.close()
        if not before["enabled"]:
            auditlog.set_status(enabled=0)
        if os.environ.get("LR_AUDIT_KEEP") == "1":
            tap.note(f"kept: the trees in {root}, each run's report and log in {private}")
        else:
            for d in (root, private):
                shutil.rmtree(d, ignore_errors=True)
        if lock:
            lock.close()
    tap.note(f"{ctx.runs} runs in {time.monotonic() - started:.0f} s")
    return tap.end()


def run_workload(ctx, tap, w, adhoc):
    t0, runs0 = time.monotonic(), ctx.runs
    why = w.unsupported(ctx)
    if why:
        tap.check(f"{w.name} # SKIP {why}", True)
        return
    ctx.enter(w)
    if adhoc:
        ctx.tree, ctx.home = os.getcwd(), os.environ.get("HOME", "/")
    try:
        w.prepare(ctx)
        for n, line in enumerate(w.command(ctx)):
            if "\n" in line:
                tap.note(f"{w.name}: $SCRIPT (argument {n} of its command):")
                for text in line.strip("\n").splitlines():
                    tap.note(f"  | {text}")
        if w.rounds:
            compare_workload(ctx, tap, w)
        if adhoc:
            show(tap, ctx.round_runs[0])
        for name, ok, details in w.controls(ctx):
            tap.check(name, ok, details)
        if w.learn:
            learn_workload(ctx, tap, w)
    except Exception:  # a broken workload fails, and the others still run
        tap.check(f"{w.name}: the harness ran it", False, traceback.format_exc().splitlines())
    finally:
        w.finish(ctx)
    tap.note(f"{w.name}: {ctx.runs - runs0} runs, {time.monotonic() - t0:.1f} s")


def show(tap, run):
    """Everything one run's comparison saw (run.py --compare)."""
    c = run.comparison
    tap.note(f"status {run.status}; {run.shell()}")
    for k in c.kernel:
        tap.note(f"kernel: {k.text}")
        tap.note(f"  call: {k.syscall_text}")
    for k, why in c.ignored:
        tap.note(f"set aside ({why}): {k.text}")
    for j in c.explained:
        tap.note(f"explain: {j.line}")
    for line in run.stderr.splitlines():
        tap.note(f"stderr: {line}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--compare"]:
        sys.exit(compare_one(sys.argv[2:]))
    sys.exit(main(sys.argv[1:]))
