"""command(), run() and spawn_confined() with the installed launcher, on this kernel: the
status descriptor read back as the API promises. A forged launcher failure (the command
prints the launcher's line and exits 125) comes out executed, a real one not, and the
command cannot write the status descriptor."""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import landlock_run as lr
from landlock_run import Policy
from support import KERNEL_ABI, VERDICT, needs_landlock, sh

FORGED = "landlock-run: cannot open --rw path /x: No such file or directory"
FORGED_LINE = '{"exec":false,"status":125,"error":"landlock-run: forged"}'


def status_fd(proc: lr.ConfinedProcess[bytes] | lr.ConfinedProcess[str]) -> int:
    args = list(proc.args)
    return int(args[args.index("--status-fd") + 1])


def open_fds() -> set[int]:
    return {int(fd) for fd in os.listdir("/proc/self/fd")}


@needs_landlock
def test_a_denied_write_leaves_no_file_a_granted_one_lands(tmp_path: Path) -> None:
    allowed, denied = tmp_path / "allowed", tmp_path / "denied"
    allowed.mkdir()
    denied.mkdir()

    def write(d: Path) -> list[str]:
        return ["sh", "-c", f"echo data > '{d}/file'"]

    # control: without the launcher both writes work
    assert sh(*write(denied)).returncode == 0 and (denied / "file").exists()
    (denied / "file").unlink()
    d = lr.run(Policy(ro=["/"], rw=[allowed]), write(denied), capture_output=True, text=True)
    assert d.returncode != 0 and "Permission denied" in d.stderr
    assert d.status.executed and not lr.is_launcher_failure(d.returncode, d.stderr)
    assert not (denied / "file").exists(), "the denied write landed"
    g = lr.run(Policy(ro=["/"], rw=[allowed]), write(allowed), capture_output=True)
    assert g.returncode == 0 and g.stderr == b"" and g.status.executed
    assert (allowed / "file").read_text() == "data\n"


@needs_landlock
def test_a_run_is_executed_in_the_whole_tree_mode_as_the_launchers_child_under_what_probe_says() -> None:
    probed = lr.probe()
    proc = lr.spawn_confined(Policy(ro=["/"]), ["sh", "-c", "echo $$; exit 3"], stdout=subprocess.PIPE)
    out, _ = proc.communicate()
    assert proc.args[1:4] == ["--status-fd", proc.args[2], "--kill-tree"] and proc.args.count("--kill-tree") == 1
    # the end record: the command's exit status, as the launcher exits with it
    assert proc.status() == lr.ConfinedStatus(
        executed=True, pid=int(out), abi=KERNEL_ABI, abi_used=probed.abi_used, enforcement=VERDICT, status=None, error=None,
        exit=3, signal=None,
    )  # fmt: skip
    assert int(out) != proc.pid and proc.returncode == 3
    assert proc.started() == proc.status()
    # the policy's own kill_tree: the option once
    assert lr.spawn_confined(Policy(ro=["/"], kill_tree=True), ["true"]).args.count("--kill-tree") == 1


