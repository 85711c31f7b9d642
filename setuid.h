/*
 * setuid.c: where the command can be root, the setuid and setgid files
 * beneath its write grants, searched before any rule is added
 * (find_setuid fills request.setuid), to be walked around (hide.c) with
 * writing, truncating and refer withheld.
 */
#ifndef LR_SETUID_H
#define LR_SETUID_H

#include "policy.h"

#define SETUID_WITHHELD \
	(LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_REFER)

void find_setuid(struct policy *p);

#endif
