#!/usr/bin/env python3
"""The container matrix's own seccomp profiles, derived from Docker's default.

  profiles.py MOBY_DEFAULT_JSON OUT_DIR

Writes, each Docker's default profile (tests/container/seccomp/moby-default.json)
changed in one way only:
  block-eperm.json   without the three Landlock calls: they get the profile's
                     default errno, EPERM, as under Docker's profiles before
                     20.10.18 (the profile names newer calls, so runc's ENOSYS for
                     calls newer than a profile does not apply)
  block-enosys.json  the Landlock calls answered ENOSYS, as a runtime answers calls
                     it does not know
  no-ptrace.json     without ptrace (Docker allows it on kernels since 4.8)
Run by scripts/container-matrix.sh.
"""
import copy
import json
import os
import sys

LANDLOCK = ("landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self")
ENOSYS = 38


def without(profile, names):
    p = copy.deepcopy(profile)
    for rule in p["syscalls"]:
        rule["names"] = [n for n in rule["names"] if n not in names]
    p["syscalls"] = [r for r in p["syscalls"] if r["names"]]
    return p


def main(src, out):
    moby = json.load(open(src))
    assert moby["defaultErrnoRet"] == 1, "Docker's default errno is no longer EPERM"
    enosys = without(moby, LANDLOCK)
    enosys["syscalls"].append({"names": list(LANDLOCK), "action": "SCMP_ACT_ERRNO", "errnoRet": ENOSYS})
    os.makedirs(out, exist_ok=True)
    for name, profile in (("block-eperm", without(moby, LANDLOCK)), ("block-enosys", enosys),
                          ("no-ptrace", without(moby, ("ptrace",)))):
        with open(os.path.join(out, name + ".json"), "w") as f:
            json.dump(profile, f, indent="\t")
            f.write("\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
