"""The workloads of tests/audit: real programs on inputs made here, and the
edge cases of issue 20. Each is a class with

  name, rounds      follow the advice for at most this many rounds (1: one run;
                    0: no comparison, --learn only)
  converge          following all the advice must reach a run with no denial
  learn             also: --learn, then a clean confined rerun from the policy
  as_nobody         run the launcher as nobody (uid 65534)
  policy(ctx)       the launcher options of the first round
  command(ctx)      the command, as an argv
  make_tree(ctx)    write the inputs into ctx.tree (empty, made afresh each run)
  make_home(ctx)    the same for ctx.home, the command's $HOME
  prepare/finish    once before and after all its runs: mounts, sysctls
  streams(ctx)      (stdout, stderr, extra fds) when not pipes
  controls(ctx)     extra checks: yields (name, ok, detail lines)
  after_learn(ctx)  what happens between --learn and the rerun (npm cache clean)

ctx (run.py's Context) gives tree, home, work (the workload's directory),
the helpers (lr, tryop, edgeop), plain() and confined() runs.
"""
import os
import shutil
import socket
import subprocess

import compare

SYSTEM = ["--ro", "/usr", "--ro", "/etc"]  # /bin, /lib* are /usr's on merged-/usr Debian
NOBODY = 65534


def write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(path, mode)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Workload:
    rounds = 1
    converge = False
    learn = False
    as_nobody = False
    timeout = 300

    def prepare(self, ctx):
        pass

    def finish(self, ctx):
        pass

    def make_tree(self, ctx):
        pass

    def make_home(self, ctx):
        pass

    def env(self, ctx):
        return {}

    def streams(self, ctx):
        return None

    def controls(self, ctx):
        return iter(())

    def unsupported(self, ctx):
        """Why this host cannot run the workload, or None."""
        return None

    def after_learn(self, ctx):
        return []


# --- real programs -----------------------------------------------------------

C_FILES = {
    "Makefile": """\
CFLAGS = -O2 -Wall -Iinclude -Ibuild
SRCS = $(wildcard src/*.c)
OBJS = $(patsubst src/%.c,build/%.o,$(SRCS))

check: out/app
	./out/app

out/app: build/main.o build/libutil.a
	mkdir -p out
	$(CC) -o $@ build/main.o build/libutil.a

build/libutil.a: build/util.o build/strbuf.o
	$(AR) rcs $@ $^

build/%.o: src/%.c build/version.h
	$(CC) $(CFLAGS) -MMD -c -o $@ $<

build/version.h: tools/version.sh
	./tools/version.sh > $@

-include $(OBJS:.o=.d)
""",
    "include/config.h": "#define GREETING \"audit build\"\n",
    "tools/version.sh": "#!/bin/sh\necho '#define VERSION \"1.0\"'\n",
    "src/util.h": "int add(int a, int b);\n",
    "src/util.c": "#include \"util.h\"\nint add(int a, int b) { return a + b; }\n",
    "src/strbuf.h": "const char *greet(void);\n",
    "src/strbuf.c": "#include \"config.h\"\n#include \"strbuf.h\"\n"
                    "const char *greet(void) { return GREETING; }\n",
    "src/main.c": "#include <stdio.h>\n#include \"strbuf.h\"\n#include \"util.h\"\n"
                  "#include \"version.h\"\n"
                  "int main(void) { printf(\"%s %s %d\\n\", greet(), VERSION, add(2, 3));"
                  " return 0; }\n",
}


class CBuild(Workload):
    """make -j2 -k of a small multi-file C project: objects, a static library,
    a generated header, a link, a run. The first policy lets it read its
    sources and write build/ only."""
    name = "c-build"
    rounds = 6
    converge = True
    learn = True

    def make_tree(self, ctx):
        for rel, text in C_FILES.items():
            write(f"{ctx.tree}/proj/{rel}", text, 0o755 if rel.endswith(".sh") else 0o644)
        os.mkdir(f"{ctx.tree}/proj/build")

    def policy(self, ctx):
        p = f"{ctx.tree}/proj"
        return SYSTEM + ["--ro", f"{p}/src", "--ro", f"{p}/Makefile", "--rw", f"{p}/build",
                         "--rw", "/dev/null"]

    def command(self, ctx):
        return ["make", "-C", f"{ctx.tree}/proj", "-j2", "-k", "check"]


GIT_SCRIPT = """\
set -e
cd "$1"
git init -q -b main repo
cd repo
printf 'one\\n' > a.txt
mkdir src
printf 'int x;\\n' > src/x.c
git add -A
git commit -q -m first
git branch feature
git checkout -q feature
printf 'two\\n' >> a.txt
git commit -q -am second
git checkout -q main
git merge -q --no-edit feature
git tag -a v1 -m 'version 1'
git mv src/x.c src/y.c
git commit -q -m rename
git stash list
git log --oneline | wc -l
git gc -q
git clone -q . ../clone
git -C ../clone log --oneline -1
git worktree add -q -b topic ../topic
git status --short
"""


