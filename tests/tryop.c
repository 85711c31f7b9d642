/*
 * tryop: attempt one system call and print its outcome, for the bats tests
 * that prove what a Landlock sandbox allows and denies.
 *
 * Prints "ok" (exit 0) or the errno's name such as "EACCES" (exit 1); a
 * failed setup step is printed as "STEP: ENAME" (exit 1); bad usage exits 2.
 * Servers (listen, ulisten) print their ports (or "ready"), then accept and
 * drop connections until SIGTERM or a 120 s alarm, so a test that forgets
 * one leaves nothing behind for long.
 *
 *   tryop truncate PATH          truncate(2) PATH to 0 bytes (no open)
 *   tryop open-at DIR REL        open DIR with O_PATH, then openat(2) REL from it
 *                                for reading and read a byte
 *   tryop reopen PATH            open PATH with O_PATH, then reopen it for reading
 *                                through /proc/self/fd/N and read a byte
 *   tryop rename FROM TO         rename(2)
 *   tryop ioctl-fionread PATH    open PATH read-only, ioctl FIONREAD
 *   tryop ioctl-tcgets PATH      open PATH read-only, ioctl TCGETS
 *   tryop ioctl-fionbio PATH     open PATH read-only, ioctl FIONBIO (on)
 *   tryop bind PORT              TCP bind to 127.0.0.1:PORT
 *   tryop connect PORT           TCP connect to 127.0.0.1:PORT
 *   tryop bind6 PORT             TCP bind to [::1]:PORT
 *   tryop mptcp-bind PORT        MPTCP bind to 127.0.0.1:PORT
 *   tryop mptcp-connect PORT     MPTCP connect (falls back to TCP with a TCP peer)
 *   tryop udp-bind PORT          UDP bind to 127.0.0.1:PORT
 *   tryop udp-send PORT          UDP sendto 127.0.0.1:PORT (from an unbound socket)
 *   tryop udp-connect PORT       UDP connect to 127.0.0.1:PORT (sends nothing)
 *   tryop freeport               print a TCP port that was free a moment ago
 *   tryop listen N               N TCP listeners on 127.0.0.1, one port a line
 *   tryop udp-listen N           N UDP sockets on 127.0.0.1, one port a line, then
 *                                "got PORT" for each datagram one of them receives
 *   tryop kill PID SIG           kill(2)
 *   tryop ulisten NAME           UNIX stream listener; @NAME is abstract
 *   tryop uconnect NAME          connect to it
 *   tryop uself                  abstract listener and a connect to it, here
 *   tryop uself-path PATH        the same with a pathname socket made at PATH
 *   tryop abi                    the kernel's Landlock ABI version, e.g. "7"
 *   tryop errata                 its errata bitmask as the probe prints it, e.g. "0x7"
 *   tryop elf FILE               one line of facts from FILE's ELF header, e.g.
 *                                "class=64 endian=little type=exec machine=62
 *                                 interp=no dynamic=no link=static"
 *
 * abi and errata ask landlock_create_ruleset(NULL, 0, VERSION or ERRATA)
 * directly, never through the launcher, so a broken launcher cannot turn
 * failures into skips; where the kernel refuses they print the errno's name.
 * elf: type is exec, dyn, rel, core or the number; machine is e_machine (62
 * x86_64, 183 aarch64); interp and dynamic say whether a PT_INTERP and a
 * PT_DYNAMIC program header exist; link is static when neither does.
 *
 * Built static with the launcher's compiler (make test-helpers), so the
 * kernel-matrix guest and qemu-user run it too.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stddef.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

#include "../landlock.h"
#include "errnames.h"

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif

static int outcome(int ret)
{
	if (ret >= 0) {
		puts("ok");
		return 0;
	}
	return put_errno(errno);
}

static void setup_failed(const char *step)
{
	printf("%s: ", step);
	put_errno(errno);
	exit(1);
}

static unsigned port_arg(const char *s)
{
	char *end;
	unsigned long n = strtoul(s, &end, 10);

	if (!*s || *end || n > 65535) {
		fprintf(stderr, "tryop: bad port %s\n", s);
		exit(2);
	}
	return (unsigned)n;
}

static struct sockaddr_in loopback(unsigned port)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

static int inet_op(int type, int protocol, const char *op, unsigned port)
{
	struct sockaddr_in a = loopback(port);
	int fd = socket(AF_INET, type, protocol);

	if (fd < 0)
		setup_failed("socket");
	if (strcmp(op, "bind") == 0)
		return outcome(bind(fd, (struct sockaddr *)&a, sizeof a));
	if (strcmp(op, "connect") == 0)
		return outcome(connect(fd, (struct sockaddr *)&a, sizeof a));
	return outcome((int)sendto(fd, "x", 1, 0, (struct sockaddr *)&a, sizeof a));
}

static int bind6(unsigned port)
{
	struct sockaddr_in6 a = {.sin6_family = AF_INET6, .sin6_port = htons(port)};
	int fd = socket(AF_INET6, SOCK_STREAM, 0);

	a.sin6_addr = in6addr_loopback;
	if (fd < 0)
		setup_failed("socket");
	return outcome(bind(fd, (struct sockaddr *)&a, sizeof a));
}

static int ioctl_op(const char *path, unsigned long request)
{
	int fd = open(path, O_RDONLY | O_NOCTTY);
	struct termios t;
	int n;

	if (fd < 0)
		setup_failed("open");
	n = 1; /* FIONBIO: on */
	return outcome(ioctl(fd, request, request == TCGETS ? (void *)&t : (void *)&n));
}

