"""grant_args(): a Policy (or a mapping of its fields) to the launcher's options, against the
installed launcher's own --help."""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path
from typing import Any

import pytest

import landlock_run as lr
from landlock_run import POLICY_OPTIONS, SCOPES, SYSCALL_GROUPS, Policy, PolicyError, grant_args
from support import sh

# what a run does, not its policy; --status-fd is spawn_confined()'s own
MODES = ("--probe", "--json", "--help", "--version", "--status-fd")


def test_api_is_cli_every_option_of_help_is_a_policy_field() -> None:
    help_text = sh(lr.launcher_path(), "--help").stdout
    cli = [o for o in re.findall(r"^\s+(?:-\w, )?(--[a-z][a-z-]*)", help_text, re.M) if o not in MODES]
    api = list(POLICY_OPTIONS.values())
    assert len(cli) >= 30, help_text
    assert [o for o in cli if o not in api] == [], "a CLI option without a field: add its row to _policy.py's FIELDS, Policy and PolicyDict"
    assert [o for o in api if o not in cli] == [], "a field whose option the launcher does not have"


def test_policy_and_policydict_have_exactly_the_fields_in_the_order_of_the_options() -> None:
    assert [f.name for f in dataclasses.fields(Policy)] == list(POLICY_OPTIONS)
    assert list(lr.PolicyDict.__annotations__) == list(POLICY_OPTIONS)
    assert all(option == "--" + key.replace("_", "-") for key, option in POLICY_OPTIONS.items() if key != "scopes")
    with pytest.raises(TypeError):
        POLICY_OPTIONS["ro"] = "--rw"


def test_the_example_and_the_callers_order_within_a_field() -> None:
    assert grant_args(Policy(ro=["/"], rw=["/tmp"])) == ["--ro", "/", "--rw", "/tmp"]
    assert grant_args({"ro": ["/usr", "/etc", "/bin"]}) == ["--ro", "/usr", "--ro", "/etc", "--ro", "/bin"]
    assert grant_args() == grant_args(None) == grant_args({}) == grant_args(Policy()) == []
    assert grant_args(Policy(ro=[], scopes=[], strict=False)) == []


def test_options_come_in_the_fixed_order_whatever_the_order_given() -> None:
    policy: dict[str, Any] = {
        "verbose": True, "strict": True, "abi": 4, "unsetenv": ["U"], "setenv": ["A=1", "B=x=y"], "clearenv": True,
        "close_fds": True, "private_tmp": True, "kill_tree": True, "die_with_parent": True, "new_session": True, "keep_caps": True, "no_log_nested": True,
        "no_log": True, "log_subprocesses": True, "no_symlinks": True, "allow_syscalls": ["userns", "metadata"],
        "scopes": ["signal", "abstract-unix"], "udp_connect": [53, "5353-5355"], "udp_bind": [0],
        "tcp_connect": (443, 80), "tcp_bind": [8080], "unix": ["/run/s", "/run/d"], "hide": ["/h1", "/h2"],
        "rw_try": ["/rwtry"], "ro_try": ["/rotry"], "rw": ["/rw"], "ro": ["/ro"],
    }  # fmt: skip
    want = [
        "--ro", "/ro", "--rw", "/rw", "--ro-try", "/rotry", "--rw-try", "/rwtry", "--hide", "/h1", "--hide", "/h2",
        "--no-symlinks", "--unix", "/run/s", "--unix", "/run/d", "--tcp-bind", "8080", "--tcp-connect", "443",
        "--tcp-connect", "80", "--udp-bind", "0", "--udp-connect", "53", "--udp-connect", "5353-5355",
        "--scope", "signal", "--scope", "abstract-unix", "--allow-syscalls", "userns", "--allow-syscalls", "metadata",
        "--log-subprocesses", "--no-log", "--no-log-nested", "--keep-caps", "--new-session", "--die-with-parent",
        "--kill-tree", "--private-tmp", "--close-fds", "--clearenv", "--setenv", "A=1", "--setenv", "B=x=y", "--unsetenv", "U", "--abi", "4",
        "--strict", "--verbose",
    ]  # fmt: skip
    assert grant_args(policy) == want
    assert grant_args(Policy(**policy)) == want
    assert grant_args(Policy(no_udp=True, no_tcp=True)) == ["--no-tcp", "--no-udp"]
    assert grant_args(Policy(scopes=["signal"], no_network=True, no_udp=True)) == ["--no-udp", "--no-network", "--scope", "signal"]


