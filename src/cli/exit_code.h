/* Private to the front-ends (keps in src/cli/, keps-mpi in src/mpi/): the
 * exit code for a status, as docs/cli.md documents it. The library speaks
 * keps_status only; an exit code is a command-line matter, so the mapping
 * lives here and is no libkeps export. */
#ifndef KEPS_CLI_EXIT_CODE_H
#define KEPS_CLI_EXIT_CODE_H

#include "keps/error.h"

/* 0 success; 1 the job cannot be done; 2 bad usage or bad input; 3 an I/O
 * or resource failure (EIO, ENOMEM); 130 a cancelled run (as a shell
 * reports an interrupt). */
static inline int cli_exit_code(keps_status s)
{
    switch (s) {
    case KEPS_OK: return 0;
    case KEPS_EJOB: return 1;
    case KEPS_ENOMEM:
    case KEPS_EIO: return 3;
    case KEPS_ECANCEL: return 130;
    default: return 2;
    }
}

#endif