class Git(Workload):
    """git init, add, commit, branch, checkout, merge, tag, mv, gc, clone and
    a worktree; identity from ~/.gitconfig. The first policy lets it write
    the repository only."""
    name = "git"
    rounds = 6
    converge = True
    learn = True

    def make_tree(self, ctx):
        os.mkdir(f"{ctx.tree}/repo")

    def make_home(self, ctx):
        write(f"{ctx.home}/.gitconfig",
              "[user]\n\tname = Audit\n\temail = audit@example.org\n[gc]\n\tauto = 0\n")

    def policy(self, ctx):
        return SYSTEM + ["--rw", f"{ctx.tree}/repo", "--rw", "/dev/null"]

    def command(self, ctx):
        return ["bash", "-c", GIT_SCRIPT, "git-workload", ctx.tree]


PIP_SETUP = """\
from setuptools import setup
setup(name="auditpkg", version="1.0", package_dir={"": "src"}, packages=["auditpkg"],
      entry_points={"console_scripts": ["auditpkg = auditpkg:main"]})
"""


class Pip(Workload):
    """python3 -m venv, then pip install of a local package from its source
    directory (no index; setuptools builds it in the tree), then its entry
    point. The first policy lets it write the directory the venv goes in."""
    name = "pip"
    rounds = 8
    converge = True
    learn = True

    def make_tree(self, ctx):
        write(f"{ctx.tree}/pkg/setup.py", PIP_SETUP)
        write(f"{ctx.tree}/pkg/src/auditpkg/__init__.py",
              "def main():\n    print('auditpkg ok')\n")
        os.mkdir(f"{ctx.tree}/env")

    def make_home(self, ctx):
        os.mkdir(f"{ctx.home}/.cache")

    def policy(self, ctx):
        return SYSTEM + ["--rw", f"{ctx.tree}/env", "--rw", "/dev/null"]

    def command(self, ctx):
        venv = f"{ctx.tree}/env/venv"
        return ["bash", "-c",
                'set -e; /usr/bin/python3 -m venv "$1"; "$1/bin/pip" install -q --no-index '
                '--no-build-isolation --disable-pip-version-check "$2"; "$1/bin/auditpkg"',
                "pip-workload", venv, f"{ctx.tree}/pkg"]


