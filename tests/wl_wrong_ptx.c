/* SPDX-License-Identifier: MIT
 * wl_wrong_ptx.c - the workload checker catches a wrong kernel: one PTX instruction of a
 * workload, changed in one operand, must make its run fail with HD_WL_MISMATCH and a message that
 * locates the first differing element (issue 26, "a kernel checker is real").
 *
 * Usage: wl_wrong_ptx WORKLOAD OLD NEW EXPECT
 *   Takes the workload's embedded PTX, replaces the single occurrence of the instruction text OLD
 *   (it must occur exactly once) by NEW, writes that copy into a fresh temporary directory
 *   ($TMPDIR or /tmp, removed afterwards), reads it back and runs the workload's driver at small
 *   size on it (timing model, default configuration). Checks first that the unchanged PTX
 *   verifies, then that the mutated copy gives HD_WL_MISMATCH with EXPECT a substring of the
 *   message (e.g. "b[480]": the first wrong element, named by the driver's comparison).
 * Exit status 0 when all holds, 1 on a failed check, 2 for bad usage.
 */
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int ww_run(const struct hd_workload *w, const char *text, size_t len, char *err,
                  size_t errlen)
{
    char gerr[256];
    struct hd_gpu *gpu = hd_gpu_create(NULL, gerr, sizeof gerr);
    if (!gpu) {
        snprintf(err, errlen, "hd_gpu_create: %s", gerr);
        return HD_ERR_CONFIG;
    }
    struct hd_wl_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.size = HD_WL_SMALL;
    ctx.ptx_text = text;
    ctx.ptx_len = len;
    ctx.ptx_name = hd_workload_ptx_path(w->name); /* keeps the ptxas summary and variant flags */
    ctx.log = stderr;
    int rc = w->run(gpu, &ctx);
    snprintf(err, errlen, "%s", ctx.err[0] ? ctx.err : hd_last_error(gpu));
    hd_gpu_destroy(gpu);
    return rc;
}

/* The PTX with the single occurrence of `old` replaced by `new`, written to and read back from a
 * file in a temporary directory; NULL (message printed) when `old` is missing or not unique. */
static char *ww_mutate(const char *ptx, size_t len, const char *old, const char *new,
                       size_t *out_len)
{
    const char *hit = strstr(ptx, old);
    if (!hit || strstr(hit + 1, old)) {
        fprintf(stderr, "wl_wrong_ptx: '%s' occurs %s in the PTX (must be exactly once)\n", old,
                hit ? "more than once" : "nowhere");
        return NULL;
    }
    const char *tmp = getenv("TMPDIR");
    char dir[512], path[600];
    snprintf(dir, sizeof dir, "%s/wl_wrong_ptx.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("wl_wrong_ptx: mkdtemp");
        return NULL;
    }
    snprintf(path, sizeof path, "%s/mutated.ptx", dir);
    FILE *f = fopen(path, "wb");
    size_t pre = (size_t)(hit - ptx), lo = strlen(old), ln = strlen(new);
    bool ok = f && fwrite(ptx, 1, pre, f) == pre && fwrite(new, 1, ln, f) == ln &&
              fwrite(hit + lo, 1, len - pre - lo, f) == len - pre - lo;
    if (f && fclose(f) != 0)
        ok = false;
    size_t n = len - lo + ln;
    char *text = ok ? malloc(n + 1) : NULL;
    f = text ? fopen(path, "rb") : NULL;
    if (!f || fread(text, 1, n, f) != n) {
        fprintf(stderr, "wl_wrong_ptx: cannot write/read %s\n", path);
        free(text);
        text = NULL;
    } else {
        text[n] = '\0';
        *out_len = n;
        fprintf(stderr, "wl_wrong_ptx: mutated copy in %s: '%s' -> '%s'\n", path, old, new);
    }
    if (f)
        fclose(f);
    remove(path);
    rmdir(dir);
    return text;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: wl_wrong_ptx WORKLOAD OLD NEW EXPECT\n");
        return 2;
    }
    const struct hd_workload *w = hd_workload_find(argv[1]);
    size_t len = 0;
    const char *ptx = w ? hd_workload_ptx(w->name, &len) : NULL;
    if (!ptx) {
        fprintf(stderr, "wl_wrong_ptx: unknown workload '%s'\n", argv[1]);
        return 2;
    }
    if (strcmp(argv[2], argv[3]) == 0) {
        fprintf(stderr, "wl_wrong_ptx: OLD and NEW are the same instruction\n");
        return 2;
    }
    char err[4096]; /* a run's message (struct hd_wl_ctx err) */
    int rc = ww_run(w, ptx, len, err, sizeof err);
    if (rc != HD_OK) {
        fprintf(stderr, "FAIL: the unchanged %s does not verify (status %d): %s\n", w->name, rc,
                err);
        return 1;
    }
    size_t mlen = 0;
    char *mutated = ww_mutate(ptx, len, argv[2], argv[3], &mlen);
    if (!mutated)
        return 2;
    rc = ww_run(w, mutated, mlen, err, sizeof err);
    free(mutated);
    printf("%s with the wrong instruction: status %d: %s\n", w->name, rc, err);
    if (rc != HD_WL_MISMATCH) {
        fprintf(stderr, "FAIL: expected HD_WL_MISMATCH (%d), got %d\n", HD_WL_MISMATCH, rc);
        return 1;
    }
    if (!strstr(err, argv[4])) {
        fprintf(stderr, "FAIL: the message does not name '%s'\n", argv[4]);
        return 1;
    }
    printf("PASS: reported as a wrong result at %s\n", argv[4]);
    return 0;
}
