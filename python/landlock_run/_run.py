"""Running the launcher: command() builds its argv; spawn_confined() starts it with
`--status-fd N` on a pipe of its own and reads back what the launcher reports there; run()
is subprocess.run() over it. Only the launcher writes that pipe: it marks the descriptor
close-on-exec, so the command never holds it and cannot forge it, as it can forge what
is_launcher_failure() reads (a `landlock-run: ` line on stderr and exit 125).
"""

from __future__ import annotations

import fcntl
import os
import subprocess
from collections.abc import Sequence
from types import TracebackType
from typing import Any, AnyStr, Literal, TypeAlias, TypeVar, Union, overload

from ._platform import launcher_path
from ._policy import PathArg, PolicyLike, grant_args
from ._status import ConfinedStatus, StatusPipe, decided, interpret

FAILURE_PREFIX = "landlock-run: "
LAUNCHER_FAILURE_EXIT = 125
KILL_TREE = "--kill-tree"  # spawn_confined()'s runs end when they end

Arg: TypeAlias = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
"""An argument of the command, as subprocess takes it."""
_T = TypeVar("_T")

# What spawn_confined() decides itself; the rest of **popen_kwargs goes to Popen.
_REFUSED = {
    "shell": "shell is not supported: run ['sh', '-c', script] as argv, inside the sandbox",
    "executable": "executable is the launcher: pass launcher= instead",
    "args": "the command is argv",
    "universal_newlines": "universal_newlines: pass text=True",
}


def _argv(argv: Sequence[Arg]) -> list[str]:
    if isinstance(argv, (str, bytes)) or not isinstance(argv, Sequence) or len(argv) == 0:
        raise TypeError("argv must be a non-empty list of str (the command and its arguments), e.g. ['sh', '-c', script]")
    out = [os.fsdecode(a) if isinstance(a, (str, bytes, os.PathLike)) else None for a in argv]
    if out[0] == "" or any(a is None or "\0" in a for a in out):
        raise TypeError("argv must be a non-empty list of str, bytes or os.PathLike without NUL")
    return [a for a in out if a is not None]


def _parts(policy: PolicyLike, argv: Sequence[Arg], launcher: PathArg | None) -> tuple[str, list[str], list[str]]:
    """(the launcher, its options for the policy, the command), each checked."""
    grants = grant_args(policy)
    args = _argv(argv)
    if launcher is not None and (not isinstance(launcher, (str, bytes, os.PathLike)) or os.fsdecode(launcher) == ""):
        raise TypeError("launcher must be a non-empty path, e.g. launcher=landlock_run.launcher_path()")
    return launcher_path() if launcher is None else os.fsdecode(launcher), grants, args


def command(policy: PolicyLike, argv: Sequence[Arg], *, launcher: PathArg | None = None) -> list[str]:
    """[launcher, *grant_args(policy), '--', *argv], ready for subprocess: the command is
    looked up in PATH after confinement. Raises PolicyError for a bad policy, TypeError for
    a bad argv, LauncherError as launcher_path() when no launcher is given."""
    file, grants, args = _parts(policy, argv, launcher)
    return [file, *grants, "--", *args]


def is_launcher_failure(status: int | None, stderr: str | bytes | None) -> bool:
    """True only when status is 125 and stderr has a line starting `landlock-run: `. The
    command can print that line and exit 125 itself: never fall back to an unconfined run
    on it; spawn_confined()'s status cannot be forged."""
    if status != LAUNCHER_FAILURE_EXIT or isinstance(status, bool) or stderr is None:
        return False
    text = stderr.decode("utf-8", "replace") if isinstance(stderr, bytes) else stderr
    return any(line.startswith(FAILURE_PREFIX) for line in text.split("\n"))


def _above_stdio(fd: int) -> int:
    """fd, moved above 2 if the caller had closed a standard descriptor (the launcher takes
    no status descriptor below 3, which the command holds)."""
    if fd > 2:
        return fd
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
    os.close(fd)
    return moved


