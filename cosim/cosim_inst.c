/* SPDX-License-Identifier: MIT
 * cosim_inst.c - lockstep stepping and port-by-port comparison of one block instance
 * (cosim_inst.h).
 */
#include "cosim_inst.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hd_cosim_inst_init(struct hd_cosim_inst *x, const char *name, const struct hd_hw_ref_block *ref,
                       const struct hd_cosim_rtl_ops *rtl, bool drive_rtl, unsigned hist,
                       const char *plusargs)
{
    const struct hd_block_desc *b = ref->b;
    memset(x, 0, sizeof *x);
    x->b = b;
    snprintf(x->name, sizeof x->name, "%s", name);
    x->ref = ref;
    x->rtl = rtl;
    x->drive_rtl = drive_rtl && rtl;
    x->hist = hist ? hist : 1;
    x->rec = b->in_size + 2 * b->out_size + sizeof(struct hd_cosim_tag) + sizeof(uint64_t);
    x->ref_state = calloc(1, ref->state_size);
    x->ref_out = calloc(1, b->out_size);
    x->rtl_out = calloc(1, b->out_size);
    x->ring = calloc(x->hist, x->rec);
    if (!x->ref_state || !x->ref_out || !x->rtl_out || !x->ring)
        return -1;
    ref->reset(x->ref_state);
    if (rtl) {
        x->rtl_h = rtl->create(plusargs);
        if (!x->rtl_h)
            return -1;
        rtl->reset(x->rtl_h);
    }
    return 0;
}

void hd_cosim_inst_free(struct hd_cosim_inst *x)
{
    if (x->rtl && x->rtl_h)
        x->rtl->destroy(x->rtl_h);
    free(x->ref_state);
    free(x->ref_out);
    free(x->rtl_out);
    free(x->ring);
    free(x->errors);
    if (x->cov)
        hd_cover_free(x->cov);
    free(x->cov);
    memset(x, 0, sizeof *x);
}

int hd_cosim_inst_cover(struct hd_cosim_inst *x)
{
    if (x->cov)
        return 0;
    if (!x->ref->cover || !(x->cov = malloc(sizeof *x->cov)))
        return -1;
    if (hd_cover_init(x->cov, x->ref->cover) != 0) {
        free(x->cov);
        x->cov = NULL;
        return -1;
    }
    return 0;
}

void hd_cosim_inst_reset(struct hd_cosim_inst *x)
{
    x->ref->reset(x->ref_state);
    if (x->rtl)
        x->rtl->reset(x->rtl_h);
    if (x->cov)
        hd_cover_reset(x->cov);
}

static void record(struct hd_cosim_inst *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void record(struct hd_cosim_inst *x, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    size_t len = strlen(line);
    if (x->elen + len + 2 > x->ecap) {
        size_t cap = x->ecap ? x->ecap * 2 : 4096;
        while (cap < x->elen + len + 2)
            cap *= 2;
        char *e = realloc(x->errors, cap);
        if (!e)
            return;
        x->errors = e;
        x->ecap = cap;
    }
    memcpy(x->errors + x->elen, line, len);
    x->elen += len;
    x->errors[x->elen++] = '\n';
    x->errors[x->elen] = '\0';
}

bool hd_cosim_step(struct hd_cosim_inst *x, const void *in, void *out, uint64_t gcycle,
                   const struct hd_cosim_tag *tag)
{
    const struct hd_block_desc *b = x->b;
    bool ok = true;
    x->ref->step(x->ref_state, in, x->ref_out);
    unsigned dirty = hd_block_clamp(b, HD_DIR_OUT, x->ref_out);
    if (dirty) {
        record(x, "cycle=%" PRIu64 " inst=%s: the C reference drove bits above the width of %u "
                  "output port(s)", x->cycle, x->name, dirty);
        ok = false;
    }
    if (x->rtl) {
        x->rtl->step(x->rtl_h, in, x->rtl_out);
        for (unsigned i = 0; i < b->nports; i++) {
            const struct hd_port_desc *p = &b->ports[i];
            if (p->dir != HD_DIR_OUT || hd_port_equal(p, x->ref_out, x->rtl_out))
                continue;
            char rv[300], tv[300];
            hd_port_format(p, x->ref_out, rv, sizeof rv);
            hd_port_format(p, x->rtl_out, tv, sizeof tv);
            record(x, "cycle=%" PRIu64 " gcycle=%" PRIu64 " model=%" PRIu64 " inst=%s port=%s w=%u "
                      "ref=%s rtl=%s", x->cycle, gcycle, tag ? tag->now : 0, x->name, p->name,
                   p->width, rv, tv);
            ok = false;
        }
        const char *sva = x->rtl->failure(x->rtl_h);
        if (sva) {
            record(x, "cycle=%" PRIu64 " gcycle=%" PRIu64 " model=%" PRIu64 " inst=%s block=%s "
                      "SVA assertion %s failed", x->cycle, gcycle, tag ? tag->now : 0, x->name,
                   b->name, sva);
            x->sva_failures++;
            ok = false;
        }
    }
    if (x->cov) /* the reference's outputs and state (equal to the RTL's unless reported) */
        hd_cover_sample(x->cov, in, x->ref_out, x->ref_state);
    /* history */
    uint8_t *r = x->ring + (size_t)(x->cycle % x->hist) * x->rec;
    memcpy(r, in, b->in_size);
    memcpy(r + b->in_size, x->ref_out, b->out_size);
    memcpy(r + b->in_size + b->out_size, x->rtl ? x->rtl_out : x->ref_out, b->out_size);
    struct hd_cosim_tag t = {0};
    if (tag)
        t = *tag;
    memcpy(r + b->in_size + 2 * b->out_size, &t, sizeof t);
    memcpy(r + b->in_size + 2 * b->out_size + sizeof t, &gcycle, sizeof gcycle);
    if (x->count < x->hist)
        x->count++;
    x->cycle++;
    if (!ok)
        x->mismatches++;
    memcpy(out, x->drive_rtl ? x->rtl_out : x->ref_out, b->out_size);
    return ok;
}

bool hd_cosim_hist(const struct hd_cosim_inst *x, unsigned age, const void **in,
                   const void **ref_out, const void **rtl_out, const struct hd_cosim_tag **tag,
                   uint64_t *gcycle)
{
    if (age >= x->count)
        return false;
    const struct hd_block_desc *b = x->b;
    const uint8_t *r = x->ring + (size_t)((x->cycle - 1 - age) % x->hist) * x->rec;
    *in = r;
    *ref_out = r + b->in_size;
    *rtl_out = r + b->in_size + b->out_size;
    *tag = (const struct hd_cosim_tag *)(const void *)(r + b->in_size + 2 * b->out_size);
    memcpy(gcycle, r + b->in_size + 2 * b->out_size + sizeof **tag, sizeof *gcycle);
    return true;
}