def test_flags_false_give_nothing_true_their_option() -> None:
    for key, option in POLICY_OPTIONS.items():
        if isinstance(getattr(Policy(), key), bool):
            assert grant_args({key: False}) == []
            assert grant_args({key: True}) == [option]


def test_paths_str_bytes_and_pathlike_verbatim_bytes_exactly() -> None:
    odd = b"/tmp/\xff\x01 x"
    args = grant_args(Policy(rw=["a b", "./-x", Path("rel/dir"), odd]))
    assert args[:6] == ["--rw", "a b", "--rw", "./-x", "--rw", "rel/dir"]
    assert os.fsencode(args[7]) == odd, "a path that is not UTF-8 comes back as its bytes (subprocess encodes it so)"
    assert grant_args(Policy(explain_json=Path("/d/r.json"), learn=None)) == ["--explain-json", "/d/r.json"]


def test_ports_and_ranges() -> None:
    assert grant_args(Policy(tcp_bind=[0, 65535])) == ["--tcp-bind", "0", "--tcp-bind", "65535"]
    assert grant_args(Policy(tcp_bind="none")) == grant_args(Policy(tcp_bind=[])) == ["--tcp-bind", "none"]
    assert grant_args(Policy(tcp_connect="none", tcp_bind=())) == ["--tcp-bind", "none", "--tcp-connect", "none"]
    assert grant_args(Policy(tcp_connect=["8000-8999", 443, "0-65535", "7-7"])) == [
        "--tcp-connect", "8000-8999", "--tcp-connect", "443", "--tcp-connect", "0-65535", "--tcp-connect", "7-7"]  # fmt: skip


def test_setenv_as_strings_or_a_mapping_in_order() -> None:
    assert grant_args(Policy(setenv={"PATH": "/usr/bin", "X": "a=b"})) == ["--setenv", "PATH=/usr/bin", "--setenv", "X=a=b"]
    assert grant_args(Policy(clearenv=True, setenv=["A="], unsetenv=["B"])) == ["--clearenv", "--setenv", "A=", "--unsetenv", "B"]


def test_no_network_learn_and_their_contradictions() -> None:
    assert grant_args(Policy(no_network=True, tcp_connect="none", udp_bind=[])) == [
        "--tcp-connect", "none", "--udp-bind", "none", "--no-network"]  # fmt: skip
    for key in ("tcp_bind", "tcp_connect", "udp_bind", "udp_connect"):
        with pytest.raises(PolicyError, match=f"^{key} contradicts no_network, which allows no port"):
            grant_args({"no_network": True, key: [443]})
    with pytest.raises(PolicyError, match="contradicts no_network"):
        Policy(no_network=True, allow_syscalls=["io_uring"])
    assert grant_args(Policy(no_network=True, no_unix=True)) == ["--no-network", "--no-unix"]
    with pytest.raises(PolicyError, match="contradicts no_unix"):
        Policy(no_unix=True, allow_syscalls=["io_uring"])
    assert grant_args(Policy(learn="p", keep_caps=True, abi=4, hide=["/h"])) == ["--hide", "/h", "--learn", "p", "--keep-caps", "--abi", "4"]
    for other in ({"ro": ["/"]}, {"explain": True}, {"scopes": []}, {"strict": True}):
        with pytest.raises(PolicyError, match="^learn runs the command without the sandbox"):
            grant_args({"learn": "p", **other})


