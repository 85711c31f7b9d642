/*
 * hooks.h renames these for the launcher's files; a harness wants the real
 * ones after it. Included once, after the launcher's headers.
 */
#undef exit
#undef _exit
#undef execvp
#undef syscall
#undef prctl
#undef fork
#undef _Fork
#undef setsid
#undef getauxval
#undef calloc
#undef malloc
#undef realloc
#undef free
#undef mmap
#undef munmap
#undef mremap
#undef main
