/* SPDX-License-Identifier: MIT
 * cli_out.h - safe output files for the `heddle` commands: every output (--stats, --series,
 * --dump, ...) is written to a temporary file beside its target and renamed over it only when
 * complete, and no output may name an input or another output of the same command.
 *
 * Design: a crash, SIGKILL or a full disk while writing leaves either the old file or the
 * complete new one, never a truncated mix (rename(2) is atomic within a directory; the
 * temporary file and the rename are model/hw/hd_outfile.c's, shared with cosim/). Targets that
 * are not regular files (/dev/null, /dev/stdout, a FIFO) cannot be renamed over and are written
 * in place; a symbolic link is followed (the file it names is replaced, the link kept). Paths
 * are compared by identity (device and inode when the file exists, else the
 * canonical directory plus the name), so "./c.ini" and "c.ini" are the same file. Messages name
 * the option, the path and the reason (errno text, "is a directory").
 */
#ifndef HD_CLI_OUT_H
#define HD_CLI_OUT_H

#include "hd_outfile.h"

#include <stdbool.h>
#include <stdio.h>

/* An output being written. */
struct hd_cli_out {
    FILE *f;              /* write here */
    const char *cmd;      /* "run" */
    const char *opt;      /* "--stats" */
    const char *path;     /* the target as given (messages) */
    struct hd_outfile of; /* the temporary file and its rename (model/hw/hd_outfile.h) */
};

/* Open `path` for writing through a temporary file. Returns HD_CLI_OK, or HD_CLI_FAIL after
 * "heddle CMD: OPT PATH: reason" on stderr. */
int hd_cli_out_open(struct hd_cli_out *o, const char *cmd, const char *opt, const char *path);
/* Flush, sync and rename the temporary file over the target. Returns HD_CLI_OK, or HD_CLI_FAIL
 * after a message (the temporary file is removed and the target left as it was). */
int hd_cli_out_commit(struct hd_cli_out *o);
/* Give up: close and remove the temporary file; the target is left as it was. */
void hd_cli_out_discard(struct hd_cli_out *o);

/* One path a command reads or writes, for hd_cli_paths_check(). */
struct hd_cli_path {
    const char *what; /* "--config", "--stats", "the PTX file", ... */
    const char *path;
    bool output;
};

/* Refuse, before the run, any output that cannot be written (a directory, a missing or
 * read-only directory) and any output path that names an input or another output (of the n
 * paths). Returns HD_CLI_OK, or HD_CLI_USAGE after a message naming the options. */
int hd_cli_paths_check(const char *cmd, const struct hd_cli_path *paths, unsigned n);

#endif
