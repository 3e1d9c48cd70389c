/* SPDX-License-Identifier: MIT
 * cli_out.c - atomic output files (temporary file + rename) and the check that no output of a
 * command names one of its inputs or another of its outputs; see cli_out.h.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "cli_out.h"

#include "cli_util.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* {==== Atomic writes ==== */
static int out_fail(const struct hd_cli_out *o, const char *why)
{
    return hd_cli_fail(o->cmd, "%s %s: %s", o->opt, o->path, why);
}

int hd_cli_out_open(struct hd_cli_out *o, const char *cmd, const char *opt, const char *path)
{
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    o->opt = opt;
    o->path = path;
    char why[256];
    if (hd_outfile_open(&o->of, path, false, why, sizeof why) != 0)
        return out_fail(o, why);
    o->f = o->of.f;
    return HD_CLI_OK;
}

int hd_cli_out_commit(struct hd_cli_out *o)
{
    if (!o->f)
        return HD_CLI_FAIL;
    o->f = NULL;
    char why[256];
    if (hd_outfile_commit(&o->of, why, sizeof why) != 0)
        return out_fail(o, why);
    return HD_CLI_OK;
}

void hd_cli_out_discard(struct hd_cli_out *o)
{
    o->f = NULL;
    hd_outfile_discard(&o->of);
}
/* }==== */

/* {==== Inputs and outputs that are the same file ==== */
struct ident {
    bool exists, device; /* device: a character device such as /dev/null, never a clash */
    dev_t dev;
    ino_t ino;
    char canon[PATH_MAX + NAME_MAX + 2];
};

static void identify(const char *path, struct ident *id)
{
    struct stat st;
    memset(id, 0, sizeof *id);
    if (stat(path, &st) == 0) {
        id->exists = true;
        id->device = S_ISCHR(st.st_mode);
        id->dev = st.st_dev;
        id->ino = st.st_ino;
    }
    char *rp = realpath(path, NULL);
    if (rp) {
        snprintf(id->canon, sizeof id->canon, "%s", rp);
        free(rp);
        return;
    }
    /* not there yet: the canonical directory plus the name */
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX];
    const char *base = slash ? slash + 1 : path;
    if (slash) {
        size_t n = (size_t)(slash - path);
        if (n >= sizeof dir)
            n = sizeof dir - 1;
        memcpy(dir, path, n);
        dir[n] = '\0';
        if (n == 0)
            snprintf(dir, sizeof dir, "/");
    } else {
        snprintf(dir, sizeof dir, ".");
    }
    rp = realpath(dir, NULL);
    if (rp) {
        snprintf(id->canon, sizeof id->canon, "%s/%s", rp, base);
        free(rp);
    } else {
        snprintf(id->canon, sizeof id->canon, "%s", path);
    }
}

static bool same_file(const struct ident *a, const struct ident *b)
{
    if (a->device || b->device)
        return false;
    if (a->exists && b->exists)
        return a->dev == b->dev && a->ino == b->ino;
    return strcmp(a->canon, b->canon) == 0;
}

/* Can `path` be written at all (checked before a run, so that a long run does not end in
 * "cannot write")? HD_CLI_OK, or HD_CLI_USAGE after a message. */
static int writable(const char *cmd, const char *what, const char *path)
{
    struct stat st;
    if (!path[0])
        return hd_cli_usage(cmd, "%s: empty path", what);
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return hd_cli_usage(cmd, "%s %s: is a directory", what, path);
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX];
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return hd_cli_usage(cmd, "%s %s: cannot write: no directory %s", what, path, dir);
    if (access(dir, W_OK | X_OK) != 0 && !(stat(path, &st) == 0 && !S_ISREG(st.st_mode)))
        return hd_cli_usage(cmd, "%s %s: cannot write in %s: %s", what, path, dir,
                            strerror(errno));
    return HD_CLI_OK;
}

int hd_cli_paths_check(const char *cmd, const struct hd_cli_path *paths, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (paths[i].output && writable(cmd, paths[i].what, paths[i].path) != HD_CLI_OK)
            return HD_CLI_USAGE;
    if (n == 0)
        return HD_CLI_OK;
    /* ids[n]: the running executable, an input of every command (issue 34 item 3: `cosim
     * --fst build/heddle` overwrote it), compared by identity as the others */
    struct ident *ids = malloc((size_t)(n + 1) * sizeof *ids);
    if (!ids)
        return hd_cli_fail(cmd, "out of memory");
    for (unsigned i = 0; i < n; i++)
        identify(paths[i].path, &ids[i]);
    identify("/proc/self/exe", &ids[n]);
    if (!ids[n].exists) /* no /proc: the binary is not known; it clashes with nothing */
        ids[n].device = true;
    int rc = HD_CLI_OK;
    for (unsigned i = 0; i < n && rc == HD_CLI_OK; i++) {
        if (!paths[i].output)
            continue;
        if (same_file(&ids[i], &ids[n])) {
            rc = hd_cli_usage(cmd, "%s %s would overwrite the running heddle binary %s",
                              paths[i].what, paths[i].path, ids[n].canon);
            break;
        }
        for (unsigned j = 0; j < n && rc == HD_CLI_OK; j++) {
            if (j == i || (paths[j].output && j > i) || !same_file(&ids[i], &ids[j]))
                continue;
            if (paths[j].output)
                rc = hd_cli_usage(cmd, "%s %s and %s %s write the same file", paths[j].what,
                                  paths[j].path, paths[i].what, paths[i].path);
            else
                rc = hd_cli_usage(cmd, "%s %s would overwrite the input %s %s", paths[i].what,
                                  paths[i].path, paths[j].what, paths[j].path);
        }
    }
    free(ids);
    return rc;
}
/* }==== */