class ConfinedProcess(subprocess.Popen[AnyStr]):
    """The launcher's process: a subprocess.Popen, and status() / started(), what the
    launcher reported on its status descriptor. Made by spawn_confined()."""

    def __init__(self, args: list[str], *, status_pipe: StatusPipe, **popen_kwargs: Any) -> None:
        self._status_pipe = status_pipe
        self._status: ConfinedStatus | None = None
        super().__init__(args, **popen_kwargs)

    def started(self, timeout: float | None = None) -> ConfinedStatus:
        """As soon as the launcher has said whether COMMAND was executed, at its first exec
        (the fields the end of the run adds are not known yet; a launcher that does not say
        so, as the whole-tree mode without explain or learn did before its end record, says
        it at the end: this is status() then). subprocess.TimeoutExpired after timeout."""
        lines, eof = self._status_pipe.read(decided, timeout, self.args)
        return self.status(timeout) if eof else interpret(lines)

    def status(self, timeout: float | None = None) -> ConfinedStatus:
        """Everything the launcher reported, read up to the end of its status descriptor:
        the end of the run, once the command and everything it started are gone (the end
        record in exit or signal). subprocess.TimeoutExpired after timeout."""
        if self._status is None:
            lines, _ = self._status_pipe.read(lambda _: False, timeout, self.args)
            # nothing said: the launcher failed before it read --status-fd, or was killed; it is gone or going
            returncode = None if lines else self.wait(timeout)
            self._status = interpret(lines, returncode)
        return self._status

    def __exit__(
        self, exc_type: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        super().__exit__(exc_type, value, traceback)
        self._status_pipe.close()


def _popen_kwargs(text: bool, popen_kwargs: dict[str, Any]) -> dict[str, Any]:
    for key, why in _REFUSED.items():
        if key in popen_kwargs and not (key == "shell" and popen_kwargs[key] is False):
            raise TypeError(why)
    for key in ("encoding", "errors"):
        if popen_kwargs.get(key) is not None and not text:
            raise TypeError(f"{key}= needs text=True (which decides whether output is str or bytes)")
    if popen_kwargs.pop("close_fds", True) is not True:
        raise TypeError("close_fds=False: the status descriptor goes by pass_fds, which closes the others; pass yours in pass_fds")
    popen_kwargs.pop("shell", None)
    return {**popen_kwargs, "text": text}


@overload
def spawn_confined(
    policy: PolicyLike, argv: Sequence[Arg], *, text: Literal[True], launcher: PathArg | None = None, **popen_kwargs: Any
) -> ConfinedProcess[str]: ...
@overload
def spawn_confined(
    policy: PolicyLike, argv: Sequence[Arg], *, text: Literal[False] = False, launcher: PathArg | None = None, **popen_kwargs: Any
) -> ConfinedProcess[bytes]: ...
@overload
def spawn_confined(
    policy: PolicyLike, argv: Sequence[Arg], *, text: bool, launcher: PathArg | None = None, **popen_kwargs: Any
) -> ConfinedProcess[Any]: ...
def spawn_confined(
    policy: PolicyLike, argv: Sequence[Arg], *, text: bool = False, launcher: PathArg | None = None, **popen_kwargs: Any
) -> ConfinedProcess[Any]:
    """Start [launcher, '--status-fd', N, '--kill-tree', *grant_args(policy), '--', *argv]
    with these subprocess.Popen keyword arguments (not shell, executable or close_fds=False;
    pass_fds are added to), N the write end of a pipe of its own. Returns the Popen, whose
    status() and started() read what the launcher says there.

    The run is in the whole-tree mode (--kill-tree): the launcher stays the command's
    parent, and kill() (SIGKILL to the launcher), terminate() (SIGTERM, passed on to the
    command, the rest killed a second later) and the command's own exit end every process
    it started. For a run that is the command itself (its pid the launcher's, what it
    leaves running going on), start command() with subprocess: it has no status.

    Raises as command() does, and as Popen does (FileNotFoundError for a launcher= that
    does not exist)."""
    kwargs = _popen_kwargs(text, popen_kwargs)
    file, grants, args = _parts(policy, argv, launcher)
    tree = [] if KILL_TREE in grants else [KILL_TREE]
    read_fd, write_fd = os.pipe()
    read_fd, write_fd = _above_stdio(read_fd), _above_stdio(write_fd)
    pipe = StatusPipe(read_fd)
    try:
        pass_fds = (*kwargs.pop("pass_fds", ()), write_fd)
        return ConfinedProcess(
            [file, "--status-fd", str(write_fd), *tree, *grants, "--", *args], status_pipe=pipe, pass_fds=pass_fds, **kwargs
        )
    except BaseException:
        pipe.close()
        raise
    finally:
        os.close(write_fd)  # the launcher's now: end of file once it (and only it) closes it


class ConfinedCompleted(subprocess.CompletedProcess[_T]):
    """subprocess.CompletedProcess, with status: what the launcher reported."""

    def __init__(self, args: Any, returncode: int, stdout: _T | None, stderr: _T | None, status: ConfinedStatus) -> None:
        super().__init__(args, returncode, stdout, stderr)
        self.status = status


class ConfinedTimeout(subprocess.TimeoutExpired):
    """subprocess.TimeoutExpired from run(), after the launcher was killed; with status."""

    def __init__(self, exc: subprocess.TimeoutExpired, status: ConfinedStatus) -> None:
        super().__init__(exc.cmd, exc.timeout, exc.output, exc.stderr)
        self.status = status


class ConfinedProcessError(subprocess.CalledProcessError):
    """subprocess.CalledProcessError from run(check=True); with status (status.executed
    False: the command never ran)."""

    def __init__(self, done: ConfinedCompleted[Any]) -> None:
        super().__init__(done.returncode, done.args, done.stdout, done.stderr)
        self.status = done.status


@overload
def run(
    policy: PolicyLike, argv: Sequence[Arg], *, text: Literal[True], input: str | None = None, capture_output: bool = False,
    timeout: float | None = None, check: bool = False, launcher: PathArg | None = None,
    **popen_kwargs: Any,
) -> ConfinedCompleted[str]: ...  # fmt: skip
@overload
def run(
    policy: PolicyLike, argv: Sequence[Arg], *, text: Literal[False] = False, input: bytes | None = None,
    capture_output: bool = False, timeout: float | None = None, check: bool = False, launcher: PathArg | None = None,
    **popen_kwargs: Any,
) -> ConfinedCompleted[bytes]: ...  # fmt: skip
@overload
def run(
    policy: PolicyLike, argv: Sequence[Arg], *, text: bool, input: str | bytes | None = None, capture_output: bool = False,
    timeout: float | None = None, check: bool = False, launcher: PathArg | None = None,
    **popen_kwargs: Any,
) -> ConfinedCompleted[Any]: ...  # fmt: skip
def run(
    policy: PolicyLike, argv: Sequence[Arg], *, text: bool = False, input: str | bytes | None = None,
    capture_output: bool = False, timeout: float | None = None, check: bool = False, launcher: PathArg | None = None,
    **popen_kwargs: Any,
) -> ConfinedCompleted[Any]:  # fmt: skip
    """subprocess.run() of the command under the policy, through spawn_confined() (in the
    whole-tree mode): waits for it, returns a ConfinedCompleted
    (returncode, stdout, stderr, and status). On timeout the launcher is killed, and with it
    every process the command started, and ConfinedTimeout (a subprocess.TimeoutExpired)
    raised once the status descriptor's end says the tree is gone; with check=True a
    non-zero status raises ConfinedProcessError (a CalledProcessError)."""
    if input is not None:
        if popen_kwargs.get("stdin") is not None:
            raise ValueError("stdin and input arguments may not both be used")
        popen_kwargs["stdin"] = subprocess.PIPE
    if capture_output:
        if popen_kwargs.get("stdout") is not None or popen_kwargs.get("stderr") is not None:
            raise ValueError("stdout and stderr arguments may not be used with capture_output")
        popen_kwargs["stdout"] = popen_kwargs["stderr"] = subprocess.PIPE
    with spawn_confined(policy, argv, text=text, launcher=launcher, **popen_kwargs) as proc:
        try:
            stdout, stderr = proc.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            proc.kill()
            proc.wait()
            raise ConfinedTimeout(exc, proc.status()) from None
        except BaseException:
            proc.kill()
            raise
        done: ConfinedCompleted[Any] = ConfinedCompleted(proc.args, proc.wait(), stdout, stderr, proc.status())
    if check and done.returncode != 0:
        raise ConfinedProcessError(done)
    return done

