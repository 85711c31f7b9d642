# landlock-run: a static, setuid-free launcher that runs a command under Landlock.
# `make` builds ./landlock-run for this machine; `make ARCH=aarch64` cross-builds
# build/aarch64/landlock-run. What differs per target lives in platform/*.env.

VERSION   := $(shell cat VERSION)
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
MANDIR    ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
HOST_ARCH := $(shell uname -m)
ARCH      ?= $(HOST_ARCH)
PLATFORM  := $(firstword $(shell grep -l '^ARCH=$(ARCH)$$' platform/*.env))
ifeq ($(PLATFORM),)
$(error no platform/*.env entry has ARCH=$(ARCH))
endif
include $(PLATFORM)

# The plain run's code first, the tracer's (--explain, --learn) after it: a run that
# does not trace touches fewer pages.
SRCS   := landlock-run.c argfile.c probe.c grants.c hide.c tmpdir.c guard.c abi.c supervise.c where.c seccomp.c inherit.c \
          interp.c fd.c out.c $(addprefix trace/,trace.c watch.c box.c explain.c never.c perm.c learn.c \
          fold.c calls.c tracee.c table.c report.c)
HDRS   := $(wildcard *.h platform/*.h trace/*.h)
CFLAGS := -std=c11 -Oz -Wall -Wextra -Werror -static -fno-pie \
          -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables \
          -fstack-protector-strong -DLR_VERSION='"$(VERSION)"'
# noseparate-code: one R+X segment for code and constants instead of three
# page-padded ones; 8 KiB less on x86_64 (budget: SIZE_BUDGET in platform/), still W^X.
# norelro: a static musl binary has no loader to apply PT_GNU_RELRO (strace
# shows no mprotect), so the marker only cost a page of padding to align it.
# -fstack-protector-strong: the tracer parses what the command hands it; a
# smashed stack then aborts instead of returning into the attacker's bytes.
# -fno-pie, -no-pie: a static non-PIE executable. musl 1.2.3 can link a static
# PIE (rcrt1.o, ld -static -pie), and it runs on both targets, but its
# relocations and GOT cost some 8 KiB on x86_64, more than the budget leaves
# (measured in docs/performance.md).
LDFLAGS := -static -no-pie -s -Wl,--gc-sections -Wl,--build-id=none -Wl,-z,noseparate-code \
           -Wl,-z,norelro
BIN    := build/$(ARCH)/landlock-run

# The test helpers (tests/*.c), built once here, never in a bats file. tryop, sysop, edgeop,
# hostile, tty and filtermodel are static, by the launcher's compiler, so the kernel-matrix
# guest and qemu-user run them too. fault needs the kernel's seccomp headers, which musl-gcc cannot
# see: the host's cc builds it, for the host only.
HOSTCC        ?= cc
HELPER_CFLAGS := -std=c11 -O2 -Wall -Wextra -Werror
HELPERS       := build/$(ARCH)/tryop build/$(ARCH)/tty build/$(ARCH)/sysop build/$(ARCH)/hostile \
                 build/$(ARCH)/edgeop build/$(ARCH)/filtermodel
ifeq ($(ARCH),$(HOST_ARCH))
HELPERS += build/$(ARCH)/fault build/$(ARCH)/fakeabi
endif
ifeq ($(ARCH),x86_64)
HELPERS += build/x86_64/inject32
endif

# need TOOL: fail, saying what is missing, rather than install it from make.
need = @command -v $(1) >/dev/null || { echo "make: $(1) is missing; make setup installs it" >&2; exit 1; }

.PHONY: all install uninstall clean demo test test-helpers setup fuzz sanitize npm wheel deb reproduce kernel-matrix kernel-matrix-doc container-matrix container-matrix-doc bench format print-srcs

ifeq ($(ARCH),$(HOST_ARCH))
all: landlock-run
else
all: $(BIN)
endif

# the runs most made install a filter built with the launcher (scripts/filters.c)
PREBUILT       := build/$(ARCH)/prebuilt-filters.h
PREBUILT_FLAGS := -Ibuild/$(ARCH) -DLR_PREBUILT
$(BIN): $(SRCS) $(HDRS) $(PREBUILT) VERSION $(PLATFORM) Makefile
	$(call need,$(CC))
	@mkdir -p $(@D)
	$(CC) $(if $(SPECS),-specs $(SPECS)) $(CFLAGS) $(PREBUILT_FLAGS) $(LDFLAGS) -o $@ $(SRCS)

# The filters of the runs most made (PREBUILT, above), built by seccomp.c's own
# builder when the launcher is (scripts/filters.c, on the host, with the target's
# numbers), so a launch installs them with no building of its own.
build/$(ARCH)/filters: scripts/filters.c seccomp.c $(HDRS) $(PLATFORM) Makefile
	$(call need,$(HOSTCC))
	@mkdir -p $(@D)
	$(HOSTCC) $(HELPER_CFLAGS) -DLR_PLATFORM='"$(PLATFORM:.env=.h)"' -o $@ scripts/filters.c
$(PREBUILT): build/$(ARCH)/filters
	$< >$@.tmp && mv $@.tmp $@

landlock-run: build/$(HOST_ARCH)/landlock-run
	cp $< $@

test-helpers: $(HELPERS)

build/$(ARCH)/tryop build/$(ARCH)/tty build/$(ARCH)/sysop build/$(ARCH)/hostile build/$(ARCH)/edgeop: build/$(ARCH)/%: tests/%.c tests/errnames.h landlock.h seccomp.h $(PLATFORM) Makefile
	$(call need,$(CC))
	@mkdir -p $(@D)
	$(CC) $(if $(SPECS),-specs $(SPECS)) $(HELPER_CFLAGS) -static -o $@ $<

# The seccomp filter's builder, compiled in, against a reading of its rule table.
build/$(ARCH)/filtermodel: tests/filtermodel.c seccomp.c $(HDRS) $(PREBUILT) $(PLATFORM) Makefile
	$(call need,$(CC))
	@mkdir -p $(@D)
	$(CC) $(if $(SPECS),-specs $(SPECS)) $(HELPER_CFLAGS) $(PREBUILT_FLAGS) -static -o $@ tests/filtermodel.c

# A real i386 program for the seccomp filter's i386 branch (tests/tty.c also
# enters it by int 0x80): freestanding, so gcc -m32 needs no multilib.
build/x86_64/inject32: tests/inject32.c Makefile
	$(call need,$(HOSTCC))
	@mkdir -p $(@D)
	$(HOSTCC) -m32 -std=c11 -Os -Wall -Wextra -Werror -nostdlib -ffreestanding -static \
		-fno-pic -fno-stack-protector -o $@ $<

build/$(HOST_ARCH)/fault: tests/fault.c tests/errnames.h landlock.h Makefile
	$(call need,$(HOSTCC))
	@mkdir -p $(@D)
	$(HOSTCC) $(HELPER_CFLAGS) -o $@ tests/fault.c

build/$(HOST_ARCH)/fakeabi: build/$(HOST_ARCH)/fault
	ln -sf fault $@

# make sanitize's launcher: clang's ASan and UBSan on a dynamic glibc build (the
# sanitizer runtimes do not link statically), with tests/sanitize/hooks.c.
build/sanitize/landlock-run: $(SRCS) $(HDRS) tests/sanitize/hooks.c VERSION Makefile
	@mkdir -p $(@D)
	clang -std=c11 -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
		-fno-sanitize-recover=all -Wall -Wextra -Werror -DLR_VERSION='"$(VERSION)"' \
		-DLR_TRACER_DEFAULT=SECCOMP_RET_LOG \
		-o $@ $(SRCS) tests/sanitize/hooks.c

# make bench's floors (scripts/bench/floor.c: exec only; with the bare Landlock
# system calls; with those and a one-instruction seccomp filter; with the terminal
# filter and the capability drop; with the baseline's rules too), its interleaved
# runner (scripts/bench/rounds.c), and the launcher unstripped, for perf to name its
# functions.
FLOOR_FLAGS_floor          :=
FLOOR_FLAGS_floor-landlock := -DWITH_LANDLOCK
FLOOR_FLAGS_floor-seccomp  := -DWITH_LANDLOCK -DWITH_SECCOMP
FLOOR_FLAGS_floor-promise  := -DWITH_LANDLOCK -DWITH_PROMISE
FLOOR_FLAGS_floor-baseline := -DWITH_LANDLOCK -DWITH_PROMISE -DWITH_BASELINE
FLOOR_FLAGS_floor-promise-checks  := -DWITH_LANDLOCK -DWITH_PROMISE -DWITH_CHECKS
FLOOR_FLAGS_floor-baseline-checks := -DWITH_LANDLOCK -DWITH_PROMISE -DWITH_BASELINE -DWITH_CHECKS
FLOOR_FLAGS_floor-trace := $(FLOOR_FLAGS_floor-baseline-checks) -DWITH_TRACE
BENCH_FLOORS := $(addprefix build/bench/,floor floor-landlock floor-seccomp floor-promise floor-baseline \
                  floor-promise-checks floor-baseline-checks)
$(BENCH_FLOORS): build/bench/%: scripts/bench/floor.c $(PLATFORM) $(wildcard platform/*.h) Makefile
	@mkdir -p $(@D)
	$(CC) $(if $(SPECS),-specs $(SPECS)) -std=c11 -Wall -Wextra -Werror -static -Os -s $(FLOOR_FLAGS_$*) -o $@ $<

# floor-trace: floor-baseline-checks with the least tracer (scripts/bench/floor-trace.c)
build/bench/floor-trace: scripts/bench/floor.c scripts/bench/floor-trace.c $(PLATFORM) $(wildcard platform/*.h) Makefile
	@mkdir -p $(@D)
	$(CC) $(if $(SPECS),-specs $(SPECS)) -std=c11 -Wall -Wextra -Werror -static -Os -s $(FLOOR_FLAGS_floor-trace) -o $@ $(filter %.c,$^)

build/bench/rounds: scripts/bench/rounds.c Makefile
	@mkdir -p $(@D)
	$(HOSTCC) -std=c11 -O2 -Wall -Wextra -Werror -o $@ $<

build/bench/syms/landlock-run: $(SRCS) $(HDRS) $(PREBUILT) VERSION $(PLATFORM) Makefile
	@mkdir -p $(@D)
	$(CC) $(if $(SPECS),-specs $(SPECS)) $(CFLAGS) $(PREBUILT_FLAGS) $(filter-out -s,$(LDFLAGS)) -o $@ $(SRCS)

install: landlock-run landlock-run.1
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 0755 landlock-run $(DESTDIR)$(BINDIR)/landlock-run
	install -m 0644 landlock-run.1 $(DESTDIR)$(MANDIR)/man1/landlock-run.1
	install -m 0644 completions/landlock-run.bash $(DESTDIR)$(BASHCOMPDIR)/landlock-run
	install -m 0644 completions/_landlock-run $(DESTDIR)$(ZSHCOMPDIR)/_landlock-run

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/landlock-run $(DESTDIR)$(MANDIR)/man1/landlock-run.1 \
		$(DESTDIR)$(BASHCOMPDIR)/landlock-run $(DESTDIR)$(ZSHCOMPDIR)/_landlock-run

clean:
	rm -rf build landlock-run dist npm/*/bin/landlock-run npm/*/manifest.json npm/*/LICENSE \
		npm/landlock-run/landlock-run.1

setup:
	scripts/setup.sh

demo:
	scripts/demo.sh

test:
	scripts/test.sh

fuzz:
	scripts/fuzz.sh

sanitize:
	scripts/sanitize.sh

npm:
	scripts/npm-pack.sh

# dist/python/landlock_run-VERSION-py3-none-*.whl, one per architecture, through the wheel gate
wheel:
	scripts/wheel.sh

# dist/deb/landlock-run_VERSION_{amd64,arm64}.deb, from both builds
deb:
	scripts/deb.sh

# build this commit twice elsewhere and compare the binaries, tarballs, wheels and packages
reproduce:
	scripts/reproduce.sh

kernel-matrix:
	scripts/kernel-matrix.sh

# The published results: docs/kernel-matrix.md and the README's table, from a
# complete run (testing never rewrites them).
kernel-matrix-doc: kernel-matrix
	scripts/matrix/publish.sh

# The launcher in real containers (podman, runc), beside bubblewrap; and its
# published results: docs/container-matrix.md and the README's where-it-works table.
container-matrix:
	scripts/container-matrix.sh

container-matrix-doc: container-matrix
	scripts/containers/publish.sh

bench:
	scripts/bench.sh

# The launcher's C files, for scripts that build it their own way (fuzz, sanitize).
print-srcs:
	@echo $(SRCS)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')