class Npm(Workload):
    """npm install --offline of a local package tarball (made by npm pack
    before the runs), then its bin. ~/.npm exists, as in a home where npm has
    run before; ~/.npmrc is read. The first policy lets it write the project."""
    name = "npm"
    rounds = 8
    converge = True
    learn = True
    quiet = {"npm_config_update_notifier": "false"}

    def prepare(self, ctx):
        dep = f"{ctx.work}/fixture/audit-dep"
        write(f"{dep}/package.json",
              '{"name": "audit-dep", "version": "1.0.0", "main": "index.js",\n'
              ' "bin": {"audit-dep": "bin/cli.js"}, "license": "MIT"}\n')
        write(f"{dep}/index.js", 'module.exports = () => "audit-dep ok";\n')
        write(f"{dep}/bin/cli.js", '#!/usr/bin/env node\nconsole.log(require("..")());\n', 0o755)
        env = dict(ctx.base_env(), HOME=f"{ctx.work}/fixture", **self.quiet)
        subprocess.run(["npm", "pack", "-q", "--pack-destination", f"{ctx.work}/fixture"],
                       cwd=dep, env=env, check=True, stdout=subprocess.DEVNULL)

    def make_tree(self, ctx):
        os.mkdir(f"{ctx.tree}/tarballs")
        shutil.copy(f"{ctx.work}/fixture/audit-dep-1.0.0.tgz", f"{ctx.tree}/tarballs/")
        write(f"{ctx.tree}/app/package.json",
              '{"name": "audit-app", "version": "1.0.0", "private": true,\n'
              ' "dependencies": {"audit-dep": "file:../tarballs/audit-dep-1.0.0.tgz"}}\n')

    def make_home(self, ctx):
        os.mkdir(f"{ctx.home}/.npm")
        write(f"{ctx.home}/.npmrc", "fund=false\naudit=false\nupdate-notifier=false\n")

    def env(self, ctx):
        return self.quiet

    def policy(self, ctx):
        return SYSTEM + ["--rw", f"{ctx.tree}/app", "--rw", "/dev/null"]

    def command(self, ctx):
        return ["bash", "-c",
                'set -e; cd "$1"; npm install --offline --no-audit --no-fund --loglevel=warn; '
                './node_modules/.bin/audit-dep', "npm-workload", f"{ctx.tree}/app"]

    def after_learn(self, ctx):
        """The policy must survive a cache clean."""
        env = dict(ctx.base_env(), HOME=ctx.home, **self.quiet)
        subprocess.run(["npm", "cache", "clean", "--force"], env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return ["npm cache clean --force"]


class NpmFirstRun(Npm):
    """--learn only: the same npm install in a home where npm never ran (no
    ~/.npm before the run): the learned policy must still not grant $HOME,
    and must survive a cache clean."""
    name = "npm-first-run"
    rounds = 0

    def make_home(self, ctx):
        write(f"{ctx.home}/.npmrc", "fund=false\naudit=false\nupdate-notifier=false\n")


BATTERY = r"""
t=$1 ok=$1/ok
try() { "$@" 2>/dev/null || echo "failed: $*"; }
# renames: within a granted directory, into, out of and within ungranted ones
try mv "$ok/a" "$ok/sub/a"
try mv "$ok/b" "$t/mv-into/b"
try mv "$t/mv-out/c" "$ok/c"
try mv "$t/mv-within/d" "$t/mv-within/d2"
try mv "$ok/dir" "$t/mv-dir/dir"
# links
try ln "$ok/e" "$ok/e-hard"
try ln "$t/ln-from/f" "$ok/f-hard"
try ln "$ok/e" "$t/ln-into/e-hard"
try ln -s target "$ok/sym"
try ln -s target "$t/symlink/sym"
# fifos, sockets, device nodes (without CAP_MKNOD a granted mknod is EPERM)
try mkfifo "$ok/fifo"
try mkfifo "$t/mkfifo/fifo"
try python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' \
	"$t/bind-unix/sock"
try mknod "$ok/null" c 1 3
try mknod "$t/mknod-char/null" c 1 3
try mknod "$t/mknod-block/loop" b 7 0
# directories and removal
try mkdir "$t/mkdir/newdir"
try rmdir "$t/rmdir/emptydir"
try rm "$t/rm/g"
try rm -r "$t/rm-r/tree"
# truncates: by an open for writing, by O_TRUNC, by path
try truncate -s 0 "$t/files/truncate-open"
try sh -c ': > "$1"' sh "$t/files/redirect-trunc"
try "$TRYOP" truncate "$t/files/truncate-path"
try truncate -s 0 "$ok/h"
# O_TMPFILE: in a granted directory, in an ungranted one, linked into one
try "$EDGEOP" tmpfile "$ok"
try "$EDGEOP" tmpfile "$t/tmpfile"
try "$EDGEOP" tmplink "$ok" "$t/tmplink/from-tmpfile"
# the standard streams and descriptors by name (a pipe: allowed)
echo to-stdout > /dev/stdout
echo to-stdout-appended >> /dev/stdout
exec 4>&1
echo to-fd-4 > /dev/fd/4
echo to-proc-fd-4 > /proc/self/fd/4
# devices: writing one not granted, an ioctl on one opened for reading
try sh -c 'echo x > /dev/zero'
try "$TRYOP" ioctl-tcgets /dev/zero
# reading and executing are granted everywhere here
cat "$t/files/readable" > /dev/null
"$t/files/run.sh"
exit 0
"""


class Battery(Workload):
    """A shell battery: renames, links, fifos, a socket, device nodes,
    directories, truncates, O_TMPFILE files, /dev/stdout and /dev/fd/N (pipes),
    a device write and ioctl, under --ro / --rw ok --rw /dev/null. Each
    refused operation has an ungranted directory (or file) of its own: the
    kernel names the directory an entry is made in or removed from, so two
    operations in one directory would be one denial."""
    name = "shell-battery"

    def make_tree(self, ctx):
        for d in ("ok/sub", "ok/dir", "mv-into", "mv-out", "mv-within", "mv-dir", "ln-from",
                  "ln-into", "symlink", "mkfifo", "bind-unix", "mknod-char", "mknod-block",
                  "mkdir", "rmdir/emptydir", "rm", "rm-r/tree/deep", "files", "tmpfile",
                  "tmplink"):
            os.makedirs(f"{ctx.tree}/{d}")
        for f in ("ok/a", "ok/b", "ok/e", "ok/h", "mv-out/c", "mv-within/d", "ln-from/f", "rm/g",
                  "rm-r/tree/deep/x", "files/truncate-open", "files/redirect-trunc",
                  "files/truncate-path", "files/readable"):
            write(f"{ctx.tree}/{f}", "data\n")
        write(f"{ctx.tree}/files/run.sh", "#!/bin/sh\necho ran\n", 0o755)

    def env(self, ctx):
        return {"TRYOP": ctx.tryop, "EDGEOP": ctx.edgeop}

    def policy(self, ctx):
        return ["--ro", "/", "--rw", f"{ctx.tree}/ok", "--rw", "/dev/null"]

    def command(self, ctx):
        return ["bash", "-c", BATTERY, "battery", ctx.tree]


class Network(Workload):
    """TCP bind (a granted port, another, port 0), connect (a listener, a
    closed port) by tryop and by bash's /dev/tcp; UDP bind to port 0 and
    sends to two ports, confined from ABI 10 (below it no UDP option is
    given, and nothing may be refused or explained)."""
    name = "tcp-udp"

    def prepare(self, ctx):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.ports = {"listen": self.listener.getsockname()[1], "bind": free_port(),
                      "other": free_port(), "closed": free_port()}

    def finish(self, ctx):
        self.listener.close()

    def policy(self, ctx):
        udp = ["--udp-bind", str(self.ports["bind"]), "--udp-connect", str(self.ports["listen"])]
        return ["--ro", "/", "--rw", "/dev/null", "--tcp-bind", str(self.ports["bind"]),
                "--tcp-connect", str(self.ports["listen"])] + (udp if ctx.abi >= 10 else [])

    def command(self, ctx):
        p = self.ports
        t = ctx.tryop
        return ["bash", "-c", f"""
{t} bind {p['bind']}; {t} bind {p['other']}; {t} bind 0
{t} connect {p['listen']}; {t} connect {p['closed']}
(exec 3<>/dev/tcp/127.0.0.1/{p['listen']}) && echo bash-connect-ok
(exec 3<>/dev/tcp/127.0.0.1/{p['closed']}) 2>/dev/null || echo bash-connect-failed
python3 -c 'import socket; socket.create_server(("127.0.0.1", 0))' 2>/dev/null ||
	echo py-bind-0-failed
{t} udp-bind 0; {t} udp-send {p['listen']}; {t} udp-send {p['closed']}
exit 0"""]


class TcpBindNone(Workload):
    """--tcp-bind none and a bind to 8080: the advice cannot be added as
    given (--tcp-bind 8080 contradicts none); it must say to replace none."""
    name = "tcp-bind-none"

    def policy(self, ctx):
        return ["--ro", "/", "--tcp-bind", "none"]

    def command(self, ctx):
        return [ctx.tryop, "bind", "8080"]


class PortZero(Workload):
    """A bind to port 0 (the kernel picks one) where only 8080 is granted."""
    name = "tcp-bind-port-0"

    def policy(self, ctx):
        return ["--ro", "/", "--tcp-bind", "8080"]

    def command(self, ctx):
        return [ctx.tryop, "bind", "0"]


class Signals(Workload):
    """--scope signal: signals to a process outside (one is started for it),
    to a child inside, to the process group (kill 0: the launcher is in it)
    and to another outside process's group (kill -PGID)."""
    name = "signals"

    def prepare(self, ctx):
        self.outside = subprocess.Popen(["sleep", "600"], start_new_session=True)
        self.group = subprocess.Popen(["sleep", "600"], start_new_session=True)

    def finish(self, ctx):
        for p in (self.outside, self.group):
            p.kill()
            p.wait()

    def policy(self, ctx):
        return ["--ro", "/", "--rw", "/dev/null", "--scope", "signal"]

    def command(self, ctx):
        s = self.outside.pid
        return ["bash", "-c", f"""
kill -0 {s} 2>/dev/null || echo kill-outside-refused
kill -TERM {s} 2>/dev/null || echo term-outside-refused
sleep 30 & kill $! && wait $! 2>/dev/null; echo child-killed
kill -0 0 && echo kill-0-ok
kill -0 -- -{self.group.pid} 2>/dev/null || echo kill-outside-group-refused
exit 0"""]


class AbstractUnix(Workload):
    """--scope abstract-unix: a connect to an abstract socket a process outside
    listens on (one is started for it), and to one the command makes itself."""
    name = "abstract-unix"

    def prepare(self, ctx):
        self.socket = f"@lr-audit-{os.getpid()}"
        self.server = subprocess.Popen([ctx.tryop, "ulisten", self.socket],
                                       stdout=subprocess.PIPE, text=True)
        self.server.stdout.readline()  # "ready"

    def finish(self, ctx):
        self.server.terminate()
        self.server.wait()

    def policy(self, ctx):
        return ["--ro", "/", "--scope", "abstract-unix"]

    def command(self, ctx):
        return ["bash", "-c", '"$1" uconnect "$2"; "$1" uself; exit 0', "abstract", ctx.tryop,
                self.socket]


THREADS_PY = """
import concurrent.futures, os, sys
no, secret = sys.argv[1], sys.argv[2]
def work(i):
    out = []
    for path, flags in ((f"{no}/py{i}", os.O_CREAT | os.O_WRONLY), (secret, os.O_RDONLY)):
        try:
            os.close(os.open(path, flags, 0o644))
            out.append("ok")
        except OSError as e:
            out.append(e.strerror)
    return out
with concurrent.futures.ThreadPoolExecutor(4) as pool:
    print(list(pool.map(work, range(8))))
"""


class Threads(Workload):
    """A pthread pool (edgeop threads) and a Python thread pool creating files
    where they may not and reading a file outside the grants: each thread's
    call is its process's."""
    name = "threads"

    def make_tree(self, ctx):
        os.makedirs(f"{ctx.tree}/ok")
        os.makedirs(f"{ctx.tree}/no")
        write(f"{ctx.tree}/secret/file", "s\n")

    def policy(self, ctx):
        return SYSTEM + ["--rw", f"{ctx.tree}/ok"]

    def command(self, ctx):
        return ["bash", "-c", '"$1" threads 8 "$2/no"; "$1" threads 2 "$2/ok"; '
                'python3 -c "$3" "$2/no" "$2/secret/file"; exit 0',
                "threads", ctx.edgeop, ctx.tree, THREADS_PY]


# --- the edge cases of issue 20 ------------------------------------------------


class Tmpfile(Workload):
    """An O_TMPFILE open in a directory without write rights: the kernel
    refuses write_file on the unnamed file it made there."""
    name = "o-tmpfile"

    def make_tree(self, ctx):
        os.makedirs(f"{ctx.tree}/ok")
        os.makedirs(f"{ctx.tree}/no")

    def policy(self, ctx):
        return ["--ro", "/", "--rw", f"{ctx.tree}/ok"]

    def command(self, ctx):
        return ["bash", "-c", '"$1" tmpfile "$2/no"; "$1" tmpfile "$2/ok"; exit 0', "tmpfile",
                ctx.edgeop, ctx.tree]


class NonDumpable(Workload):
    """As nobody: a process that made itself non-dumpable (as ssh and
    gpg-agent do) creates a file where it may not; a dumpable one does the
    same in another directory. An unprivileged tracer cannot read the first."""
    name = "non-dumpable"
    as_nobody = True

    def make_tree(self, ctx):
        for d in ("ok", "no-nodump", "no-dumpable"):
            os.makedirs(f"{ctx.tree}/{d}")

    def policy(self, ctx):
        return ["--ro", "/", "--rw", f"{ctx.tree}/ok"]

    def command(self, ctx):
        return ["bash", "-c", '"$1" nodump create "$2/no-nodump/f"; '
                '"$1" create "$2/no-dumpable/f"; exit 0', "nodump", ctx.edgeop, ctx.tree]

    def controls(self, ctx):
        run = ctx.confined(self, ["--explain"] + self.policy(ctx), "with --explain")
        tail = [line for line in run.stderr.splitlines() if line.strip()][-1:]
        ok = bool(tail) and tail[0].startswith("landlock-run ") and "dumpable" in tail[0]
        yield (f"{self.name}: with --explain the run ends with one line saying a non-dumpable "
               "process went unseen (a prefix other than 'landlock-run: ')", ok,
               [f"stderr: {line}" for line in run.stderr.splitlines()] or ["stderr: (empty)"])
        unseen = ctx.round_runs[0].unseen
        yield (f"{self.name}: the JSON report ends with the unseen count, naming edgeop",
               bool(unseen) and unseen.get("comm") == "edgeop" and unseen.get("calls", 0) > 0,
               [f"unseen: {unseen}"])


class NonDumpableRoot(NonDumpable):
    """The same with the launcher root: the tracer drops CAP_SYS_PTRACE before
    the command runs, so it cannot resolve a non-dumpable process's paths
    either (its /proc/PID/cwd and root need the capability); the report's
    unseen line names the process."""
    name = "non-dumpable-root"
    as_nobody = False


class OtherAbi(Workload):
    """A file made through the i386 system-call ABI (int 0x80 from a 64-bit
    process), which the tracer does not stop; beside it, the same through
    the native ABI in another directory. x86_64 only."""
    name = "i386-abi"

    def unsupported(self, ctx):
        return None if os.uname().machine == "x86_64" else "int 0x80 is x86_64's"

    def make_tree(self, ctx):
        for d in ("ok", "no-i386", "no-native"):
            os.makedirs(f"{ctx.tree}/{d}")

    def policy(self, ctx):
        return ["--ro", "/", "--rw", f"{ctx.tree}/ok"]

    def command(self, ctx):
        return ["bash", "-c", '"$1" i386-create "$2/no-i386/f"; "$1" create "$2/no-native/f"; '
                'exit 0', "i386", ctx.edgeop, ctx.tree]

    def controls(self, ctx):
        run = ctx.round_runs[0]
        i386 = [k for k in run.comparison.kernel if k.obj == f"{ctx.tree}/no-i386"]
        yield ("i386-abi control: the kernel refuses the int 0x80 create and logs it with "
               "arch=40000003", run.stdout.split()[:1] == ["EACCES"] and
               any(k.arch == "40000003" for k in i386),
               [f"stdout: {run.stdout.strip()}"] + [f"kernel: {k.text} arch={k.arch}"
                                                    for k in run.comparison.kernel])


NODE_URING = """
const fs = require("fs");
fs.writeFile(process.argv[1], "x", (e) => console.log("node write:", e ? e.code : "ok"));
"""


class IoUring(Workload):
    """File operations through io_uring: edgeop's IORING_OP_OPENAT, and node
    with UV_USE_IO_URING=1 writing a file. Under the tracer io_uring_setup
    fails (ENOSYS): node falls back to system calls, which are seen."""
    name = "io-uring"

    def make_tree(self, ctx):
        os.makedirs(f"{ctx.tree}/ok")
        os.makedirs(f"{ctx.tree}/no")

    def env(self, ctx):
        return {"UV_USE_IO_URING": "1"}

    def policy(self, ctx):
        return ["--ro", "/", "--rw", f"{ctx.tree}/ok"]

    def command(self, ctx):
        return ["bash", "-c", '"$1" uring-create "$2/no/uring"; node -e "$3" "$2/no/node"; exit 0',
                "uring", ctx.edgeop, ctx.tree, NODE_URING]

    def controls(self, ctx):
        run = ctx.round_runs[0]
        yield ("io-uring: under the tracer io_uring_setup fails with ENOSYS",
               "io_uring_setup: ENOSYS" in run.stdout, [f"stdout: {run.stdout.strip()}"])
        # The baseline refuses io_uring to every run; --allow-syscalls lets it
        # through, except while traced.
        allowed = self.policy(ctx) + ["--allow-syscalls", "io_uring"]
        traced = ctx.confined(self, allowed, "io_uring allowed, traced")
        told = [j.line for j in traced.comparison.explained
                if str(j.d.get("syscall")).startswith("io_uring")]
        yield ("io-uring: under the tracer io_uring_setup fails with ENOSYS even with "
               "--allow-syscalls io_uring, and that is not reported",
               "io_uring_setup: ENOSYS" in traced.stdout and not told,
               [f"stdout: {traced.stdout.strip()}", f"run: {traced.shell()}"] +
               [f"explain: {line}" for line in told])
        plain = ctx.confined(self, allowed, "control: io_uring allowed, no tracer",
                             explain=False,
                             command=[ctx.edgeop, "uring-create", f"{ctx.tree}/no/uring"])
        seen = [k for k in plain.comparison.kernel if k.obj == f"{ctx.tree}/no"]
        uring = [k for k in seen if k.syscall is None or k.syscall == 426]
        yield ("io-uring control: without the tracer the kernel refuses the io_uring create "
               "(EACCES) and its record has no system call but io_uring's", plain.stdout.strip()
               == "EACCES" and bool(uring) and uring == seen,
               [f"stdout: {plain.stdout.strip()}"] + [f"kernel: {k.text} syscall={k.syscall}"
                                                      for k in plain.comparison.kernel])


class Noexec(Workload):
    """A script and a binary on a tmpfs mounted noexec, not granted: the
    mount refuses the exec before Landlock is asked (no kernel record), and
    no grant would allow it. Beside them, the same script in an ungranted
    directory of the disk (Landlock's refusal) and a write to a read-only
    mount (EROFS)."""
    name = "noexec-mount"

    def prepare(self, ctx):
        self.mnt = f"{ctx.work}/mnt"
        for d, opts in (("noexec", "noexec"), ("ro", "ro")):
            os.makedirs(f"{self.mnt}/{d}")
            subprocess.run(["mount", "-t", "tmpfs", "-o", "mode=0755,size=4m", "tmpfs",
                            f"{self.mnt}/{d}"], check=True)
        write(f"{self.mnt}/noexec/run.sh", "#!/bin/sh\necho ran\n", 0o755)
        shutil.copy(ctx.tryop, f"{self.mnt}/noexec/tryop")
        write(f"{self.mnt}/ro/file", "data\n")
        for d in ("noexec", "ro"):
            subprocess.run(["mount", "-o", f"remount,{d}", f"{self.mnt}/{d}"], check=True)

    def finish(self, ctx):
        for d in ("noexec", "ro"):
            subprocess.run(["umount", f"{self.mnt}/{d}"], check=False)

    def make_tree(self, ctx):
        os.makedirs(f"{ctx.tree}/ok")
        write(f"{ctx.tree}/disk/run.sh", "#!/bin/sh\necho ran\n", 0o755)

    def policy(self, ctx):
        return SYSTEM + ["--rw", f"{ctx.tree}/ok"]

    def command(self, ctx):
        return ["bash", "-c", f"""
{self.mnt}/noexec/run.sh || echo noexec-script-refused
{self.mnt}/noexec/tryop abi || echo noexec-binary-refused
{ctx.tree}/disk/run.sh || echo disk-script-refused
echo x > {self.mnt}/ro/new || echo ro-create-refused
echo x >> {self.mnt}/ro/file || echo ro-write-refused
exit 0""", "noexec"]

    def controls(self, ctx):
        try:
            subprocess.run([f"{self.mnt}/noexec/run.sh"], capture_output=True)
            refused = "it ran"
        except PermissionError as e:
            refused = None if e.errno == 13 else str(e)
        yield ("noexec control: without the launcher the mount refuses the exec (EACCES)",
               refused is None, [f"exec: {refused}"])


class Acl(Workload):
    """A mode-644 file of nobody's with a POSIX ACL entry user:root:---: the
    command, root without capabilities, is refused by the ACL before Landlock
    is asked. Beside it, a plain file in the same ungranted directory."""
    name = "posix-acl"

    def make_tree(self, ctx):
        os.makedirs(f"{ctx.tree}/ok")
        write(f"{ctx.tree}/acl/refused", "secret\n")
        write(f"{ctx.tree}/acl/plain", "plain\n")
        os.chown(f"{ctx.tree}/acl/refused", NOBODY, NOBODY)
        subprocess.run(["setfacl", "-m", "u:root:---", f"{ctx.tree}/acl/refused"], check=True)

    def policy(self, ctx):
        return SYSTEM + ["--rw", f"{ctx.tree}/ok"]

    def command(self, ctx):
        return ["bash", "-c", f"cat {ctx.tree}/acl/refused; cat {ctx.tree}/acl/plain; exit 0"]

    def controls(self, ctx):
        ctx.reset(self)
        r = subprocess.run([ctx.lr, "--", "cat", f"{ctx.tree}/acl/refused"], capture_output=True,
                           text=True)
        yield ("posix-acl control: without capabilities and with reading unconfined, the ACL "
               "refuses root", r.returncode != 0 and "Permission denied" in r.stderr,
               [f"status {r.returncode}: {r.stderr.strip()}"])


class ProtectedRegular(Workload):
    """fs.protected_regular=1 (switched on for this workload, then back): in
    a sticky world-writable directory, an O_CREAT open of nobody's file is
    refused to root before Landlock is asked. Beside it, a new file in the
    same ungranted directory (Landlock's refusal)."""
    name = "protected-regular"

    def prepare(self, ctx):
        with open("/proc/sys/fs/protected_regular") as f:
            self.saved = f.read().strip()
        with open("/proc/sys/fs/protected_regular", "w") as f:
            f.write("1")

    def finish(self, ctx):
        with open("/proc/sys/fs/protected_regular", "w") as f:
            f.write(self.saved)

    def make_tree(self, ctx):
        os.makedirs(f"{ctx.tree}/ok")
        os.makedirs(f"{ctx.tree}/sticky")
        os.chmod(f"{ctx.tree}/sticky", 0o1777)
        write(f"{ctx.tree}/sticky/theirs", "theirs\n", 0o666)
        os.chown(f"{ctx.tree}/sticky/theirs", NOBODY, NOBODY)

    def policy(self, ctx):
        return ["--ro", "/", "--rw", f"{ctx.tree}/ok"]

    def command(self, ctx):
        s = f"{ctx.tree}/sticky"
        return ["bash", "-c", f"echo x >> {s}/theirs || echo append-refused; "
                f"echo y > {s}/mine || echo create-refused; exit 0"]

    def controls(self, ctx):
        ctx.reset(self)
        r = subprocess.run(["sh", "-c", f"echo x >> {ctx.tree}/sticky/theirs"],
                           capture_output=True, text=True)
        yield ("protected-regular control: without the launcher root is refused too",
               r.returncode != 0 and "Permission denied" in r.stderr,
               [f"status {r.returncode}: {r.stderr.strip()}"])


class ModeBitsAfter(Workload):
    """Root without capabilities is "other" to nobody's directories: in
    theirs/ (0755) the mode bits refuse every creation, removal and rename,
    but the kernel asks Landlock first (the security_path_* hooks come before
    may_create and may_delete), so each is Landlock's denial, logged; in
    closed/ (0700) the lookup's search check refuses first, and nothing is
    logged. Beside them, plain/ (root's), where only Landlock refuses."""
    name = "mode-bits-after"

    def make_tree(self, ctx):
        for d, mode in (("ok", 0o755), ("plain", 0o755), ("theirs", 0o755), ("closed", 0o700)):
            os.makedirs(f"{ctx.tree}/{d}")
            write(f"{ctx.tree}/{d}/file", "x\n")
            if d in ("theirs", "closed"):
                os.chown(f"{ctx.tree}/{d}/file", NOBODY, NOBODY)
                os.chown(f"{ctx.tree}/{d}", NOBODY, NOBODY)
            os.chmod(f"{ctx.tree}/{d}", mode)

    def policy(self, ctx):
        return ["--ro", "/", "--rw", "/dev/null", "--rw", f"{ctx.tree}/ok"]

    def command(self, ctx):
        steps = []
        for d in ("plain", "theirs", "closed"):
            t = f"{ctx.tree}/{d}"
            steps += [f"mkdir {t}/d", f": > {t}/f", f"mv {t}/file {t}/moved", f"rm -f {t}/file",
                      f"ln -s x {t}/sym"]
        return ["bash", "-c", "; ".join(f"{{ {s}; }} 2>/dev/null || echo {s.split()[0]}-refused"
                                        for s in steps) + "; exit 0"]

    def controls(self, ctx):
        ctx.reset(self)
        refused = []
        for d in ("theirs", "closed"):
            r = subprocess.run([ctx.lr, "--", "mkdir", f"{ctx.tree}/{d}/d"], capture_output=True,
                               text=True)
            refused.append((d, r.returncode, r.stderr.strip()))
        yield ("mode-bits-after control: unconfined, root without capabilities may not make a "
               "directory in nobody's directories", all(rc != 0 for _, rc, _ in refused),
               [f"{d}: status {rc}: {err}" for d, rc, err in refused])


class HardLinks(Workload):
    """Hard links out of a read-only tree into a writable one: cp -al, ln, and
    a local git clone (which falls back to copying when a link fails). The
    kernel refuses each link (the file would gain the destination's rights);
    none may be advised as write on the source tree, and each says so."""
    name = "hard-links"

    def make_tree(self, ctx):
        for f in ("src/a", "src/sub/b", "repo/x.txt"):
            write(f"{ctx.tree}/{f}", "data\n")
        os.mkdir(f"{ctx.tree}/ok")
        git = ["git", "-C", f"{ctx.tree}/repo", "-c", "user.name=Audit",
               "-c", "user.email=audit@example.org"]
        for args in ("init -q -b main", "add -A", "commit -q -m one"):
            subprocess.run(git + args.split(), check=True, env=ctx.base_env())

    def policy(self, ctx):
        return ["--ro", "/", "--rw", "/dev/null", "--rw", f"{ctx.tree}/ok"]

    def command(self, ctx):
        t = ctx.tree
        return ["bash", "-c", f"cp -l -R {t}/src {t}/ok/cp-l 2>/dev/null || echo cp-refused; "
                f"ln {t}/src/a {t}/ok/a 2>/dev/null || echo ln-refused; "
                f"git clone -q {t}/repo {t}/ok/clone && cat {t}/ok/clone/x.txt"]

    def controls(self, ctx):
        run = ctx.round_runs[0]
        links = [j for j in run.comparison.explained if j.d.get("syscall") in ("link", "linkat")]
        src = [j.line for j in links if j.allow or not j.d.get("why", "").startswith("a hard link")]
        yield (f"{self.name}: every link out of the read-only trees is explained and not "
               "advised (no write on the source), and the clone still copies",
               bool(links) and not src and "data" in run.stdout,
               src + [f"stdout: {run.stdout.strip()}", f"links explained: {len(links)}"])


class DroppedCaps(Workload):
    """Root without capabilities in a directory it may write: a change of owner
    (CAP_CHOWN), of nobody's file's mode and times (CAP_FOWNER), a device
    (CAP_MKNOD) are refused by the dropped capability, which Landlock never logs
    (it has no right for them); --explain says so in capability records, kept
    apart from the denials. Beside them, plain/, where only Landlock refuses."""
    name = "dropped-caps"

    def make_tree(self, ctx):
        for d in ("ok", "plain"):
            os.makedirs(f"{ctx.tree}/{d}")
        for f in ("mine", "theirs", "times"):
            write(f"{ctx.tree}/ok/{f}", "x\n")
        for f in ("theirs", "times"):
            os.chown(f"{ctx.tree}/ok/{f}", NOBODY, NOBODY)

    def policy(self, ctx):
        return ["--ro", "/", "--rw", "/dev/null", "--rw", f"{ctx.tree}/ok"]

    def command(self, ctx):
        t = ctx.tree
        steps = [f"chown {NOBODY} {t}/ok/mine", f"chmod 600 {t}/ok/theirs",
                 f"touch -d 2001-01-01 {t}/ok/times", f"mknod {t}/ok/dev c 1 3",
                 f"touch {t}/plain/new"]
        return ["bash", "-c", "; ".join(f"{{ {s}; }} 2>/dev/null || echo {s.split()[0]}-refused"
                                        for s in steps) + "; exit 0"]

    def controls(self, ctx):
        ctx.reset(self)
        t = ctx.tree
        r = subprocess.run(["sh", "-c", f"chown {NOBODY} {t}/ok/mine && chmod 600 {t}/ok/theirs && "
                            f"touch -d 2001-01-01 {t}/ok/times && mknod {t}/ok/dev c 1 3"],
                           capture_output=True, text=True)
        yield ("dropped-caps control: without the launcher root changes the owner, nobody's "
               "file's mode and times, and makes the device", r.returncode == 0,
               [f"status {r.returncode}: {r.stderr.strip()}"])


class StdoutFile(Workload):
    """The command's stdout, stderr and fd 5 are files outside the grants
    (opened by the caller): echo > /dev/stdout, >> /dev/stdout, > /dev/stderr,
    > /dev/fd/5 and > /proc/self/fd/5 reopen them by name, which Landlock
    checks; >&5 writes to the descriptor, which it does not."""
    name = "stdout-file"

    def make_tree(self, ctx):
        os.makedirs(f"{ctx.tree}/ok")
        os.makedirs(f"{ctx.tree}/closed")

    def streams(self, ctx):
        c = f"{ctx.tree}/closed"
        return (open(f"{c}/stdout.log", "ab"), open(f"{c}/stderr.log", "ab"),
                {5: open(f"{c}/fd5.log", "ab")})

    def policy(self, ctx):
        return ["--ro", "/", "--rw", f"{ctx.tree}/ok"]

    def command(self, ctx):
        return ["bash", "-c", "echo a > /dev/stdout; echo b >> /dev/stdout; echo c > /dev/stderr;"
                " echo d > /dev/fd/5; echo e > /proc/self/fd/5; echo f >&5; exit 0"]


class ProcFold(Workload):
    """Twelve processes each reading their own /proc/self/status (twice) and
    /proc/thread-self/stat, and one /proc/stat (issue 26.5): the report folds
    each kind beneath /proc/PID into one record with its pattern and count,
    which must still account for every process's kernel record."""
    name = "proc-fold"

    def policy(self, ctx):
        return SYSTEM

    def command(self, ctx):
        return ["bash", "-c", "for i in $(seq 12); do cat /proc/self/status /proc/self/status;"
                " cat /proc/thread-self/stat; done; cat /proc/stat; exit 0"]

    def controls(self, ctx):
        run = ctx.round_runs[0]
        folds = sorted((j.d.get("pattern"), j.d.get("count")) for j in run.comparison.explained
                       if "pattern" in j.d)
        yield (f"{self.name}: one record per kind beneath /proc/PID, counting the twelve "
               "processes (and threads)",
               folds == [("/proc/PID/status", 12), ("/proc/PID/task/TID/stat", 12)],
               [f"folded: {folds}"] + [j.line for j in run.comparison.explained])
        kernel = {k.obj for k in run.comparison.kernel if compare.proc_pattern(k.obj)}
        yield (f"{self.name}: the kernel logged each process's /proc/PID path (the control: "
               "there were many to fold)", len(kernel) >= 24, sorted(kernel))


class AdHoc(Workload):
    """One command line given to run.py --compare, run where it is, as it is."""
    name = "compare"

    def __init__(self, policy, command):
        self.options, self.argv = policy, command

    def policy(self, ctx):
        return self.options

    def command(self, ctx):
        return self.argv

    def env(self, ctx):
        return dict(os.environ)


ALL = [CBuild(), Git(), Pip(), Npm(), NpmFirstRun(), Battery(), Network(), TcpBindNone(),
       PortZero(), Signals(), AbstractUnix(), Threads(), Tmpfile(), NonDumpable(),
       NonDumpableRoot(), OtherAbi(), IoUring(), Noexec(), Acl(), ProtectedRegular(),
       ModeBitsAfter(), DroppedCaps(), StdoutFile(), HardLinks(), ProcFold()]