static socklen_t unix_addr(struct sockaddr_un *a, const char *name)
{
	memset(a, 0, sizeof *a);
	a->sun_family = AF_UNIX;
	if (strlen(name) >= sizeof a->sun_path) {
		fprintf(stderr, "tryop: name too long\n");
		exit(2);
	}
	strcpy(a->sun_path, name);
	if (name[0] == '@')
		a->sun_path[0] = '\0'; /* abstract: no NUL terminator counted */
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(name) +
			   (name[0] != '@'));
}

/* Until killed or the alarm: accept and drop connections on fds[0..n), or
 * for datagram sockets (ports[i] set) print "got PORT" for each datagram. */
static void serve(const int *fds, const unsigned *ports, int n)
{
	struct pollfd p[8];
	char byte;
	int i;

	fflush(stdout);
	alarm(120);
	for (i = 0; i < n; i++)
		p[i] = (struct pollfd){.fd = fds[i], .events = POLLIN};
	for (;;) {
		if (poll(p, (nfds_t)n, -1) < 0)
			continue;
		for (i = 0; i < n; i++) {
			if (!(p[i].revents & POLLIN))
				continue;
			if (!ports)
				close(accept(fds[i], NULL, NULL));
			else if (recv(fds[i], &byte, 1, 0) >= 0 && printf("got %u\n", ports[i]) > 0)
				fflush(stdout);
		}
	}
}

/* N sockets of TYPE bound to 127.0.0.1, each on a port the kernel picks. */
static int listen_inet(int type, int n)
{
	unsigned ports[8];
	int fds[8], i;

	if (n < 1 || n > 8) {
		fprintf(stderr, "tryop: 1 to 8 listeners\n");
		exit(2);
	}
	for (i = 0; i < n; i++) {
		struct sockaddr_in a = loopback(0);
		socklen_t len = sizeof a;
		int fd = socket(AF_INET, type, 0);

		if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) ||
		    (type == SOCK_STREAM && listen(fd, 16)) ||
		    getsockname(fd, (struct sockaddr *)&a, &len))
			setup_failed("listen");
		ports[i] = ntohs(a.sin_port);
		printf("%u\n", ports[i]);
		fds[i] = fd;
	}
	serve(fds, type == SOCK_DGRAM ? ports : NULL, n);
	return 0;
}

static int freeport(void)
{
	struct sockaddr_in a = loopback(0);
	socklen_t len = sizeof a;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) ||
	    getsockname(fd, (struct sockaddr *)&a, &len))
		setup_failed("freeport");
	printf("%u\n", ntohs(a.sin_port));
	return 0;
}

static int unix_listen(const char *name)
{
	struct sockaddr_un a;
	socklen_t len = unix_addr(&a, name);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, len) || listen(fd, 16))
		setup_failed("ulisten");
	return fd;
}

