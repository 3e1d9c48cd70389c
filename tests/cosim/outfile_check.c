/* SPDX-License-Identifier: MIT
 * outfile_check.c - atomic outputs (issue 17, data safety): model/hw/hd_outfile.c, which the
 * `heddle` commands' outputs (cli_out.c) and the co-simulation's --record and FST files
 * (cosim_regpat.c, cosim_fst.c) are written through. Each case runs the writer in a child
 * process that is killed with SIGKILL in the middle of its write (the moment is exact: the
 * child kills itself), then checks that the target still holds its old contents; and that a
 * write that completes replaces the target whole and leaves no temporary file behind.
 * Cases: a FILE* output (the record, --stats, --dump); an FST window with its .gtkw (fstapi
 * writes by name); a symbolic link (followed, kept); a directory (refused); /dev/null (in
 * place). Usage: outfile_check SCRATCH_DIR. Exit 0 when every check holds.
 */
#include "cosim_fst.h"
#include "hd_outfile.h"

#include <dirent.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures;

#define CHECK(c)                                                                 \
    do {                                                                         \
        if (!(c)) {                                                              \
            fprintf(stderr, "outfile_check:%d: FAILED: %s\n", __LINE__, #c);     \
            failures++;                                                          \
        }                                                                        \
    } while (0)

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "outfile_check: cannot write %s\n", path);
        exit(2);
    }
}

/* The contents of path (malloc'd, NUL-terminated; *len its size), NULL if unreadable. */
static char *slurp(const char *path, long *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) {
        b[n] = '\0';
        *len = n;
    }
    return b;
}

static bool holds(const char *path, const char *text)
{
    long n = 0;
    char *b = slurp(path, &n);
    bool ok = b && (size_t)n == strlen(text) && memcmp(b, text, (size_t)n) == 0;
    free(b);
    return ok;
}

/* Temporary files (".NAME.tmp-*") in dir; with remove, delete them (a SIGKILL leaves them). */
static unsigned temps(const char *dir, bool remove)
{
    DIR *d = opendir(dir);
    unsigned n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (e->d_name[0] == '.' && strstr(e->d_name, ".tmp-")) {
            n++;
            if (remove) {
                char p[4096];
                snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
                unlink(p);
            }
        }
    if (d)
        closedir(d);
    return n;
}

/* Run fn(path) in a child; true when the child died of SIGKILL. */
static bool killed_child(void (*fn)(const char *), const char *path)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("outfile_check: fork");
        exit(2);
    }
    if (pid == 0) {
        fn(path);
        _exit(0); /* not reached: fn kills itself */
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
}

/* {==== a FILE* output: a long write killed half way ==== */
static void write_and_die(const char *path)
{
    struct hd_outfile o;
    char why[256];
    if (hd_outfile_open(&o, path, false, why, sizeof why) != 0)
        _exit(3);
    for (unsigned i = 0; i < 100000; i++)
        fprintf(o.f, "vector %u\n", i);
    fflush(o.f); /* the partial output is on disk, in the temporary file */
    raise(SIGKILL);
}

static void case_file(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/rec.txt", dir);
    put(path, "OLD RECORD\n");
    CHECK(killed_child(write_and_die, path));
    CHECK(holds(path, "OLD RECORD\n")); /* the old file, untouched */
    CHECK(temps(dir, true) == 1);       /* the killed write's temporary file, removed here */

    struct hd_outfile o;
    char why[256];
    CHECK(hd_outfile_open(&o, path, false, why, sizeof why) == 0);
    CHECK(holds(path, "OLD RECORD\n")); /* not replaced before the commit */
    fputs("NEW RECORD\n", o.f);
    CHECK(hd_outfile_commit(&o, why, sizeof why) == 0);
    CHECK(holds(path, "NEW RECORD\n"));
    CHECK(temps(dir, false) == 0);

    /* discard: the old file stays, nothing left behind */
    CHECK(hd_outfile_open(&o, path, false, why, sizeof why) == 0);
    fputs("ABANDONED\n", o.f);
    hd_outfile_discard(&o);
    CHECK(holds(path, "NEW RECORD\n"));
    CHECK(temps(dir, false) == 0);
}
/* }==== */

/* {==== an FST window (fstapi writes by name) and its .gtkw ==== */
static void fst_and_die(const char *path)
{
    struct hd_cosim_fst *f = hd_cosim_fst_open(path);
    if (!f)
        _exit(3);
    raise(SIGKILL); /* before the close: fstapi has created and written its file */
}

static void case_fst(const char *dir)
{
    char path[4096], gtkw[4096];
    snprintf(path, sizeof path, "%s/win.fst", dir);
    snprintf(gtkw, sizeof gtkw, "%s/win.gtkw", dir);
    put(path, "OLD FST\n");
    put(gtkw, "OLD GTKW\n");
    CHECK(killed_child(fst_and_die, path));
    CHECK(holds(path, "OLD FST\n"));
    CHECK(holds(gtkw, "OLD GTKW\n"));
    CHECK(temps(dir, true) >= 1); /* the temporary FST (and fstapi's .hier beside it) */

    struct hd_cosim_fst *f = hd_cosim_fst_open(path);
    CHECK(f != NULL);
    CHECK(holds(path, "OLD FST\n")); /* still the old file while the window is written */
    CHECK(hd_cosim_fst_close(f, gtkw, 7) == 0);
    long n = 0;
    char *b = slurp(path, &n);
    CHECK(b && n > 8 && strcmp(b, "OLD FST\n") != 0);
    free(b);
    b = slurp(gtkw, &n);
    CHECK(b && strstr(b, "[dumpfile]") && strstr(b, path) && !strstr(b, ".tmp-"));
    free(b);
    CHECK(temps(dir, false) == 0);
}
/* }==== */

/* {==== a symbolic link, a directory, /dev/null ==== */
static void case_special(const char *dir)
{
    char target[4096], link[4096], why[256];
    snprintf(target, sizeof target, "%s/target.txt", dir);
    snprintf(link, sizeof link, "%s/link.txt", dir);
    put(target, "OLD\n");
    unlink(link);
    CHECK(symlink("target.txt", link) == 0);
    struct hd_outfile o;
    CHECK(hd_outfile_open(&o, link, false, why, sizeof why) == 0);
    fputs("NEW\n", o.f);
    CHECK(hd_outfile_commit(&o, why, sizeof why) == 0);
    struct stat st;
    CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode)); /* the link stays a link */
    CHECK(holds(target, "NEW\n"));                        /* the file it names is replaced */

    CHECK(hd_outfile_open(&o, dir, false, why, sizeof why) != 0);
    CHECK(strstr(why, "is a directory") != NULL);

    CHECK(hd_outfile_open(&o, "/dev/null", false, why, sizeof why) == 0);
    CHECK(o.tmp == NULL); /* a device is written in place */
    fputs("x\n", o.f);
    CHECK(hd_outfile_commit(&o, why, sizeof why) == 0);
    CHECK(temps(dir, false) == 0);
}
/* }==== */

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: outfile_check SCRATCH_DIR\n");
        return 2;
    }
    mkdir(argv[1], 0777);
    case_file(argv[1]);
    case_fst(argv[1]);
    case_special(argv[1]);
    if (failures) {
        fprintf(stderr, "outfile_check: %d checks FAILED\n", failures);
        return 1;
    }
    printf("outfile_check: atomic writes hold (SIGKILL mid-write keeps the old file; FST+gtkw, "
           "link, directory, /dev/null)\n");
    return 0;
}
