/* argfile.c: @FILE arguments, expanded in place before the options are read. */
#ifndef LR_ARGFILE_H
#define LR_ARGFILE_H

#include "policy.h"

void expand_argfiles(struct request *r, int *argc, char ***argv, const char ***from);

#endif