static int unix_connect(const char *name)
{
	struct sockaddr_un a;
	socklen_t len = unix_addr(&a, name);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	if (fd < 0)
		setup_failed("socket");
	return outcome(connect(fd, (struct sockaddr *)&a, len));
}

static int landlock_query(unsigned flags, const char *format)
{
	long r = syscall(__NR_landlock_create_ruleset, NULL, 0, flags);

	if (r < 0)
		return outcome(-1);
	printf(format, r);
	return 0;
}

/* ---- tryop elf ---------------------------------------------------------- */

struct elf {
	unsigned char h[64]; /* e_ident and the header fields read below */
	int little;
};

static uint64_t elf_word(const struct elf *e, size_t off, int size)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)e->h[off + (size_t)(e->little ? i : size - 1 - i)] << (8 * i);
	return v;
}

static int elf_bad(const char *why)
{
	printf("elf: %s\n", why);
	return 1;
}

static int elf(const char *path)
{
	static const char *types[] = {"none", "rel", "exec", "dyn", "core"};
	struct elf e, ph;
	int fd = open(path, O_RDONLY | O_CLOEXEC), wide, interp = 0, dynamic = 0;
	uint64_t phoff, phentsize, phnum, type, i;

	if (fd < 0)
		setup_failed("open");
	if (pread(fd, e.h, sizeof e.h, 0) != (ssize_t)sizeof e.h || memcmp(e.h, "\177ELF", 4))
		return elf_bad("not an ELF file");
	if ((e.h[4] != 1 && e.h[4] != 2) || (e.h[5] != 1 && e.h[5] != 2))
		return elf_bad("bad ELF class or data encoding");
	wide = e.h[4] == 2;
	e.little = e.h[5] == 1;
	ph.little = e.little;
	type = elf_word(&e, 16, 2);
	phoff = elf_word(&e, wide ? 32 : 28, wide ? 8 : 4);
	phentsize = elf_word(&e, wide ? 54 : 42, 2);
	phnum = elf_word(&e, wide ? 56 : 44, 2);
	if (phnum == 0 || phentsize < 4 || phentsize > sizeof ph.h)
		return elf_bad("no program headers");
	for (i = 0; i < phnum; i++) {
		if (pread(fd, ph.h, 4, (off_t)(phoff + i * phentsize)) != 4)
			return elf_bad("program headers out of range");
		interp |= elf_word(&ph, 0, 4) == 3;  /* PT_INTERP */
		dynamic |= elf_word(&ph, 0, 4) == 2; /* PT_DYNAMIC */
	}
	close(fd);
	printf("class=%d endian=%s type=", wide ? 64 : 32, e.little ? "little" : "big");
	if (type < sizeof types / sizeof *types)
		printf("%s", types[type]);
	else
		printf("%u", (unsigned)type);
	printf(" machine=%u interp=%s dynamic=%s link=%s\n", (unsigned)elf_word(&e, 18, 2),
	       interp ? "yes" : "no", dynamic ? "yes" : "no",
	       interp || dynamic ? "dynamic" : "static");
	return 0;
}

/* ---- the operations ----------------------------------------------------- */

static int op_truncate(char **a)
{
	return outcome(truncate(a[0], 0));
}

/* A read of one byte from FD, an open that just succeeded: the outcome. */
static int read_byte(int fd)
{
	char byte;

	if (fd < 0)
		return outcome(-1);
	return outcome(read(fd, &byte, 1) < 0 ? -1 : 0);
}

static int op_open_at(char **a)
{
	int dir = open(a[0], O_PATH | O_DIRECTORY);

	if (dir < 0)
		setup_failed("open");
	return read_byte(openat(dir, a[1], O_RDONLY));
}

static int op_reopen(char **a)
{
	char proc[64];
	int fd = open(a[0], O_PATH);

	if (fd < 0)
		setup_failed("open");
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	return read_byte(open(proc, O_RDONLY));
}

static int op_rename(char **a)
{
	return outcome(rename(a[0], a[1]));
}

static int op_fionread(char **a)
{
	return ioctl_op(a[0], FIONREAD);
}

static int op_tcgets(char **a)
{
	return ioctl_op(a[0], TCGETS);
}

static int op_fionbio(char **a)
{
	return ioctl_op(a[0], FIONBIO);
}