BAD: dict[str, object] = {
    "a list as the policy": [["/"]],
    "a string as the policy": "/",
    "a Node spelling": {"roTry": ["/"]},
    "a CLI spelling": {"no-log": True},
    "an unknown field": {"read_only": ["/"]},
    "a flag as an int": {"verbose": 1},
    "no_tcp with tcp_bind": {"no_tcp": True, "tcp_bind": [80]},
    "no_tcp with tcp_connect none": {"no_tcp": True, "tcp_connect": "none"},
    "ro as a string": {"ro": "/"},
    "ro as bytes": {"ro": b"/"},
    "an empty path": {"ro": [""]},
    "a path of the wrong type": {"rw": [42]},
    "a path None": {"rw_try": [None]},
    "a path with NUL": {"ro_try": ["/tmp\0/x"]},
    "the path --": {"rw": ["--"]},
    "a hidden path that is an option": {"hide": ["--ro"]},
    "a path that is a short option": {"ro": ["-v"]},
    "setenv without =": {"setenv": ["A"]},
    "setenv without a name": {"setenv": ["=1"]},
    "setenv as a string": {"setenv": "A=1"},
    "a setenv name with =": {"setenv": {"A=B": "1"}},
    "a setenv value not a str": {"setenv": {"A": 1}},
    "unsetenv with =": {"unsetenv": ["A=1"]},
    "an empty unsetenv name": {"unsetenv": [""]},
    "a port above 65535": {"tcp_bind": [65536]},
    "a negative port": {"tcp_connect": [-1]},
    "a float port": {"tcp_bind": [80.0]},
    "a bool port": {"tcp_bind": [True]},
    "a port as a str": {"tcp_bind": ["80"]},
    "ports as a str other than none": {"tcp_connect": "all"},
    "a range the wrong way round": {"tcp_connect": ["9000-8000"]},
    "a range past 65535": {"udp_connect": ["1-65536"]},
    "a range with spaces": {"tcp_bind": ["1 - 2"]},
    "a range with a leading zero": {"tcp_bind": ["01-2"]},
    "half a range": {"udp_bind": ["80-"]},
    "a range of three": {"tcp_bind": ["1-2-3"]},
    "ports as an int": {"udp_connect": 53},
    "an unknown scope": {"scopes": ["network"]},
    "scopes as a str": {"scopes": "signal"},
    "an unknown system-call group": {"allow_syscalls": ["io-uring"]},
    "abi 0": {"abi": 0},
    "abi as a str": {"abi": "5"},
    "abi as a bool": {"abi": True},
    "abi as a float": {"abi": 4.0},
}


@pytest.mark.parametrize("name", BAD)
def test_a_bad_policy_is_a_policy_error_both_type_and_value_error(name: str) -> None:
    with pytest.raises(PolicyError) as info:
        grant_args(BAD[name])
    assert isinstance(info.value, TypeError) and isinstance(info.value, ValueError)
    if isinstance(BAD[name], dict) and all(k in POLICY_OPTIONS for k in BAD[name]):
        with pytest.raises(PolicyError):  # a Policy is checked when made
            Policy(**BAD[name])


def test_errors_name_the_field_and_the_fix() -> None:
    with pytest.raises(PolicyError, match=r"^unknown policy field 'roTry' \(did you mean 'ro_try'\?\) \(known: ro, rw, "):
        grant_args({"roTry": ["/"]})
    with pytest.raises(PolicyError, match=r"did you mean 'no_log'"):
        grant_args({"--no-log": True})
    with pytest.raises(PolicyError, match=r"^ro must be a list or tuple, not str: write ro=\['/'\]$"):
        Policy(ro="/")
    with pytest.raises(PolicyError, match=r"^scopes must be a list or tuple, not dict$"):
        Policy(scopes={"signal": 1})  # type: ignore[arg-type]
    with pytest.raises(PolicyError, match=r"takes no rw: drop rw, or learn first and give the policy it writes to a run"):
        grant_args({"learn": "p", "rw": ["/tmp"]})
    with pytest.raises(TypeError, match=r"launcher=landlock_run.launcher_path\(\)"):
        lr.command(None, ["true"], launcher="")
    with pytest.raises(PolicyError, match=r"one that starts with - is written \./-name"):
        Policy(ro=["-v"])


def test_scopes_and_groups_are_the_launchers() -> None:
    assert SCOPES == ("abstract-unix", "signal")
    assert SYSCALL_GROUPS == ("io_uring", "userns", "keyring", "bpf", "perf", "userfaultfd", "metadata")
    help_text = sh(lr.launcher_path(), "--help").stdout
    assert "io_uring, userns,\n                       keyring, bpf, perf, userfaultfd, metadata" in help_text
    assert "signal, abstract-unix" in help_text


def test_a_policy_is_frozen_and_keyword_only() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Policy().ro = ["/"]
    with pytest.raises(TypeError):
        Policy(["/"])
