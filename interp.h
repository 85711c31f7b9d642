/* interp.c: the #! or ELF interpreter FD's file names; why an exec failed. */
#ifndef LR_INTERP_H
#define LR_INTERP_H

#include <stddef.h>

enum { INTERP_SHEBANG = 1, INTERP_ELF = 2 };
enum { STOP_DENIED = 1, STOP_MISSING = 2 };
int open_regular(const char *path, int by_path);
int read_interpreter(int fd, char *out, size_t size);
const char *first_in_path(const char *name, char *buf);
int exec_stop(const char *file, const char **role, char *path, char *canon);

#endif
