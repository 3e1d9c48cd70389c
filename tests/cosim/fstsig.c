/* SPDX-License-Identifier: MIT
 * fstsig.c - check the RTL-internal signals in an FST written by `heddle cosim --fst F
 * --fst-internal B` (issue 16 item 5), with fstapi's reader.
 *   fstsig FILE.fst SCOPE.PATH.NAME   the variable exists and takes at least two different
 *                                     values in the file (it toggles); prints its changes count
 *   fstsig FILE.fst --int-scopes N    exactly N instance scopes (cosim.<inst>) hold an `int`
 *                                     scope with at least one variable (0: the option was off)
 *   fstsig FILE.fst --equal A B       A and B (full names) hold the same value at every clock
 *                                     edge (time 10c) where both have one, and A toggles there:
 *                                     an internal flop against the output port it drives shows
 *                                     that internal values are sampled in the ports' cycle
 * Exit 0 when the check holds, 1 when not, 2 on errors.
 */
#include "fstapi.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEPTH 16

struct walk {
    char scope[DEPTH][128];
    int depth;
};

/* Full dotted name of variable `name` in the current scope. */
static void full_name(const struct walk *w, const char *name, char *out, size_t len)
{
    size_t at = 0;
    out[0] = '\0';
    for (int d = 0; d < w->depth && d < DEPTH && at < len; d++)
        at += (size_t)snprintf(out + at, len - at, "%s.", w->scope[d]);
    if (at < len)
        snprintf(out + at, len - at, "%s", name);
}

static void push(struct walk *w, const char *name)
{
    if (w->depth < DEPTH)
        snprintf(w->scope[w->depth], sizeof w->scope[0], "%s", name);
    w->depth++;
}

static int int_scopes(void *r, const char *path, unsigned long want)
{
    struct walk w = {.depth = 0};
    unsigned long n = 0;
    char counted[128] = "";
    struct fstHier *h;
    while ((h = fstReaderIterateHier(r)) != NULL) {
        if (h->htyp == FST_HT_SCOPE)
            push(&w, h->u.scope.name);
        else if (h->htyp == FST_HT_UPSCOPE && w.depth > 0)
            w.depth--;
        else if (h->htyp == FST_HT_VAR && w.depth >= 3 && strcmp(w.scope[0], "cosim") == 0 &&
                 strcmp(w.scope[2], "int") == 0 && strcmp(counted, w.scope[1]) != 0) {
            snprintf(counted, sizeof counted, "%s", w.scope[1]);
            n++;
        }
    }
    fstReaderClose(r);
    printf("fstsig: %s: %lu instance scopes hold internal signals, want %lu\n", path, n, want);
    return n == want ? 0 : 1;
}

struct changes {
    unsigned long n;
    char first[4096];
    int distinct; /* 1: one value so far, 2: a second value was seen */
};

static void on_change(void *user, uint64_t time, fstHandle facidx, const unsigned char *value)
{
    (void)time;
    (void)facidx;
    struct changes *c = user;
    c->n++;
    if (c->n == 1)
        snprintf(c->first, sizeof c->first, "%s", (const char *)value);
    else if (strcmp(c->first, (const char *)value) != 0)
        c->distinct = 2;
}

/* The handle of variable `name` (full dotted name), 0 if none; *width its width. Rewinds. */
static fstHandle find_var(void *r, const char *name, unsigned *width)
{
    struct walk w = {.depth = 0};
    fstHandle found = 0;
    struct fstHier *h;
    char full[2048];
    fstReaderIterateHierRewind(r);
    while ((h = fstReaderIterateHier(r)) != NULL) {
        if (h->htyp == FST_HT_SCOPE) {
            push(&w, h->u.scope.name);
        } else if (h->htyp == FST_HT_UPSCOPE && w.depth > 0) {
            w.depth--;
        } else if (h->htyp == FST_HT_VAR) {
            full_name(&w, h->u.var.name, full, sizeof full);
            if (strcmp(full, name) == 0) {
                found = h->u.var.handle;
                *width = h->u.var.length;
            }
        }
    }
    return found;
}

static int equal(void *r, const char *path, const char *a, const char *b)
{
    unsigned wa = 0, wb = 0;
    fstHandle ha = find_var(r, a, &wa), hb = find_var(r, b, &wb);
    if (!ha || !hb || wa != wb) {
        printf("fstsig: %s: %s (%u bits) / %s (%u bits): %s\n", path, a, wa, b, wb,
               !ha || !hb ? "missing" : "widths differ");
        fstReaderClose(r);
        return 1;
    }
    fstReaderSetFacProcessMaskAll(r);
    static char va[4096], vb[4096], first[4096];
    uint64_t t0 = fstReaderGetStartTime(r), t1 = fstReaderGetEndTime(r);
    unsigned long compared = 0, differ = 0;
    int toggles = 0;
    for (uint64_t t = t0 - t0 % 10; t <= t1; t += 10) {
        if (!fstReaderGetValueFromHandleAtTime(r, t, ha, va) ||
            !fstReaderGetValueFromHandleAtTime(r, t, hb, vb) || strchr(va, 'x') || strchr(vb, 'x'))
            continue;
        if (compared++ == 0)
            snprintf(first, sizeof first, "%s", va);
        else if (strcmp(first, va) != 0)
            toggles = 1;
        if (strcmp(va, vb) != 0 && differ++ == 0)
            printf("fstsig: time %" PRIu64 ": %s = %s, %s = %s\n", t, a, va, b, vb);
    }
    fstReaderClose(r);
    printf("fstsig: %s: %s and %s compared at %lu clock edges: %lu differ, %s\n", path, a, b,
           compared, differ, toggles ? "toggles" : "never changes");
    return compared && !differ && toggles ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: fstsig FILE.fst SCOPE.NAME | --int-scopes N | --equal A B\n");
        return 2;
    }
    void *r = fstReaderOpen(argv[1]);
    if (!r) {
        fprintf(stderr, "fstsig: cannot open %s\n", argv[1]);
        return 2;
    }
    if (strcmp(argv[2], "--int-scopes") == 0)
        return argc > 3 ? int_scopes(r, argv[1], strtoul(argv[3], NULL, 10)) : 2;
    if (strcmp(argv[2], "--equal") == 0)
        return argc > 4 ? equal(r, argv[1], argv[3], argv[4]) : 2;
    unsigned width = 0;
    fstHandle want = find_var(r, argv[2], &width);
    if (!want) {
        printf("fstsig: %s: no variable %s\n", argv[1], argv[2]);
        fstReaderClose(r);
        return 1;
    }
    struct changes c = {.n = 0, .distinct = 1};
    fstReaderClrFacProcessMaskAll(r);
    fstReaderSetFacProcessMask(r, want);
    fstReaderIterBlocks(r, on_change, &c, NULL);
    fstReaderClose(r);
    printf("fstsig: %s: %s (%u bits): %lu value changes, %s\n", argv[1], argv[2], width, c.n,
           c.distinct == 2 ? "toggles" : "never changes");
    return c.distinct == 2 ? 0 : 1;
}