def start_time(pid: int) -> str | None:
    """The process's start time (/proc/PID/stat field 22), None once it is gone or a zombie:
    with the pid, what tells it from a process that reuses the pid."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return None
    return None if fields[0] in ("Z", "X") else fields[19]


def left(pid: int, started: str | None) -> bool:
    return started is not None and start_time(pid) == started


# a command that leaves a grandchild in a session of its own (out of every process group a
# harness could kill) and says its pid, then waits
QUIET = Policy(ro=["/"], rw=["/dev/null"])
LEAVES = ["sh", "-c", "setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $!; exec sleep 300"]


@needs_landlock
def test_kill_ends_the_whole_tree_control_a_plain_run_leaves_a_grandchild_running() -> None:
    for confined in (True, False):
        # the control: the launcher exec'd as the command (command(), no status, no --kill-tree)
        proc: subprocess.Popen[str] = (
            lr.spawn_confined(QUIET, LEAVES, stdout=subprocess.PIPE, text=True) if confined
            else subprocess.Popen(lr.command(QUIET, LEAVES), stdout=subprocess.PIPE, text=True)
        )  # fmt: skip
        assert proc.stdout is not None
        grandchild = int(proc.stdout.readline())
        started = start_time(grandchild)
        try:
            assert started is not None
            proc.kill()
            proc.wait()
            assert proc.returncode == -9
            if isinstance(proc, lr.ConfinedProcess):
                s = proc.status(timeout=30)
                # the supervisor ended the tree and wrote how the run ended: the launcher's SIGKILL
                assert (s.executed, s.status, s.exit, s.signal) == (True, None, None, "SIGKILL")
                assert not left(grandchild, started), "kill() left the command's grandchild running"
            else:
                assert left(grandchild, started), "control: the grandchild did not outlive a plain run's kill()"
        finally:
            if left(grandchild, started):
                os.kill(grandchild, 9)
            proc.kill()
            proc.wait()
            proc.stdout.close()


@needs_landlock
def test_a_forged_launcher_failure_is_executed_a_real_one_is_not(tmp_path: Path) -> None:
    forged = lr.run(Policy(ro=["/"]), ["sh", "-c", f"echo '{FORGED}' >&2; exit 125"], capture_output=True, text=True)
    assert (forged.returncode, forged.stderr) == (125, FORGED + "\n")
    assert lr.is_launcher_failure(forged.returncode, forged.stderr), "exit status and stderr cannot tell them apart"
    assert (forged.status.executed, forged.status.pid, forged.status.status, forged.status.error) == (True, forged.status.pid, None, None)
    missing, marker = tmp_path / "missing", tmp_path / "ran"
    real = lr.run(Policy(ro=["/"], rw=[missing, tmp_path]), ["touch", marker], capture_output=True, text=True)
    assert real.returncode == 125 and lr.is_launcher_failure(real.returncode, real.stderr)
    assert (real.status.executed, real.status.status, real.status.error) == (False, 125, real.stderr.rstrip("\n"))
    assert (real.status.exit, real.status.signal) == (125, None), "a launcher failure's end record is its 125"
    assert real.status.error.startswith("landlock-run: cannot open --rw path ") and "missing" in real.status.error
    assert not marker.exists(), "the command ran"
    # the same, told without reading stderr at all
    quiet = lr.run(Policy(rw=[missing]), ["touch", marker], stderr=subprocess.DEVNULL)
    assert (quiet.status.executed, quiet.status.status, quiet.status.exit, quiet.stderr) == (False, 125, 125, None)
    # control: the grant that exists, and the command runs
    ok = lr.run(Policy(ro=["/"], rw=[tmp_path]), ["touch", marker])
    assert ok.status.executed and ok.returncode == 0 and marker.exists()


@needs_landlock
def test_the_command_does_not_hold_the_status_descriptor() -> None:
    # it writes a failure line to every descriptor above 2 it holds (bash: dash cannot name one above 9)
    attack = ["bash", "-c", f"for fd in $(ls /proc/$$/fd); do [ $fd -gt 2 ] && (echo '{FORGED_LINE}' >&$fd) 2>/dev/null; done; ls /proc/$$/fd"]
    proc = lr.spawn_confined(Policy(ro=["/"]), attack, stdout=subprocess.PIPE, text=True)
    out, _ = proc.communicate()
    assert str(status_fd(proc)) not in out.split(), out
    assert (proc.status().executed, proc.status().status) == (True, None)
    # control: a command that does hold a pipe there writes the line into it
    r, w = os.pipe()
    held = subprocess.run(attack, pass_fds=(w,), stdout=subprocess.PIPE, text=True)
    os.close(w)
    with os.fdopen(r) as f:
        assert held.returncode == 0 and f.read() == FORGED_LINE + "\n"
    # and close_fds, which closes the command's descriptors above 2, changes nothing of it
    closing = lr.run(Policy(ro=["/"], close_fds=True), ["true"])
    assert closing.status.executed and closing.returncode == 0


@needs_landlock
def test_an_exec_that_fails_127_not_found_126_not_executable(tmp_path: Path) -> None:
    plain = tmp_path / "not-executable"
    plain.write_text("#!/bin/sh\ntrue\n")
    plain.chmod(0o644)
    for argv, want in ((["no-such-command-landlock-run"], 127), ([str(plain)], 126)):
        proc = lr.spawn_confined(Policy(ro=["/"]), argv, stderr=subprocess.PIPE, text=True)
        _, err = proc.communicate()
        s = proc.status()
        assert proc.returncode == want, err
        assert (s.executed, s.status, s.error) == (False, want, err.rstrip("\n"))
        assert s.pid is not None and s.pid != proc.pid, "the whole-tree mode: the command's process is the launcher's child"
        assert (s.exit, s.signal) == (want, None)


@needs_landlock
def test_explain_the_command_is_the_launchers_child_started_says_so_before_the_end() -> None:
    proc = lr.spawn_confined(Policy(ro=["/"], explain=True), ["sh", "-c", "echo $$; read x; exit 4"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    early = proc.started(timeout=30)
    assert early.executed and proc.poll() is None, "started() waited for the end"
    out, _ = proc.communicate("go\n")
    assert proc.returncode == 4
    s = proc.status()
    # the same status as at the exec, and now how it ended: the end record
    assert s.executed and s.pid == int(out) != proc.pid and s.exit == 4
    assert dataclasses.replace(s, exit=None) == early


def test_learn_runs_unconfined_and_says_so_a_policy_it_cannot_write_is_125_after_the_run(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    ok = lr.run(Policy(learn=tmp_path / "build.policy"), ["touch", tmp_path / "out" / "f"])
    assert (ok.returncode, ok.status.executed, ok.status.enforcement, ok.status.status) == (0, True, "none", None)
    assert (tmp_path / "build.policy").exists()
    # the command removes the directory the policy was to be written in
    gone = lr.run(Policy(learn=tmp_path / "out" / "build.policy"), ["rm", "-r", tmp_path / "out"], stderr=subprocess.PIPE, text=True)
    s = gone.status
    # stderr: the launcher's note that the policy is outside the policy
    # directories (@FILE reads none elsewhere), then the failure
    note, failure = gone.stderr.rstrip("\n").split("\n")
    assert note.startswith("landlock-run --learn: ") and "move it to " in note
    assert (gone.returncode, s.executed, s.enforcement, s.status, s.error) == (125, True, "none", 125, failure)
    assert s.error and s.error.startswith("landlock-run: cannot write the --learn file ")


@needs_landlock
def test_text_bytes_input_and_the_callers_options() -> None:
    r = lr.run(Policy(ro=["/"]), ["sh", "-c", 'cat; echo "$V in $PWD"'], input=b"in\n", capture_output=True, cwd="/",
               env={"V": "v", "PATH": "/usr/bin:/bin"})  # fmt: skip
    assert (r.stdout, r.returncode, r.args[1:3]) == (b"in\nv in /\n", 0, ["--status-fd", r.args[2]])
    t = lr.run(Policy(ro=["/"]), ["cat"], input="ü\n", text=True, capture_output=True, encoding="utf-8")
    assert t.stdout == "ü\n" and isinstance(t, subprocess.CompletedProcess)
    # the caller's own descriptors pass as pass_fds (the status descriptor is added to them)
    rd, wr = os.pipe()
    proc = lr.spawn_confined(Policy(ro=["/"]), ["bash", "-c", f"echo four >&{wr}"], pass_fds=(wr,))
    os.close(wr)
    assert proc.wait() == 0 and proc.status().executed
    with os.fdopen(rd) as f:
        assert f.read() == "four\n"


def test_bad_arguments_are_errors_before_anything_is_spawned(tmp_path: Path) -> None:
    marker = tmp_path / "spawned"
    launcher = str(tmp_path / "launcher")
    Path(launcher).write_text(f"#!/bin/sh\ntouch '{marker}'\n")
    Path(launcher).chmod(0o755)
    before = open_fds()
    cases: list[tuple[object, object, dict[str, object]]] = [
        ({"nope": True}, ["true"], {}), ({}, [], {}), ({}, "true", {}), ({}, ["true"], {"launcher": ""}),
        ({}, ["true"], {"shell": True}), ({}, ["true"], {"executable": "/bin/sh"}), ({}, ["true"], {"close_fds": False}),
        ({}, ["true"], {"encoding": "utf-8"}), ({}, ["true"], {"universal_newlines": True}), ({}, ["a\0b"], {}),
        ({}, [""], {}), ({}, [1], {}),
    ]  # fmt: skip
    for policy, argv, kwargs in cases:
        with pytest.raises(TypeError):
            lr.spawn_confined(policy, argv, launcher=kwargs.pop("launcher", launcher), **kwargs)
    with pytest.raises(TypeError, match=r"run \['sh', '-c', script\] as argv"):
        lr.run({}, ["true"], launcher=launcher, shell=True)
    with pytest.raises(ValueError, match="stdin and input"):
        lr.run({}, ["true"], launcher=launcher, input=b"", stdin=subprocess.DEVNULL)
    assert not marker.exists()
    assert open_fds() == before, "a refused spawn left a descriptor open"


@needs_landlock
def test_the_launcher_given_is_used_one_that_does_not_exist_is_file_not_found(tmp_path: Path) -> None:
    own = tmp_path / "my-landlock-run"
    shutil.copy(lr.launcher_path(), own)
    assert lr.command(Policy(ro=["/"]), ["true"], launcher=own) == [str(own), "--ro", "/", "--", "true"]
    assert lr.run(Policy(ro=["/"]), ["sh", "-c", "exit 4"], launcher=own).returncode == 4
    before = open_fds()
    with pytest.raises(FileNotFoundError):
        lr.spawn_confined({}, ["true"], launcher=tmp_path / "missing")
    assert open_fds() == before


@needs_landlock
def test_no_descriptor_is_left_behind_by_many_runs() -> None:
    before = open_fds()
    for _ in range(20):
        lr.run(Policy(ro=["/"]), ["true"])
        with lr.spawn_confined(Policy(ro=["/"]), ["true"]) as proc:
            proc.wait()
        lr.spawn_confined(Policy(ro=["/"]), ["true"]).wait()  # status never read: closed when collected
    import gc

    gc.collect()
    assert open_fds() == before


@needs_landlock
def test_with_the_callers_standard_descriptors_closed_the_status_descriptor_is_above_2() -> None:
    code = ("import os, landlock_run as lr; os.close(0); os.close(1)\n"
            "p = lr.spawn_confined(lr.Policy(ro=['/']), ['true'], stdin=-3, stdout=-3); p.wait()\n"
            "import sys; sys.stderr.write(f'{p.status().executed} {p.args[2]}')")  # fmt: skip
    r = sh(sys.executable, "-P", "-c", code)
    executed, fd = r.stderr.split()
    assert executed == "True" and int(fd) > 2, r.stderr


@needs_landlock
def test_run_check_raises_with_the_status() -> None:
    with pytest.raises(lr.ConfinedProcessError) as info:
        lr.run(Policy(ro=["/"]), ["sh", "-c", "exit 3"], check=True)
    assert isinstance(info.value, subprocess.CalledProcessError)
    assert (info.value.returncode, info.value.status.executed) == (3, True)
    with pytest.raises(lr.ConfinedProcessError) as failed:
        lr.run(Policy(rw=["/nonexistent-landlock-run"]), ["true"], check=True, stderr=subprocess.DEVNULL)
    assert (failed.value.returncode, failed.value.status.executed) == (125, False)
    assert lr.run(Policy(ro=["/"]), ["true"], check=True).returncode == 0


@needs_landlock
def test_run_timeout_kills_the_launcher_and_raises_with_the_status() -> None:
    start = time.monotonic()
    with pytest.raises(lr.ConfinedTimeout) as info:
        lr.run(Policy(ro=["/"]), ["sh", "-c", "echo started; exec sleep 60"], timeout=1, capture_output=True)
    assert time.monotonic() - start < 30
    assert isinstance(info.value, subprocess.TimeoutExpired) and info.value.status.executed
    assert info.value.timeout == 1
    # run() kills the launcher; its supervisor ends the tree and says so
    assert (info.value.status.exit, info.value.status.signal) == (None, "SIGKILL")


@needs_landlock
def test_the_end_record_of_a_command_killed_by_a_signal_names_that_signal() -> None:
    for sig, name in ((9, "SIGKILL"), (10, "SIGUSR1"), (15, "SIGTERM")):
        proc = lr.spawn_confined(Policy(ro=["/"]), ["sh", "-c", f"kill -{sig} $$"])
        proc.wait(30)
        s = proc.status(30)
        assert (s.executed, s.status, s.error, s.exit, s.signal) == (True, None, None, None, name)
        assert proc.returncode == -sig, "the launcher dies of the signal its end record names"
    # control: the same command's own exit with that number is an exit, not a signal
    done = lr.run(Policy(ro=["/"]), ["sh", "-c", "exit 137"])
    assert (done.returncode, done.status.exit, done.status.signal) == (137, 137, None)


@needs_landlock
def test_run_timeout_ends_the_whole_tree_control_a_plain_run_leaves_a_grandchild_running(tmp_path: Path) -> None:
    for confined in (True, False):
        said = tmp_path / f"grandchild-{confined}"
        policy = Policy(ro=["/"], rw=[tmp_path, "/dev/null"])
        argv = ["sh", "-c", f"setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! > '{said}'; exec sleep 300"]
        with pytest.raises(subprocess.TimeoutExpired) as info:
            if confined:
                lr.run(policy, argv, timeout=2, capture_output=True)
            else:  # the control: subprocess.run() of the launcher exec'd as the command
                subprocess.run(lr.command(policy, argv), timeout=2)
        grandchild = int(said.read_text())
        started = start_time(grandchild)
        try:
            if confined:
                assert isinstance(info.value, lr.ConfinedTimeout) and info.value.status.executed
                assert (info.value.status.exit, info.value.status.signal) == (None, "SIGKILL")
                assert started is None, "the timeout left the command's grandchild running"
            else:
                assert started is not None, "control: the grandchild did not outlive a plain run's timeout"
        finally:
            if started is not None:
                os.kill(grandchild, 9)


def test_is_launcher_failure_125_with_a_landlock_run_line_only() -> None:
    line = "landlock-run: Landlock is not supported by this kernel (ENOSYS)\n"
    assert lr.is_launcher_failure(125, line) and lr.is_launcher_failure(125, line.encode())
    assert lr.is_launcher_failure(125, f"landlock-run policy: abi=7\n{line}")
    for status, stderr in ((125, "make: *** [all] Error 125\n"), (125, "landlock-run policy: abi=7\n"),
                           (125, " landlock-run: indented\n"), (125, ""), (125, None), (1, line), (126, line),
                           (127, line), (None, line), (True, line)):  # fmt: skip
        assert not lr.is_launcher_failure(status, stderr), (status, stderr)
