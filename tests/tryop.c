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
 *   tryop rename FROM TO         rename(2)
 *   tryop ioctl-fionread PATH    open PATH read-only, ioctl FIONREAD
 *   tryop ioctl-tcgets PATH      open PATH read-only, ioctl TCGETS
 *   tryop bind PORT              TCP bind to 127.0.0.1:PORT
 *   tryop connect PORT           TCP connect to 127.0.0.1:PORT
 *   tryop bind6 PORT             TCP bind to [::1]:PORT
 *   tryop mptcp-bind PORT        MPTCP bind to 127.0.0.1:PORT
 *   tryop mptcp-connect PORT     MPTCP connect (falls back to TCP with a TCP peer)
 *   tryop udp-bind PORT          UDP bind to 127.0.0.1:PORT
 *   tryop udp-send PORT          UDP sendto 127.0.0.1:PORT
 *   tryop freeport               print a TCP port that was free a moment ago
 *   tryop listen N               N TCP listeners on 127.0.0.1, one port a line
 *   tryop kill PID SIG           kill(2)
 *   tryop ulisten NAME           UNIX stream listener; @NAME is abstract
 *   tryop uconnect NAME          connect to it
 *   tryop uself                  abstract listener and a connect to it, here
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

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif

static int outcome(int ret)
{
	const char *name = strerrorname_np(errno);

	if (ret >= 0) {
		puts("ok");
		return 0;
	}
	puts(name ? name : "E?");
	return 1;
}

static void setup_failed(const char *step)
{
	const char *name = strerrorname_np(errno);

	printf("%s: %s\n", step, name ? name : "E?");
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

/* Accept and drop connections on fds[0..n) until killed or the alarm. */
static void serve(const int *fds, int n)
{
	struct pollfd p[8];
	int i;

	fflush(stdout);
	alarm(120);
	for (i = 0; i < n; i++)
		p[i] = (struct pollfd){.fd = fds[i], .events = POLLIN};
	for (;;) {
		if (poll(p, (nfds_t)n, -1) < 0)
			continue;
		for (i = 0; i < n; i++)
			if (p[i].revents & POLLIN)
				close(accept(fds[i], NULL, NULL));
	}
}

static int listen_tcp(int n)
{
	int fds[8], i;

	if (n < 1 || n > 8) {
		fprintf(stderr, "tryop: 1 to 8 listeners\n");
		exit(2);
	}
	for (i = 0; i < n; i++) {
		struct sockaddr_in a = loopback(0);
		socklen_t len = sizeof a;
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) || listen(fd, 16) ||
		    getsockname(fd, (struct sockaddr *)&a, &len))
			setup_failed("listen");
		printf("%u\n", ntohs(a.sin_port));
		fds[i] = fd;
	}
	serve(fds, n);
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

int main(int argc, char **argv)
{
	const char *op = argc > 1 ? argv[1] : "";

	if (strcmp(op, "truncate") == 0 && argc == 3)
		return outcome(truncate(argv[2], 0));
	if (strcmp(op, "rename") == 0 && argc == 4)
		return outcome(rename(argv[2], argv[3]));
	if (strcmp(op, "ioctl-fionread") == 0 && argc == 3)
		return ioctl_op(argv[2], FIONREAD);
	if (strcmp(op, "ioctl-tcgets") == 0 && argc == 3)
		return ioctl_op(argv[2], TCGETS);
	if ((strcmp(op, "bind") == 0 || strcmp(op, "connect") == 0) && argc == 3)
		return inet_op(SOCK_STREAM, 0, op, port_arg(argv[2]));
	if (strcmp(op, "bind6") == 0 && argc == 3)
		return bind6(port_arg(argv[2]));
	if (strcmp(op, "mptcp-bind") == 0 && argc == 3)
		return inet_op(SOCK_STREAM, IPPROTO_MPTCP, "bind", port_arg(argv[2]));
	if (strcmp(op, "mptcp-connect") == 0 && argc == 3)
		return inet_op(SOCK_STREAM, IPPROTO_MPTCP, "connect", port_arg(argv[2]));
	if (strcmp(op, "udp-bind") == 0 && argc == 3)
		return inet_op(SOCK_DGRAM, 0, "bind", port_arg(argv[2]));
	if (strcmp(op, "udp-send") == 0 && argc == 3)
		return inet_op(SOCK_DGRAM, 0, "send", port_arg(argv[2]));
	if (strcmp(op, "freeport") == 0 && argc == 2)
		return freeport();
	if (strcmp(op, "listen") == 0 && argc == 3)
		return listen_tcp(atoi(argv[2]));
	if (strcmp(op, "kill") == 0 && argc == 4)
		return outcome(kill(atoi(argv[2]), atoi(argv[3])));
	if (strcmp(op, "ulisten") == 0 && argc == 3) {
		int fd = unix_listen(argv[2]);

		puts("ready");
		serve(&fd, 1);
	}
	if (strcmp(op, "uconnect") == 0 && argc == 3)
		return unix_connect(argv[2]);
	if (strcmp(op, "uself") == 0 && argc == 2) {
		char name[64];

		snprintf(name, sizeof name, "@tryop-uself-%d", (int)getpid());
		unix_listen(name);
		return unix_connect(name);
	}
	fprintf(stderr, "usage: tryop OP ARG... (see tests/tryop.c)\n");
	return 2;
}