static int op_bind(char **a)
{
	return inet_op(SOCK_STREAM, 0, "bind", port_arg(a[0]));
}

static int op_connect(char **a)
{
	return inet_op(SOCK_STREAM, 0, "connect", port_arg(a[0]));
}

static int op_bind6(char **a)
{
	return bind6(port_arg(a[0]));
}

static int op_mptcp_bind(char **a)
{
	return inet_op(SOCK_STREAM, IPPROTO_MPTCP, "bind", port_arg(a[0]));
}

static int op_mptcp_connect(char **a)
{
	return inet_op(SOCK_STREAM, IPPROTO_MPTCP, "connect", port_arg(a[0]));
}

static int op_udp_bind(char **a)
{
	return inet_op(SOCK_DGRAM, 0, "bind", port_arg(a[0]));
}

static int op_udp_send(char **a)
{
	return inet_op(SOCK_DGRAM, 0, "send", port_arg(a[0]));
}

static int op_freeport(char **a)
{
	(void)a;
	return freeport();
}

static int op_listen(char **a)
{
	return listen_inet(SOCK_STREAM, atoi(a[0]));
}

static int op_udp_listen(char **a)
{
	return listen_inet(SOCK_DGRAM, atoi(a[0]));
}

static int op_udp_connect(char **a)
{
	return inet_op(SOCK_DGRAM, 0, "connect", port_arg(a[0]));
}

static int op_kill(char **a)
{
	return outcome(kill(atoi(a[0]), atoi(a[1])));
}

static int op_ulisten(char **a)
{
	int fd = unix_listen(a[0]);

	puts("ready");
	serve(&fd, NULL, 1);
	return 0;
}

static int op_uconnect(char **a)
{
	return unix_connect(a[0]);
}

static int op_uself(char **a)
{
	char name[64];

	(void)a;
	snprintf(name, sizeof name, "@tryop-uself-%d", (int)getpid());
	unix_listen(name);
	return unix_connect(name);
}

static int op_uself_path(char **a)
{
	unix_listen(a[0]);
	return unix_connect(a[0]);
}

static int op_abi(char **a)
{
	(void)a;
	return landlock_query(LANDLOCK_CREATE_RULESET_VERSION, "%ld\n");
}

static int op_errata(char **a)
{
	(void)a;
	return landlock_query(LANDLOCK_CREATE_RULESET_ERRATA, "0x%lx\n");
}

static int op_elf(char **a)
{
	return elf(a[0]);
}

static const struct op {
	const char *name;
	int nargs;
	int (*run)(char **arg);
} ops[] = {
	{"truncate", 1, op_truncate},
	{"open-at", 2, op_open_at},
	{"reopen", 1, op_reopen},
	{"rename", 2, op_rename},
	{"ioctl-fionread", 1, op_fionread},
	{"ioctl-tcgets", 1, op_tcgets},
	{"ioctl-fionbio", 1, op_fionbio},
	{"bind", 1, op_bind},
	{"connect", 1, op_connect},
	{"bind6", 1, op_bind6},
	{"mptcp-bind", 1, op_mptcp_bind},
	{"mptcp-connect", 1, op_mptcp_connect},
	{"udp-bind", 1, op_udp_bind},
	{"udp-send", 1, op_udp_send},
	{"udp-connect", 1, op_udp_connect},
	{"udp-listen", 1, op_udp_listen},
	{"freeport", 0, op_freeport},
	{"listen", 1, op_listen},
	{"kill", 2, op_kill},
	{"ulisten", 1, op_ulisten},
	{"uconnect", 1, op_uconnect},
	{"uself", 0, op_uself},
	{"uself-path", 1, op_uself_path},
	{"abi", 0, op_abi},
	{"errata", 0, op_errata},
	{"elf", 1, op_elf},
};

int main(int argc, char **argv)
{
	size_t i;

	for (i = 0; argc > 1 && i < sizeof ops / sizeof *ops; i++)
		if (strcmp(argv[1], ops[i].name) == 0 && argc == ops[i].nargs + 2)
			return ops[i].run(argv + 2);
	fprintf(stderr, "usage: tryop OP ARG... (see tests/tryop.c)\n");
	return 2;
}
