"""Reads landlock-run's --probe --json report for tests/probe.bats.

  probe-json.py valid JSON       one line, the documented keys with their types;
                                 prints "valid"
  probe-json.py same TEXT JSON   JSON is one line and says what the text report
                                 TEXT says, key by key, nothing missing on either side

Exits non-zero naming the first difference.
"""
import json
import sys

LISTS = ("fs_handled", "fs_missing", "scopes", "unused", "proven", "unprovable", "baseline", "where")
BOOLS = ("pathname_sockets", "tcp", "udp", "log_flags", "no_unix", "explain")
KEYS = {"abi", "abi_used", "enforcement", "errata", "fs", "tty_injection", "network_confined",
        "network", "self_test",
        *LISTS,
        *BOOLS}


def load(raw):
    assert "\n" not in raw.strip(), "JSON is more than one line"
    return json.loads(raw)


def valid(raw):
    j = load(raw)
    assert KEYS <= set(j), KEYS - set(j)
    assert j["self_test"] == "passed" and j["enforcement"] in ("full", "partial")
    assert j["tty_injection"] == "refused"
    assert j["network_confined"] in ("all", "tcp,udp", "tcp", "udp", "nothing"), j["network_confined"]
    # the old key, kept one release: "none" where network_confined says "nothing"
    assert j["network"] == {"nothing": "none"}.get(j["network_confined"], j["network_confined"])
    assert set(j["where"]) <= {"seccomp_filter", "ptrace_refused", "proc_missing"}, j["where"]
    assert all(type(j[k]) is list for k in LISTS)
    assert all(type(j[k]) is bool for k in BOOLS)
    assert type(j["errata"]) in (int, type(None)) and type(j["abi"]) is int, "abi/errata are not numbers"
    print("valid")


def same(text, raw):
    j = load(raw)
    lines = text.split("\n")
    t = dict(line.split("=", 1) for line in lines[1:])
    yesno = {"yes": True, "no": False}
    want = {
        "abi": int(t["abi"]),
        "abi_used": int(t["abi_used"]),
        "enforcement": {"landlock: fully enforced": "full",
                        "landlock: partially enforced (older ABI)": "partial"}[lines[0]],
        "errata": None if t["errata"] == "unknown" else int(t["errata"], 16),
        "fs": t["fs"],
        "tty_injection": t["tty_injection"],
        "network_confined": t["network_confined"],
        "network": t["network"],
        "self_test": t["self_test"],
    }
    for key in LISTS:
        want[key] = t[key].split(",") if t[key] else []
    for key in BOOLS:
        want[key] = yesno[t[key]]
    for key in sorted(set(want) | set(j)):
        if want.get(key, "<absent>") != j.get(key, "<absent>"):
            sys.exit("key %s: text says %r, JSON says %r"
                     % (key, want.get(key, "<absent>"), j.get(key, "<absent>")))


if __name__ == "__main__":
    {"valid": valid, "same": same}[sys.argv[1]](*sys.argv[2:])
