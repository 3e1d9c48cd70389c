/* SPDX-License-Identifier: MIT
 * fstcheck.c - check an FST window written by `heddle cosim` on a mismatch: some instance's
 * reference and RTL views of port PORT (default stride_o) differ at some clock edge inside the
 * file. Prints the scope, the time and both values. Exit 0 when found, 1 when not, 2 on errors.
 * `fstcheck FILE.fst --instances N`: the file holds exactly N instance scopes (cosim.<inst>),
 * each with its clock (issue 16 item 5: no instance is dropped).
 */
#include "fstapi.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXV 256

static int count_instances(void *r, const char *path, unsigned long want)
{
    int depth = 0;
    unsigned long scopes = 0, clocks = 0;
    struct fstHier *h;
    while ((h = fstReaderIterateHier(r)) != NULL) {
        if (h->htyp == FST_HT_SCOPE) {
            scopes += depth == 1;
            depth++;
        } else if (h->htyp == FST_HT_UPSCOPE && depth > 0) {
            depth--;
        } else if (h->htyp == FST_HT_VAR && depth == 2 && strcmp(h->u.var.name, "clk_i") == 0) {
            clocks++;
        }
    }
    fstReaderClose(r);
    printf("fstcheck: %s holds %lu instance scopes (%lu clocks), want %lu\n", path, scopes, clocks,
           want);
    return scopes == want && clocks == want ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: fstcheck FILE.fst [PORT]\n");
        return 2;
    }
    const char *port = argc > 2 ? argv[2] : "stride_o";
    void *r = fstReaderOpen(argv[1]);
    if (!r) {
        fprintf(stderr, "fstcheck: cannot open %s\n", argv[1]);
        return 2;
    }
    if (argc > 3 && strcmp(argv[2], "--instances") == 0)
        return count_instances(r, argv[1], strtoul(argv[3], NULL, 10));
    char scope[8][128];
    int depth = 0;
    fstHandle ref[MAXV], rtl[MAXV];
    char inst[MAXV][128];
    int n = 0;
    struct fstHier *h;
    while ((h = fstReaderIterateHier(r)) != NULL) {
        if (h->htyp == FST_HT_SCOPE && depth < 8)
            snprintf(scope[depth++], sizeof scope[0], "%s", h->u.scope.name);
        else if (h->htyp == FST_HT_UPSCOPE && depth > 0)
            depth--;
        else if (h->htyp == FST_HT_VAR && depth >= 3 && strcmp(h->u.var.name, port) == 0) {
            int k;
            for (k = 0; k < n && strcmp(inst[k], scope[depth - 2]) != 0; k++)
                ;
            if (k == n && n < MAXV)
                snprintf(inst[n++], sizeof inst[0], "%s", scope[depth - 2]);
            if (strcmp(scope[depth - 1], "ref") == 0)
                ref[k] = h->u.var.handle;
            else if (strcmp(scope[depth - 1], "rtl") == 0)
                rtl[k] = h->u.var.handle;
        }
    }
    fstReaderSetFacProcessMaskAll(r);
    uint64_t t0 = fstReaderGetStartTime(r), t1 = fstReaderGetEndTime(r);
    static char a[4096], b[4096];
    for (uint64_t t = t0 - t0 % 10; t <= t1; t += 10)
        for (int k = 0; k < n; k++) {
            if (!fstReaderGetValueFromHandleAtTime(r, t, ref[k], a) ||
                !fstReaderGetValueFromHandleAtTime(r, t, rtl[k], b))
                continue;
            if (strcmp(a, b) != 0) {
                printf("fstcheck: %s %s differs at time %" PRIu64 " (cycle %" PRIu64 ")\n  ref %s\n  rtl %s\n",
                       inst[k], port, t, t / 10, a, b);
                fstReaderClose(r);
                return 0;
            }
        }
    printf("fstcheck: no difference of %s in %s (%d instances, times %" PRIu64 "..%" PRIu64 ")\n",
           port, argv[1], n, t0, t1);
    fstReaderClose(r);
    return 1;
}
