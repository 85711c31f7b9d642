#!/usr/bin/env python3
"""compile.py FILE: write the C file of 1,000 lines that make bench compiles with
and without --explain: functions with loops and arithmetic, each called once, the
kind of code a build spends its time on; the same bytes every time."""
import sys

LINES = 1000
HEAD = ["#include <stdio.h>", "#include <string.h>", ""]
MAIN = ["int main(int argc, char **argv)", "{", "\tint v[64], s = 0;", "",
        "\tfor (int k = 0; k < 64; k++)", "\t\tv[k] = k * argc + (int)strlen(argv[0]);"]
TAIL = ["\tprintf(\"%d\\n\", s);", "\treturn 0;", "}"]


def function(n):
    return [f"static int f{n}(const int *v, int len)", "{", "\tint s = 0;", "",
            "\tfor (int k = 0; k < len; k++)", f"\t\ts += v[k] * {n % 7 + 1} - (v[k] >> {n % 3});",
            f"\treturn s ^ {n};", "}", ""]


def main(path):
    n = (LINES - len(HEAD) - len(MAIN) - len(TAIL)) // 10  # a function and its call
    lines = HEAD + [line for k in range(n) for line in function(k)] + MAIN
    lines += [f"\ts += f{k}(v, 64);" for k in range(n)] + TAIL
    lines[len(HEAD) - 1:len(HEAD) - 1] = [""] * (LINES - len(lines))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


main(sys.argv[1])
