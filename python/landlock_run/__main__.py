"""python -m landlock_run ARGS...: exec this machine's launcher with ARGS, so the command
keeps this pid, its argv, status and signals, with no process in between. When there is no
launcher for this machine: the one line launcher_path() raises, and exit 125, as the
launcher's own failures."""

import os
import signal
import sys

from ._platform import LAUNCHER_BIN, LauncherError, launcher_path


def main() -> None:
    try:
        path = launcher_path()
    except LauncherError as e:
        print(f"{LAUNCHER_BIN}: {e}", file=sys.stderr)
        sys.exit(125)
    # Python ignores these for itself; exec keeps an ignored signal ignored, and the
    # launcher gives the command its caller's dispositions (subprocess's restore_signals)
    for name in ("SIGPIPE", "SIGXFSZ"):
        signal.signal(getattr(signal, name), signal.SIG_DFL)
    sys.stdout.flush()
    os.execv(path, [path, *sys.argv[1:]])


if __name__ == "__main__":
    main()
