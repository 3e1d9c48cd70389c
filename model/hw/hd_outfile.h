/* SPDX-License-Identifier: MIT
 * hd_outfile.h - an output file written atomically: to a temporary file beside its target,
 * renamed over the target only when complete. Shared by every layer that writes a user-named
 * output (the `heddle` commands' statistics, series and dumps through model/cli/cli_out.c; the
 * co-simulation's vector records and FST windows in cosim/), so that a crash, SIGKILL or a full
 * disk while writing leaves either the old file or the complete new one (rename(2) is atomic
 * within a directory). Issue 17, data safety.
 *
 * Targets that are not regular files (/dev/null, /dev/stdout, a FIFO) cannot be renamed over and
 * are written in place; a symbolic link is followed (the file it names is replaced, the link
 * kept); a directory is refused. The temporary file is `DIR/.NAME.tmp-XXXXXX` with the target's
 * permissions (a new file: 0666 less the umask). SIGKILL can leave it behind; nothing else.
 * Errors are returned as a reason ("is a directory", "cannot write: No space left on device");
 * the caller names the option and path.
 */
#ifndef HD_OUTFILE_H
#define HD_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct hd_outfile {
    FILE *f;          /* write here (NULL when opened by name: write the file `name`) */
    const char *name; /* the file being written: `tmp`, or the target when written in place */
    char *real;       /* the file a symbolic link names (malloc'd), or NULL */
    char *tmp;        /* the temporary file (malloc'd), or NULL when writing in place */
    const char *path; /* the target as given */
};

/* Start writing `path`. by_name: leave the (empty) temporary file closed for a writer that
 * opens files by name (fstapi); o->f is then NULL. Returns 0, or -1 with the reason in why. */
int hd_outfile_open(struct hd_outfile *o, const char *path, bool by_name, char *why,
                    size_t whylen);
/* Flush, sync, close and rename the temporary file over the target. Returns 0, or -1 with the
 * reason in why (the temporary file is then removed and the target left as it was). */
int hd_outfile_commit(struct hd_outfile *o, char *why, size_t whylen);
/* Give up: close and remove the temporary file; the target is left as it was. Idempotent. */
void hd_outfile_discard(struct hd_outfile *o);

#endif
