#!/usr/bin/env python3
"""project.py DIR: write a C project the size of zlib into DIR, for make bench's
configure+make case: a POSIX sh ./configure that runs 60 compile and link
checks the way autoconf does (a conftest.c written, compiled, run or not, and
removed, into config.h), then a Makefile that builds 15 sources of 600 lines
into a static library and a program, with `make -j2`. The same bytes every
time; nothing is downloaded."""
import os
import sys

SOURCES = 15
LINES = 600
CHECKS = 60

CONFIGURE = """#!/bin/sh
# configure: what autoconf's checks do, one compile (or link) at a time.
set -e
CC=${CC:-cc}
: >config.h
check() { # check NAME HEADER: can a program using HEADER be compiled?
	printf '#include <%s>\\nint main(void) { return 0; }\\n' "$2" >conftest.c
	if $CC -c -o conftest.o conftest.c 2>/dev/null; then
		echo "#define HAVE_$1 1" >>config.h
	fi
	rm -f conftest.c conftest.o
}
link() { # link NAME FUNCTION: does a program calling FUNCTION link and run?
	printf 'char %s(void);\\nint main(void) { return %s != 0 ? 0 : 1; }\\n' "$2" "$2" >conftest.c
	if $CC -o conftest conftest.c 2>/dev/null && ./conftest; then
		echo "#define HAVE_$1 1" >>config.h
	fi
	rm -f conftest.c conftest
}
"""

HEADERS = ["stdio.h", "stdlib.h", "string.h", "unistd.h", "fcntl.h", "errno.h", "limits.h",
           "stdint.h", "sys/types.h", "sys/stat.h"]
FUNCTIONS = ["memcpy", "memset", "strlen", "open", "close", "read", "write", "lseek",
             "snprintf", "vsnprintf"]


def configure():
    lines = [CONFIGURE]
    for i in range(CHECKS):
        if i % 2 == 0:
            h = HEADERS[(i // 2) % len(HEADERS)]
            lines.append(f"check H{i} {h}\n")
        else:
            f = FUNCTIONS[(i // 2) % len(FUNCTIONS)]
            lines.append(f"link F{i} {f}\n")
    lines.append('echo "configure: wrote config.h"\n')
    return "".join(lines)


def source(n):
    body = ['#include "config.h"', '#include <string.h>', ""]
    k = 0
    while len(body) < LINES - 10:
        body += [f"int m{n}_{k}(const unsigned char *p, int len)", "{", "\tint s = 0;", "",
                 "\tfor (int i = 0; i < len; i++)", f"\t\ts = (s << {k % 5 + 1}) ^ p[i] ^ {n};",
                 "\treturn s;", "}", ""]
        k += 1
    body += [f"int m{n}(const unsigned char *p, int len)", "{", "\tint s = 0;"]
    body += [f"\ts += m{n}_{j}(p, len);" for j in range(k)]
    body += ["\treturn s;", "}"]
    return "\n".join(body) + "\n"


MAIN = """#include <stdio.h>
#include <string.h>
%s
int main(int argc, char **argv)
{
	int s = 0;

%s	printf("%%d\\n", s);
	return 0;
}
"""

MAKEFILE = """OBJS = %s
all: example
libz.a: $(OBJS)
\tar rcs $@ $(OBJS)
%%.o: %%.c config.h
\t$(CC) -O2 -c -o $@ $<
example: example.o libz.a
\t$(CC) -o $@ example.o libz.a
clean:
\trm -f $(OBJS) example.o libz.a example config.h
"""


def main(dir):
    os.makedirs(dir, exist_ok=True)
    for n in range(SOURCES):
        with open(os.path.join(dir, f"m{n}.c"), "w") as f:
            f.write(source(n))
    decls = "".join(f"int m{n}(const unsigned char *p, int len);\n" for n in range(SOURCES))
    calls = "".join(f"\ts += m{n}((const unsigned char *)argv[0], (int)strlen(argv[0]) + argc);\n"
                    for n in range(SOURCES))
    with open(os.path.join(dir, "example.c"), "w") as f:
        f.write(MAIN % (decls, calls))
    with open(os.path.join(dir, "Makefile"), "w") as f:
        f.write(MAKEFILE % " ".join(f"m{n}.o" for n in range(SOURCES)))
    path = os.path.join(dir, "configure")
    with open(path, "w") as f:
        f.write(configure())
    os.chmod(path, 0o755)


main(sys.argv[1])
