"""What mypy --strict must refuse (test_typecheck.py): each line marked "# E:" is an error
with that code, and no other line is."""

from __future__ import annotations

import landlock_run as lr

lr.Policy(ro=[1])  # E: list-item
lr.Policy(scopes=["network"])  # E: list-item
lr.Policy(no_tcp="yes")  # E: arg-type
lr.Policy(rox=["/"])  # E: call-arg
lr.Policy(["/"])  # E: misc
lr.grant_args({"roTry": ["/"]})  # E: arg-type
lr.grant_args({"verbose": 1})  # E: typeddict-item
text: str = lr.run(None, ["true"], capture_output=True).stdout  # E: assignment
data: bytes = lr.run(None, ["true"], text=True).stdout  # E: assignment
lr.run(None, ["true"], input="x")  # E: call-overload
lr.probe(timeout="5")  # E: arg-type
lr.probe().abi + 1  # E: operator
lr.parse_denials(42)  # E: arg-type
