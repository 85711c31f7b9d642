"""parse_denials(): --explain-json lines as landlock-run(1) documents them, and one report
made for real by the installed launcher."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

import landlock_run as lr
from landlock_run import CapabilityDenial, FsDenial, NetDenial, ScopeDenial, SyscallDenial, UnlistedDenials, UnseenCalls, parse_denials
from support import needs_landlock

FS = ('{"kind":"fs","pid":4242,"comm":"sh","syscall":"openat","right":"make_reg","rights":["make_reg"],'
      '"errno":"EACCES","path":"/etc/motd.new","allow":["--rw","/etc"]}')
ODD = ('{"kind":"fs","pid":7,"comm":"python3","syscall":"openat","right":"make_reg","rights":["make_reg"],'
       '"errno":"EACCES","path":"/tmp/new\\nline\\udcff\\u0001 \\"q\\" \\\\","allow":["--rw","/tmp"]}')
NET = ('{"kind":"net","pid":9,"comm":"curl","syscall":"connect","right":"tcp_connect","rights":["tcp_connect"],'
       '"errno":"EACCES","port":81,"allow":["--tcp-connect","81"]}')
SIGNAL = ('{"kind":"scope","pid":9,"comm":"sh","syscall":"kill","right":"signal","rights":["signal"],'
          '"errno":"EPERM","target":1,"allow":[],"scope":"signal"}')
ABSTRACT = ('{"kind":"scope","pid":9,"comm":"ssh","syscall":"connect","right":"abstract-unix",'
            '"rights":["abstract-unix"],"errno":"EPERM","path":"@agent","allow":[],"scope":"abstract-unix"}')
REFER = '{"kind":"fs","pid":3,"comm":"mv","syscall":"renameat2","right":"refer","rights":["refer"],"errno":"EXDEV","path":"/a/x","allow":[]}'  # fmt: skip


def test_each_kind_typed_in_order() -> None:
    fs, net, signal, abstract, refer = parse_denials("\n".join([FS, NET, SIGNAL, ABSTRACT, REFER]) + "\n")
    assert fs == FsDenial(pid=4242, comm="sh", syscall="openat", right="make_reg", rights=("make_reg",), errno="EACCES",
                          allow=("--rw", "/etc"), path="/etc/motd.new", path_bytes=b"/etc/motd.new")  # fmt: skip
    assert net == NetDenial(pid=9, comm="curl", syscall="connect", right="tcp_connect", rights=("tcp_connect",),
                            errno="EACCES", allow=("--tcp-connect", "81"), port=81)  # fmt: skip
    assert isinstance(signal, ScopeDenial) and (signal.scope, signal.target, signal.allow, signal.path) == ("signal", 1, (), None)
    assert isinstance(abstract, ScopeDenial) and (abstract.path, abstract.scope, abstract.target) == ("@agent", "abstract-unix", None)
    assert isinstance(refer, FsDenial) and (refer.errno, refer.allow) == ("EXDEV", ())


def test_a_path_with_a_newline_invalid_utf8_and_quotes_comes_back_byte_for_byte() -> None:
    (d,) = parse_denials(ODD + "\n")
    assert isinstance(d, FsDenial)
    assert d.path_bytes == b'/tmp/new\nline\xff\x01 "q" \\'
    assert d.path == '/tmp/new\nline\udcff\x01 "q" \\'


def test_bytes_or_text_an_empty_report_an_unfinished_last_line() -> None:
    assert parse_denials("") == [] == parse_denials(b"")
    assert [d.path for d in parse_denials((FS + "\n").encode()) if isinstance(d, FsDenial)] == ["/etc/motd.new"]
    assert len(parse_denials(FS + "\n" + NET[:30])) == 1
    with pytest.raises(TypeError):
        parse_denials(None)


@pytest.mark.parametrize("line", [
    "not json", '{"kind":"disk"}', "[1]", FS.replace('"pid":4242', '"pid":"4242"'),
    FS.replace('"right":"make_reg"', '"right":"write_file"'), FS.replace('"EACCES"', '"ENOENT"'),
    FS.replace('["--rw","/etc"]', '["--rw"]'), FS.replace(',"path":"/etc/motd.new"', ""), NET.replace(',"port":81', ""),
    SIGNAL.replace(',"target":1', ""), FS.replace('"pid":4242', '"pid":true'), FS.replace('"path":"/etc/motd.new"', '"path":1'),
])  # fmt: skip
def test_a_line_that_is_not_a_denial_is_a_value_error_naming_its_line(line: str) -> None:
    with pytest.raises(ValueError, match=r"^--explain-json line 2: "):
        parse_denials(FS + "\n" + line + "\n")


def test_the_filters_refusals_replace_hidden_unlisted_unseen() -> None:
    report = "\n".join([
        '{"kind":"syscall","pid":7,"comm":"curl","syscall":"socket","right":"network","rights":["network"],"errno":"EAFNOSUPPORT","family":"AF_INET","allow":[],"remove":"--no-network"}',
        '{"kind":"syscall","pid":7,"comm":"unshare","syscall":"unshare","right":"userns","rights":["userns"],"errno":"EPERM","allow":["--allow-syscalls","userns"]}',
        '{"kind":"syscall","pid":7,"comm":"python3","syscall":"setxattr","right":"metadata","rights":["metadata"],"errno":"EOPNOTSUPP","allow":["--allow-syscalls","metadata"]}',
        '{"kind":"net","pid":7,"comm":"nc","syscall":"bind","right":"tcp_bind","rights":["tcp_bind"],"errno":"EACCES","port":0,"allow":["--tcp-bind","0","--tcp-connect","none"],"replace":"--no-tcp"}',
        '{"kind":"fs","pid":7,"comm":"cat","syscall":"openat","right":"read_file","rights":["read_file"],"errno":"EACCES","path":"/h/.ssh/k","allow":[],"hidden":"/h/.ssh"}',
        '{"kind":"fs","pid":7,"comm":"ls","syscall":"openat","right":"read_dir","rights":["read_dir"],"errno":"EACCES","path":"/h","allow":[],"hidden_beneath":"/h/.ssh"}',
        '{"kind":"unlisted","denials":12}',
        '{"kind":"unseen","calls":3,"pid":9,"comm":"ssh"}',
        "",
    ])  # fmt: skip
    d = parse_denials(report)
    assert [x.kind for x in d] == ["syscall", "syscall", "syscall", "net", "fs", "fs", "unlisted", "unseen"]
    assert isinstance(d[0], SyscallDenial) and (d[0].remove, d[0].family) == ("--no-network", "AF_INET")
    assert isinstance(d[1], SyscallDenial) and d[1].allow == ("--allow-syscalls", "userns")
    # root's setxattr under the metadata group: the launcher answers EOPNOTSUPP (a filesystem without xattrs)
    assert isinstance(d[2], SyscallDenial) and (d[2].errno, d[2].allow) == ("EOPNOTSUPP", ("--allow-syscalls", "metadata"))
    assert isinstance(d[3], NetDenial) and (d[3].port, d[3].replace) == (0, "--no-tcp")
    assert isinstance(d[4], FsDenial) and d[4].hidden == "/h/.ssh"
    assert isinstance(d[5], FsDenial) and d[5].hidden_beneath == "/h/.ssh"
    assert d[6:] == [UnlistedDenials(denials=12), UnseenCalls(calls=3, pid=9, comm="ssh")]
    for bad in ('{"kind":"unseen","calls":0,"pid":9,"comm":"ssh"}',
                '{"kind":"syscall","pid":1,"comm":"x","syscall":"s","right":"r","rights":["r"],"errno":"EXDEV","allow":[]}'):  # fmt: skip
        with pytest.raises(ValueError):
            parse_denials(bad + "\n")


# The launcher's own line (root's chown under --explain-json, captured from a run).
CAPABILITY = '{"kind":"capability","pid":12389,"comm":"chown","syscall":"fchownat","right":"cap_chown","rights":["cap_chown"],"errno":"EPERM","path":"/tmp/capl.qB7Y/w/f","why":"a capability the launcher drops, which no grant gives back; --keep-caps would keep it and every other capability the caller holds (root stays root)"}'  # fmt: skip


def test_a_refusal_a_dropped_capability_made_has_its_path_and_why_and_no_allow() -> None:
    [d] = parse_denials(CAPABILITY + "\n")
    assert isinstance(d, CapabilityDenial)
    assert (d.kind, d.right, d.errno, d.syscall, d.allow) == ("capability", "cap_chown", "EPERM", "fchownat", ())
    assert (d.path, d.path_bytes) == ("/tmp/capl.qB7Y/w/f", b"/tmp/capl.qB7Y/w/f")
    assert d.why is not None and "--keep-caps" in d.why
    for bad in (CAPABILITY.replace('"path":"/tmp/capl.qB7Y/w/f",', ""),
                CAPABILITY.replace('"why"', '"allow":["--keep-caps"],"x"')):  # fmt: skip
        with pytest.raises(ValueError, match="line 1"):
            parse_denials(bad + "\n")


@needs_landlock
def test_a_denial_made_for_real_by_the_installed_launcher(tmp_path: Path) -> None:
    report = tmp_path / "denials.json"  # outside every rw grant: the launcher refuses one the command could replace
    (tmp_path / "ok").mkdir()
    r = lr.run(lr.Policy(rw=[tmp_path / "ok"], explain_json=report), ["sh", "-c", f"echo x > '{tmp_path}/new'"],
               stderr=subprocess.DEVNULL)  # fmt: skip
    assert r.returncode != 0 and r.status.executed, "the write was not denied"
    denials = parse_denials(report.read_bytes())
    assert [(d.kind, d.right, d.syscall, d.path, d.allow) for d in denials if isinstance(d, FsDenial)] == [
        ("fs", "make_reg", "openat", f"{tmp_path}/new", ("--rw", str(tmp_path)))]  # fmt: skip
    assert len(denials) == 1


@needs_landlock
def test_a_denial_the_mode_bits_refuse_too_made_for_real_is_typed(tmp_path: Path) -> None:
    # Landlock is asked before the mode bits for a creation: in a directory another user
    # owns (root's, to the unprivileged; nobody's, to root, whose capabilities the
    # launcher drops), the record says the mode bits refuse it too.
    theirs = tmp_path / "theirs" if os.geteuid() == 0 else Path("/usr")
    if os.geteuid() == 0:
        theirs.mkdir(mode=0o755)
        os.chown(theirs, 65534, 65534)
    report = tmp_path / "denials.json"
    made, control = theirs / f"lr-mode-bits-{os.getpid()}", tmp_path / "mine"
    (tmp_path / "ok").mkdir()
    r = lr.run(lr.Policy(rw=[tmp_path / "ok"], explain_json=report),
               ["sh", "-c", f"mkdir '{made}'; mkdir '{control}'; true"], stderr=subprocess.DEVNULL)  # fmt: skip
    assert r.returncode == 0 and r.status.executed and not made.exists() and not control.exists()
    denials = [d for d in parse_denials(report.read_bytes()) if isinstance(d, FsDenial)]
    assert [(d.path, d.right, d.also_refused_by, d.allow) for d in denials] == [
        (str(made), "make_dir", "mode_bits", ("--rw", str(theirs))),
        # control: where only Landlock refuses, no word of the mode bits
        (str(control), "make_dir", None, ("--rw", str(tmp_path)))]  # fmt: skip


def test_also_refused_by_is_mode_bits_or_absent() -> None:
    (d,) = parse_denials(FS[:-1] + ',"also_refused_by":"mode_bits"}\n')
    assert isinstance(d, FsDenial) and d.also_refused_by == "mode_bits"
    assert parse_denials(FS + "\n")[0].also_refused_by is None
    for bad in ('"acl"', "1"):
        with pytest.raises(ValueError, match=r"^--explain-json line 1: "):
            parse_denials(FS[:-1] + f',"also_refused_by":{bad}}}\n')


def test_the_denials_of_one_kind_beneath_proc_pid_folded_the_pattern_the_count_the_first_path() -> None:
    fold = ('{"kind":"fs","pid":70,"comm":"ps","syscall":"openat","right":"read_file","rights":["read_file"],'
            '"errno":"EACCES","path":"/proc/1/stat","pattern":"/proc/PID/stat","count":57,"allow":["--ro","/proc"]}')  # fmt: skip
    d, alone = parse_denials(fold + "\n" + FS + "\n")
    assert isinstance(d, FsDenial) and (d.pattern, d.count, d.path, d.allow) == ("/proc/PID/stat", 57, "/proc/1/stat", ("--ro", "/proc"))
    assert isinstance(alone, FsDenial) and (alone.pattern, alone.count) == (None, 1)
    for bad in (fold.replace(',"count":57', ""), fold.replace('"count":57', '"count":1'),
                fold.replace('"pattern":"/proc/PID/stat"', '"pattern":7')):  # fmt: skip
        with pytest.raises(ValueError, match=r"^--explain-json line 1: "):
            parse_denials(bad + "\n")


def test_a_grant_never_advised_has_its_why_and_no_allow() -> None:
    head = ('{"kind":"fs","pid":7,"comm":"sh","syscall":"openat","right":"write_file","rights":["write_file"],'
            '"errno":"EACCES","path":"/proc/7/oom_score_adj"')  # fmt: skip
    (d,) = parse_denials(head + ',"why":"/proc/PID is one process\'s"}\n')
    assert isinstance(d, FsDenial) and d.why == "/proc/PID is one process's" and d.allow == ()
    assert parse_denials(head + ',"allow":["--rw","/tmp"]}\n')[0].why is None
    for bad in (head + "}", head + ',"why":"x","allow":[]}', head + ',"why":1}'):
        with pytest.raises(ValueError, match=r"^--explain-json line 1: "):
            parse_denials(bad + "\n")


def test_roots_refused_shared_mapping_is_enodev_under_metadata() -> None:
    (d,) = parse_denials('{"kind":"syscall","pid":7,"comm":"java","syscall":"mmap","right":"metadata","rights":["metadata"],"errno":"ENODEV","allow":["--allow-syscalls","metadata"]}\n')
    assert isinstance(d, SyscallDenial) and (d.errno, d.allow) == ("ENODEV", ("--allow-syscalls", "metadata"))
