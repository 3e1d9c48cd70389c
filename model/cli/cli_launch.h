/* SPDX-License-Identifier: MIT
 * cli_launch.h - a parsed `heddle launch` command line (cli_launch.c) and its execution on the
 * simulated GPU (cli_launch_exec.c).
 *
 * Arguments are kept in kernel-parameter order; buffer arguments point into `bufs`, whose device
 * addresses are filled in when the buffers are allocated. The post-run actions (--print, --dump,
 * --expect) run in command-line order after the kernel completed.
 */
#ifndef HD_CLI_LAUNCH_H
#define HD_CLI_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli_gpu.h"
#include "heddle.h"

struct hd_launch_buf {
    const char *name, *fill;
    uint64_t bytes;
    hd_devptr ptr;
};

struct hd_launch_arg {
    int buf;           /* buffer index for buf:/ptr:, else -1 */
    uint64_t offset;   /* ptr: offset */
    uint8_t bytes[8];  /* scalar value (little-endian) or the pointer, filled at launch */
    size_t size;
};

struct hd_launch_post {         /* --print NAME:TYPE:N, --dump NAME:PATH, --expect NAME:FILL */
    char kind;         /* 'p', 'd', 'e' */
    int buf;
    const char *type, *path, *fill;
    uint64_t count;
};

struct hd_launch {
    const char *ptx, *kernel;
    struct hd_cli_config cfg; /* --config, --set */
    struct hd_dim3 grid, block;
    bool have_grid, have_block;
    uint32_t shared;
    long long regs;             /* --regs N: registers per thread by hand (0: not given) */
    bool have_regs;
    struct hd_launch_attr attr; /* --priority, --arrive, --latency-bound, --hint */
    struct hd_launch_buf *bufs;
    struct hd_launch_arg *args;
    struct hd_launch_post *posts;
    unsigned nbufs, nargs, nposts;
};

/* Create the GPU, load the module, make the buffers, launch, synchronize, then run the post
 * actions. Returns the exit code (enum hd_cli_exit). */
int hd_cli_launch_execute(struct hd_launch *l);

#endif
