#!/usr/bin/env python3
"""containerd's default seccomp profile, in the Docker JSON format podman takes.

  containerd-json.py SECCOMP_DEFAULT_GO >containerd-default.json

containerd publishes its default profile as Go code (contrib/seccomp/
seccomp_default.go, DefaultProfile), which decides some rules when it runs: by
the kernel's version, the CPU architecture and the container's bounding
capabilities. The Docker format says the same with "includes" and "excludes"
(minKernel, arches, caps), which podman (containers/common) evaluates when it
starts a container, as moby's own default.json does. This reads the Go file
section by section; every rule of it becomes one JSON rule, in order, with the
condition of the block it is in. It is run by hand when the profile is renewed
from a newer containerd (the file's commit is noted in NOTICE); the matrix uses
its output, kept beside it.
"""
import json
import re
import sys

# The Go constants the rules use (golang.org/x/sys/unix, linux/amd64).
CONSTANTS = {
    "unix.AF_ALG": 38, "unix.AF_VSOCK": 40,
    "unix.CLONE_NEWNS": 0x20000, "unix.CLONE_NEWUTS": 0x4000000, "unix.CLONE_NEWIPC": 0x8000000,
    "unix.CLONE_NEWUSER": 0x10000000, "unix.CLONE_NEWPID": 0x20000000,
    "unix.CLONE_NEWNET": 0x40000000, "unix.CLONE_NEWCGROUP": 0x2000000,
}
ACTIONS = {"ActAllow": "SCMP_ACT_ALLOW", "ActErrno": "SCMP_ACT_ERRNO"}
OPS = {"OpEqualTo": "SCMP_CMP_EQ", "OpLessThan": "SCMP_CMP_LT", "OpGreaterThan": "SCMP_CMP_GT",
       "OpMaskedEqual": "SCMP_CMP_MASKED_EQ", "OpNotEqual": "SCMP_CMP_NE"}
ARCHES = {"amd64": ["SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32"]}
ENOSYS = 38


def value(expr):
    """A Go constant expression: numbers and unix.* names, joined by | or +."""
    total = 0
    for term in re.split(r"\s*\|\s*", expr.strip()):
        parts = [p.strip() for p in term.split("+")]
        n = sum(CONSTANTS[p] if p in CONSTANTS else int(p, 0) for p in parts)
        total |= n
    return total


def literals(block):
    """The text of each { Names: ... } literal in BLOCK, to its matching brace."""
    for m in re.finditer(r"\{\s*Names:", block):
        depth, i = 0, m.start()
        while True:
            depth += {"{": 1, "}": -1}.get(block[i], 0)
            i += 1
            if depth == 0:
                yield block[m.start():i]
                break


def rules(block):
    """Every specs.LinuxSyscall literal in BLOCK, as Docker JSON rules."""
    out = []
    for text in literals(block):
        m = re.match(r"\{\s*Names:\s*\[\]string\{(.*?)\},\s*Action:\s*specs\.(\w+),(.*)\}$", text, re.S)
        names = re.findall(r'"([a-z0-9_]+)"', m.group(1))
        rule = {"names": names, "action": ACTIONS[m.group(2)], "args": []}
        rest = m.group(3)
        for a in re.finditer(r"\{\s*Index:\s*(\d+),\s*Value:\s*([^,]+),\s*(?:ValueTwo:\s*([^,]+),\s*)?Op:\s*specs\.(\w+),?\s*\}", rest):
            rule["args"].append({"index": int(a.group(1)), "value": value(a.group(2)),
                                 "valueTwo": value(a.group(3) or "0"), "op": OPS[a.group(4)]})
        if "ErrnoRet: &nosys" in rest:
            rule["errnoRet"] = ENOSYS
        out.append(rule)
    return out


def cases(switch):
    """The case "X": (or default:) blocks of a Go switch body, as (labels, body)."""
    parts = re.split(r'\n\t*(case [^\n]*:|default:)\n', switch)
    for label, body in zip(parts[1::2], parts[2::2]):
        yield re.findall(r'"([^"]+)"', label) if label.startswith("case") else None, body


def section(src, start, end):
    i = src.index(start)
    return src[i:src.index(end, i)]


def main(path):
    src = open(path).read()
    syscalls = rules(section(src, "syscalls := []specs.LinuxSyscall{", "s := &specs.LinuxSeccomp{"))
    for r in rules(section(src, "// include by kernel version", "// include by arch")):
        r["includes"] = {"minKernel": "4.8"}
        syscalls.append(r)
    for labels, body in cases(section(src, "// include by arch", "admin := false")):
        for r in rules(body):
            r["includes"] = {"arches": labels}
            syscalls.append(r)
    for labels, body in cases(section(src, "admin := false", "if !admin {")):
        for r in rules(body):
            r["includes"] = {"caps": labels}
            syscalls.append(r)
    notadmin = section(src, "if !admin {", "return s\n")
    arch_switch = notadmin[:notadmin.index("// clone3")]
    arch_labels = [l for l, _ in cases(arch_switch) if l]
    for labels, body in cases(arch_switch):
        for r in rules(body):
            r["excludes"] = {"caps": ["CAP_SYS_ADMIN"]}
            if labels:
                r["includes"] = {"arches": labels}
            else:
                r["excludes"]["arches"] = [a for l in arch_labels for a in l]
            syscalls.append(r)
    for r in rules(notadmin[notadmin.index("// clone3"):]):
        r["excludes"] = {"caps": ["CAP_SYS_ADMIN"]}
        syscalls.append(r)
    assert "DefaultAction: specs.ActErrno" in src and "DefaultErrnoRet" not in src
    profile = {"defaultAction": "SCMP_ACT_ERRNO", "architectures": ARCHES["amd64"], "syscalls": syscalls}
    json.dump(profile, sys.stdout, indent="\t")
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
