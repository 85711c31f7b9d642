"""The status descriptor's protocol (STATUS DESCRIPTOR in landlock-run(1)) read by
spawn_confined() from stand-ins for the launcher that say exactly what the test wants; the
real launcher's lines are in test_run.py."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

import landlock_run as lr
from support import fake_launcher

PID = '{"pid":42,"abi":7,"abi_used":7,"enforcement":"partial"}'
# the stand-in's argv: --status-fd N, then the policy, --, the command
SAY = 'fd=$2; say() { printf "%s" "$1" >&$fd; }'


def status_of(tmp_path: Path, body: str, **kwargs: object) -> lr.ConfinedStatus:
    launcher = fake_launcher(tmp_path, f"{SAY}\n{body}")
    proc = lr.spawn_confined({}, ["true"], launcher=launcher, **kwargs)
    proc.wait(30)
    return proc.status(30)


def test_the_pid_line_then_end_of_file_is_executed(tmp_path: Path) -> None:
    s = status_of(tmp_path, f"say '{PID}\n'")
    assert s == lr.ConfinedStatus(executed=True, pid=42, abi=7, abi_used=7, enforcement="partial", status=None, error=None,
                                exit=None, signal=None)  # fmt: skip


def test_lines_not_of_the_protocol_and_an_unfinished_last_line_are_ignored(tmp_path: Path) -> None:
    full = PID.replace("partial", "full").replace("}", ',"new_key":1}')
    s = status_of(tmp_path, f"say 'not json\n[1]\n\"x\"\nnull\n{full}\n{{\"exec\":false'")
    assert (s.executed, s.pid, s.enforcement, s.status) == (True, 42, "full", None)


def test_a_failure_line_before_or_after_the_pid_line(tmp_path: Path) -> None:
    line = '{"exec":false,"status":125,"error":"landlock-run: cannot open --rw path /x: No such file or directory"}'
    s = status_of(tmp_path, f"say '{line}\n'; exit 125")
    assert (s.executed, s.pid, s.status, s.error) == (False, None, 125, "landlock-run: cannot open --rw path /x: No such file or directory")
    s = status_of(tmp_path, f"say '{PID}\n{{\"exec\":false,\"status\":127}}\n'; exit 127")
    assert (s.executed, s.pid, s.status, s.error) == (False, 42, 127, "the launcher failed with status 127")


def test_a_failure_after_the_command_ran_is_executed_with_its_status(tmp_path: Path) -> None:
    late = '{"exec":true,"status":125,"error":"landlock-run: cannot write the --learn file p: No space left on device"}'
    s = status_of(tmp_path, f"say '{PID.replace('partial', 'none')}\n{{\"exec\":true,\"pid\":42}}\n{late}\n'; exit 125")
    assert (s.executed, s.enforcement, s.status) == (True, "none", 125)
    assert s.error == "landlock-run: cannot write the --learn file p: No space left on device"


def test_nothing_said_a_usage_error_or_a_killed_launcher_is_not_executed(tmp_path: Path) -> None:
    s = status_of(tmp_path, "echo 'landlock-run: unknown option --bogus' >&2; exit 125", stderr=subprocess.DEVNULL)
    assert (s.executed, s.pid, s.status) == (False, None, 125)
    assert s.error == "the launcher reported nothing on --status-fd and exited with status 125: COMMAND was not executed"
    s = status_of(tmp_path, "kill -KILL $$")
    assert (s.executed, s.status) == (False, None)
    assert s.error and "was killed by signal 9" in s.error


def test_more_than_the_launchers_few_lines_is_cut_at_64_kib(tmp_path: Path) -> None:
    # a stand-in that writes on and on and never closes: status() reads what came, no more
    launcher = fake_launcher(tmp_path, f"{SAY}\nsay '{PID}\n'; while :; do echo xxxxxxxxxxxxxxxx; done >&$fd")
    proc = lr.spawn_confined({}, ["true"], launcher=launcher)
    s = proc.status(timeout=30)
    assert (s.executed, s.pid) == (True, 42)
    proc.kill()
    proc.wait()


def test_started_and_status_time_out_while_the_launcher_says_nothing(tmp_path: Path) -> None:
    launcher = fake_launcher(tmp_path, f"{SAY}\nsleep 60 & wait")
    proc = lr.spawn_confined({}, ["true"], launcher=launcher)
    t = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired):
        proc.started(timeout=0.3)
    with pytest.raises(subprocess.TimeoutExpired):
        proc.status(timeout=0.3)
    assert 0.5 <= time.monotonic() - t < 10
    proc.kill()
    proc.wait()


def test_started_returns_at_the_exec_line_before_the_end(tmp_path: Path) -> None:
    launcher = fake_launcher(tmp_path, f"{SAY}\nsay '{PID}\n{{\"exec\":true,\"pid\":42}}\n'; sleep 60 >/dev/null")
    proc = lr.spawn_confined({}, ["true"], launcher=launcher)
    assert proc.started(timeout=30).executed and proc.poll() is None
    proc.kill()
    proc.wait()


def test_the_end_record_says_how_the_command_ended(tmp_path: Path) -> None:
    s = status_of(tmp_path, f"say '{PID}\n{{\"exit\":3}}\n'; exit 3")
    assert (s.executed, s.pid, s.exit, s.signal, s.status, s.error) == (True, 42, 3, None, None, None)
    s = status_of(tmp_path, f"say '{PID}\n{{\"exec\":true,\"pid\":42}}\n{{\"signal\":\"SIGKILL\"}}\n'; exit 137")
    assert (s.executed, s.exit, s.signal) == (True, None, "SIGKILL")
    # after a learn failure: both the failure and how the command had ended
    late = '{"exec":true,"status":125,"error":"landlock-run: cannot write the --learn file p: Read-only file system"}'
    s = status_of(tmp_path, f"say '{PID}\n{late}\n{{\"exit\":0}}\n'; exit 125")
    assert (s.executed, s.status, s.exit) == (True, 125, 0)


def test_the_end_record_of_a_failed_run_and_end_records_not_taken(tmp_path: Path) -> None:
    # the exec failed: the run ends as the launcher exits
    s = status_of(tmp_path, f"say '{PID}\n{{\"exec\":false,\"status\":127}}\n{{\"exit\":127}}\n'; exit 127")
    assert (s.executed, s.status, s.exit, s.signal) == (False, 127, 127, None)
    # a last line the launcher did not finish (killed while writing it), and values of the wrong type
    s = status_of(tmp_path, f"say '{PID}\n{{\"exit\":true}}\n{{\"signal\":9}}\n{{\"exit\":3'")
    assert (s.executed, s.exit, s.signal) == (True, None, None)
