/*
 * Errno names for the test helpers: fault.c reads them from its command line,
 * tryop.c prints them (musl, which tryop is built with, has no
 * strerrorname_np). Where two names share a number the first one is printed,
 * as glibc does (EOPNOTSUPP, not ENOTSUP; EAGAIN, not EWOULDBLOCK).
 */
#ifndef ERRNAMES_H
#define ERRNAMES_H

#include <errno.h>
#include <stddef.h>
#include <stdio.h>

struct name {
	const char *name;
	long value;
};

/* clang-format off */
#define E(x) {#x, x}
/* clang-format on */
static const struct name errno_names[] = {
	E(EPERM),	 E(ENOENT),	     E(ESRCH),	      E(EINTR),	      E(EIO),
	E(ENXIO),	 E(E2BIG),	     E(ENOEXEC),      E(EBADF),	      E(ECHILD),
	E(EAGAIN),	 E(ENOMEM),	     E(EACCES),	      E(EFAULT),      E(EBUSY),
	E(EEXIST),	 E(EXDEV),	     E(ENODEV),	      E(ENOTDIR),     E(EISDIR),
	E(EINVAL),	 E(ENFILE),	     E(EMFILE),	      E(ENOTTY),      E(ETXTBSY),
	E(EFBIG),	 E(ENOSPC),	     E(ESPIPE),	      E(EROFS),	      E(EMLINK),
	E(EPIPE),	 E(ERANGE),	     E(ENAMETOOLONG), E(ENOSYS),      E(ENOTEMPTY),
	E(ELOOP),	 E(ENOTSOCK),	     E(EDESTADDRREQ), E(EMSGSIZE),    E(EPROTOTYPE),
	E(ENOPROTOOPT),	 E(EPROTONOSUPPORT), E(EOPNOTSUPP),   E(ENOTSUP),     E(EAFNOSUPPORT),
	E(EADDRINUSE),	 E(EADDRNOTAVAIL),   E(ENETDOWN),     E(ENETUNREACH), E(ECONNABORTED),
	E(ECONNRESET),	 E(EISCONN),	     E(ENOTCONN),     E(ETIMEDOUT),   E(ECONNREFUSED),
	E(EHOSTUNREACH), E(EALREADY),	     E(EINPROGRESS),  E(EWOULDBLOCK), E(ENODATA),
	{NULL, 0},
};
#undef E

/* The name of errno value e, or NULL when the table lacks it. */
static inline const char *errno_name(int e)
{
	const struct name *n;

	for (n = errno_names; n->name; n++)
		if (n->value == e)
			return n->name;
	return NULL;
}

/* Print ERR's name on a line of its own (or "errno N"); 1, a helper's
 * status for a failed operation. */
static inline int put_errno(int err)
{
	const char *name = errno_name(err);

	if (name)
		puts(name);
	else
		printf("errno %d\n", err);
	return 1;
}

#endif
