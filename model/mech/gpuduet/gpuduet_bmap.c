/* SPDX-License-Identifier: MIT
 * gpuduet_bmap.c - GPUDuet's allocation bitmap block of one SM as the model's only map of the
 * unified on-chip storage (gpuduet_bmap.h; Lin thesis §3.7, Table 3.4).
 */
#include "gpuduet_bmap.h"

#include "gpuduet_bitmap.h"
#include "hw_ref.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gd_bmap_make(struct gd_bmap *b, const struct hd_hw_factory *f, uint32_t sm,
                 gd_bmap_done_fn done, void *ctx, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    char name[64];
    snprintf(name, sizeof name, "sm%u.gpuduet_bitmap", sm);
    if (hd_hw_make_sized(f ? f : hd_hw_ref_factory(), "gpuduet_bitmap", name, &b->x,
                         sizeof(struct hd_gpuduet_bitmap_in),
                         sizeof(struct hd_gpuduet_bitmap_out), err, errlen) != 0)
        return -1;
    b->made = true;
    b->done = done;
    b->ctx = ctx;
    return 0;
}

void gd_bmap_destroy(struct gd_bmap *b)
{
    if (b->made)
        hd_hw_destroy(&b->x);
    free(b->q);
    memset(b, 0, sizeof *b);
}

static bool push(struct gd_bmap *b, const struct gd_bmap_op *o)
{
    if (b->qn == b->qcap) {
        const uint32_t nc = b->qcap ? 2 * b->qcap : 32;
        struct gd_bmap_op *q = malloc((size_t)nc * sizeof *q);
        if (!q)
            return false;
        for (uint32_t i = 0; i < b->qn; i++)
            q[i] = b->q[(b->qh + i) % b->qcap];
        free(b->q);
        b->q = q;
        b->qh = 0;
        b->qcap = nc;
    }
    b->q[(b->qh + b->qn++) % b->qcap] = *o;
    return true;
}

bool gd_bmap_alloc(struct gd_bmap *b, unsigned r, uint32_t n, uint64_t tag)
{
    const struct gd_bmap_op o = {true, (uint8_t)r, n, 0, tag};
    return push(b, &o);
}

bool gd_bmap_free(struct gd_bmap *b, uint32_t base, uint32_t n)
{
    const struct gd_bmap_op o = {false, 0, n, base, 0};
    return !n || push(b, &o);
}

bool gd_bmap_busy(const struct gd_bmap *b)
{
    return b->qn || b->inflight;
}

int gd_bmap_step(struct gd_bmap *b, uint32_t sm, uint64_t now, char *err, size_t errlen)
{
    struct hd_gpuduet_bitmap_in in;
    memset(&in, 0, sizeof in);
    const bool req = b->qn != 0; /* (taken in the cycle the last one's done_* shows: busy_o 0) */
    if (req) {
        const struct gd_bmap_op *o = &b->q[b->qh];
        if (o->al) {
            in.al_v_i = 1;
            in.al_region_i = o->region;
            in.al_n_i = o->n;
        } else {
            in.fr_v_i = 1;
            in.fr_base_i = o->base;
            in.fr_n_i = o->n;
        }
    }
    if (!b->inflight && !req && hd_hw_idle(&b->x, &in))
        return 0;
    struct hd_gpuduet_bitmap_out out;
    const uint64_t tag[1] = {sm};
    hd_hw_set_tag(&b->x, tag, 1);
    b->steps++;
    b->busy_cycles += b->inflight;
    b->wait_cycles += req && b->inflight;
    if (hd_hw_step(&b->x, &in, &out, now) != 0) {
        snprintf(err, errlen, "%s", b->x.ops->error(b->x.impl));
        return -1;
    }
    if (b->inflight && (out.done_v_o & 1u)) {
        const struct gd_bmap_op o = b->cur;
        b->inflight = false;
        if ((out.done_al_o & 1u) != o.al || (!o.al && !(out.done_ok_o & 1u))) {
            snprintf(err, errlen,
                     "gpuduet bitmap: at cycle %" PRIu64 ", SM %u, block gpuduet_bitmap: done_al_o "
                     "%u done_ok_o %u answering the model's %s of %u units %s 0x%03x",
                     now, sm, (unsigned)(out.done_al_o & 1u), (unsigned)(out.done_ok_o & 1u),
                     o.al ? "allocation" : "free", o.n, o.al ? "in region" : "at",
                     o.al ? o.region : o.base);
            return -1;
        }
        if (o.al) {
            const bool ok = out.done_ok_o & 1u;
            b->allocs++;
            b->nospace += !ok;
            b->done(b->ctx, o.tag, ok, ok ? (uint32_t)out.done_base_o : 0);
        } else {
            b->frees++;
        }
    }
    if (req && !(out.busy_o & 1u) && !b->inflight) { /* taken (else presented again) */
        b->cur = b->q[b->qh];
        b->qh = (b->qh + 1) % b->qcap;
        b->qn--;
        b->inflight = true;
    }
    return 0;
}
