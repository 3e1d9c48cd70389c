/* SPDX-License-Identifier: MIT
 * hd_cover.c - functional coverage counters, report and check (hd_cover.h; issue 16 item 2).
 */
#include "hd_cover.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int hd_cover_init(struct hd_cover *c, const struct hd_cover_desc *d)
{
    memset(c, 0, sizeof *c);
    c->d = d;
    c->instances = 1;
    c->n = calloc(d->nbins ? d->nbins : 1, sizeof *c->n);
    c->prev = calloc(1, d->b->in_size + d->b->out_size);
    if (!c->n || !c->prev) {
        hd_cover_free(c);
        return -1;
    }
    return 0;
}

void hd_cover_free(struct hd_cover *c)
{
    free(c->n);
    free(c->prev);
    memset(c, 0, sizeof *c);
}

void hd_cover_sample(struct hd_cover *c, const void *in, const void *out, const void *state)
{
    const struct hd_block_desc *b = c->d->b;
    c->d->sample(in, out, c->prev, c->prev + b->in_size, state, c->rst, c->n);
    memcpy(c->prev, in, b->in_size);
    memcpy(c->prev + b->in_size, out, b->out_size);
    c->have_prev = true;
    c->rst = false;
    c->cycles++;
}

void hd_cover_reset(struct hd_cover *c)
{
    if (!c->have_prev || c->rst) /* the first reset, or one right after another */
        return;
    c->rst = true;
    c->resets++;
}

/* Add x's counts into sum (the same block; sum initialised with its descriptor). */
static void hd_cover_add(struct hd_cover *sum, const struct hd_cover *x)
{
    for (unsigned k = 0; k < sum->d->nbins; k++)
        sum->n[k] += x->n[k];
    sum->cycles += x->cycles;
    sum->resets += x->resets;
}

unsigned hd_cover_hit(const struct hd_cover *c, unsigned *reachable)
{
    unsigned hit = 0, r = 0;
    for (unsigned k = 0; k < c->d->nbins; k++) {
        const struct hd_cover_bin *bin = &c->d->bins[k];
        r += bin->unreachable == NULL;
        hit += bin->unreachable == NULL && c->n[k] != 0;
    }
    if (reachable)
        *reachable = r;
    return hit;
}

void hd_cover_print(const struct hd_cover *c, const char *who, FILE *f)
{
    unsigned reach;
    unsigned hit = hd_cover_hit(c, &reach);
    fprintf(f, "coverage %s (%s", c->d->b->name, who);
    if (c->instances != 1)
        fprintf(f, ", %u instances summed", c->instances);
    fprintf(f, ", %" PRIu64 " cycles, %" PRIu64 " resets): %u of %u bins hit", c->cycles,
            c->resets, hit, reach);
    if (reach != c->d->nbins)
        fprintf(f, " (+%u declared unreachable)", c->d->nbins - reach);
    fputc('\n', f);
    for (unsigned k = 0; k < c->d->nbins; k++) {
        const struct hd_cover_bin *bin = &c->d->bins[k];
        fprintf(f, "  %12" PRIu64 "  %-22s %s%s%s\n", c->n[k], bin->name,
                bin->unreachable ? "[unreachable: " : "",
                bin->unreachable ? bin->unreachable : bin->doc, bin->unreachable ? "]" : "");
    }
}

unsigned hd_cover_check(const struct hd_cover *c, const char *who, FILE *f)
{
    unsigned bad = 0;
    for (unsigned k = 0; k < c->d->nbins; k++) {
        const struct hd_cover_bin *bin = &c->d->bins[k];
        if (!bin->unreachable && c->n[k] == 0) {
            fprintf(f, "%s: COVERAGE HOLE block=%s bin=%s never hit (%s)\n", who, c->d->b->name,
                    bin->name, bin->doc);
            bad++;
        } else if (bin->unreachable && c->n[k] != 0) {
            fprintf(f, "%s: COVERAGE block=%s bin=%s declared unreachable (%s) but hit %" PRIu64
                       " times\n", who, c->d->b->name, bin->name, bin->unreachable, c->n[k]);
            bad++;
        }
    }
    return bad;
}

/* {==== Sums per block ==== */
struct hd_cover_sum {
    struct hd_cover *c;
    unsigned n, cap;
};

struct hd_cover_sum *hd_cover_sum_create(void)
{
    return calloc(1, sizeof(struct hd_cover_sum));
}

int hd_cover_sum_add(struct hd_cover_sum *s, const struct hd_cover *x)
{
    unsigned i = 0;
    while (i < s->n && s->c[i].d != x->d)
        i++;
    if (i == s->n) {
        if (s->n == s->cap) {
            unsigned cap = s->cap ? 2 * s->cap : 16;
            struct hd_cover *c = realloc(s->c, cap * sizeof *c);
            if (!c)
                return -1;
            s->c = c;
            s->cap = cap;
        }
        if (hd_cover_init(&s->c[i], x->d) != 0)
            return -1;
        s->c[i].instances = 0;
        s->n++;
    }
    hd_cover_add(&s->c[i], x);
    s->c[i].instances++;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    const struct hd_cover *x = a, *y = b;
    return strcmp(x->d->b->name, y->d->b->name);
}

void hd_cover_sum_print(const struct hd_cover_sum *s, const char *who, FILE *f)
{
    qsort(s->c, s->n, sizeof *s->c, by_name); /* (the order only: const for the caller) */
    for (unsigned i = 0; i < s->n; i++) {
        const struct hd_cover *c = &s->c[i];
        hd_cover_print(c, who, f);
        unsigned reach, hit = hd_cover_hit(c, &reach);
        if (hit == reach)
            continue;
        fprintf(f, "  not hit in this run:");
        for (unsigned k = 0; k < c->d->nbins; k++)
            if (!c->d->bins[k].unreachable && c->n[k] == 0)
                fprintf(f, " %s", c->d->bins[k].name);
        fputc('\n', f);
    }
    if (s->n == 0)
        fprintf(f, "coverage (%s): no block instance was stepped\n", who);
}

int64_t hd_cover_sum_count(const struct hd_cover_sum *s, const char *block, const char *bin)
{
    for (unsigned i = 0; i < s->n; i++) {
        if (strcmp(s->c[i].d->b->name, block) != 0)
            continue;
        for (unsigned k = 0; k < s->c[i].d->nbins; k++)
            if (strcmp(s->c[i].d->bins[k].name, bin) == 0)
                return (int64_t)s->c[i].n[k];
    }
    return -1;
}

void hd_cover_sum_destroy(struct hd_cover_sum *s)
{
    if (!s)
        return;
    for (unsigned i = 0; i < s->n; i++)
        hd_cover_free(&s->c[i]);
    free(s->c);
    free(s);
}
/* }==== */
