/* SPDX-License-Identifier: MIT
 * ctx_codec.c - the register pattern codec of one SM in the timing loop (ctx_codec.h).
 *
 * Design: each path has an input register (what was offered this cycle), a FIFO of the
 * registers inside its block (the compressor's results come out in order, so the head is the
 * register a valid output belongs to: its raw lanes and tag) and a FIFO of finished results.
 * The in-flight FIFO holds at most latency + 1 entries; the result FIFO HD_CODEC_OUT.
 */
#include "ctx_codec.h"

#include "regpat_decomp.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HD_CODEC_FIFO 8 /* in flight + finished, per path */

struct entry {
    uint64_t tag;
    struct hd_ctx_codec_packed p; /* save path: pag_sel and raw lanes (in flight), all (done) */
    uint32_t lanes[HD_REGPAT_LANES]; /* restore path: the result */
};

struct fifo {
    struct entry e[HD_CODEC_FIFO];
    unsigned head, n;
};

struct path {
    struct hd_hw_inst x;
    bool offered;                /* an input was offered this cycle */
    struct entry in;
    struct fifo flight, done;
};

struct hd_ctx_codec {
    uint32_t sm;
    struct path save, restore;
    struct hd_regpat_comp_in ci;
    struct hd_regpat_decomp_in di;
    struct hd_ctx_codec_stats st;
};

static struct entry *fifo_push(struct fifo *f)
{
    struct entry *e = &f->e[(f->head + f->n) % HD_CODEC_FIFO];
    f->n++;
    return e;
}

static struct entry *fifo_pop(struct fifo *f)
{
    struct entry *e = &f->e[f->head];
    f->head = (f->head + 1) % HD_CODEC_FIFO;
    f->n--;
    return e;
}

struct hd_ctx_codec *hd_ctx_codec_create(const struct hd_hw_factory *f, uint32_t sm_id, char *err,
                                         size_t errlen)
{
    struct hd_ctx_codec *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "ctx codec of SM %u: out of memory", sm_id);
        return NULL;
    }
    c->sm = sm_id;
    char name[64];
    snprintf(name, sizeof name, "sm%u.regpat_comp", sm_id);
    if (hd_hw_make(f, "regpat_comp", name, &c->save.x, err, errlen) != 0)
        goto fail;
    snprintf(name, sizeof name, "sm%u.regpat_decomp", sm_id);
    if (hd_hw_make(f, "regpat_decomp", name, &c->restore.x, err, errlen) != 0)
        goto fail;
    if (c->save.x.b->in_size != sizeof c->ci || c->restore.x.b->in_size != sizeof c->di) {
        snprintf(err, errlen, "ctx codec of SM %u: the factory's blocks have other ports than "
                              "regpat_comp/regpat_decomp", sm_id);
        goto fail;
    }
    return c;
fail:
    hd_ctx_codec_destroy(c);
    return NULL;
}

void hd_ctx_codec_destroy(struct hd_ctx_codec *c)
{
    if (!c)
        return;
    hd_hw_destroy(&c->save.x);
    hd_hw_destroy(&c->restore.x);
    free(c);
}

static bool can_offer(const struct path *p)
{
    return !p->offered && p->flight.n + p->done.n < HD_CODEC_FIFO - 1;
}

bool hd_ctx_codec_offer_save(struct hd_ctx_codec *c, const uint32_t lanes[32], bool live,
                             unsigned pag_sel, uint64_t tag)
{
    struct path *p = &c->save;
    if (!can_offer(p))
        return false;
    p->offered = true;
    memset(&p->in, 0, sizeof p->in);
    p->in.tag = tag;
    p->in.p.pag_sel = (uint8_t)(pag_sel & 3u);
    memcpy(p->in.p.raw, lanes, sizeof p->in.p.raw);
    memset(&c->ci, 0, sizeof c->ci);
    c->ci.valid_i = 1;
    c->ci.live_i = live ? 1u : 0u;
    c->ci.pag_i = pag_sel & 3u;
    memcpy(c->ci.data_i, lanes, sizeof c->ci.data_i);
    return true;
}

bool hd_ctx_codec_offer_restore(struct hd_ctx_codec *c, const struct hd_ctx_codec_packed *pk,
                                uint64_t tag)
{
    struct path *p = &c->restore;
    if (!can_offer(p))
        return false;
    p->offered = true;
    memset(&p->in, 0, sizeof p->in);
    p->in.tag = tag;
    memset(&c->di, 0, sizeof c->di);
    c->di.valid_i = 1;
    c->di.pat_i = pk->pat & 3u;
    c->di.pag_i = pk->pag_sel & 3u;
    memcpy(c->di.base_i, pk->base, sizeof c->di.base_i);
    memcpy(c->di.stride_i, pk->stride, sizeof c->di.stride_i);
    memcpy(c->di.raw_i, pk->raw, sizeof c->di.raw_i);
    return true;
}

/* The waveform fields of a tag (hd_ctx_codec_tag_make's layout). */
static void show_tag(struct hd_hw_inst *x, const struct path *p)
{
    const struct entry *e = p->offered ? &p->in : p->flight.n ? &p->flight.e[p->flight.head] : NULL;
    if (!e)
        return;
    uint64_t f[4] = {e->tag >> 32, (e->tag >> 24) & 0xffu, (e->tag >> 8) & 0xffffu, e->tag & 0xffu};
    hd_hw_set_tag(x, f, 4);
}

static int step(struct path *p, const void *in, void *out, uint64_t now, char *err, size_t errlen)
{
    show_tag(&p->x, p);
    if (hd_hw_step(&p->x, in, out, now) != 0) {
        snprintf(err, errlen, "%s", p->x.ops->error(p->x.impl));
        return -1;
    }
    if (p->offered)
        *fifo_push(&p->flight) = p->in;
    p->offered = false;
    return 0;
}

int hd_ctx_codec_tick(struct hd_ctx_codec *c, uint64_t now, char *err, size_t errlen)
{
    if (!hd_hw_idle(&c->save.x, &c->ci)) {
        struct hd_regpat_comp_out co;
        if (step(&c->save, &c->ci, &co, now, err, errlen) != 0)
            return -1;
        c->st.comp_steps++;
        if ((co.valid_o & 1u) && c->save.flight.n) {
            struct entry *e = fifo_push(&c->save.done);
            *e = *fifo_pop(&c->save.flight);
            e->p.pat = (uint8_t)(co.pat_o & 3u);
            e->p.words = (uint8_t)co.words_o;
            memcpy(e->p.base, co.base_o, sizeof e->p.base);
            memcpy(e->p.stride, co.stride_o, sizeof e->p.stride);
            if (e->p.pat != HD_REGPAT_RANDOM)
                memset(e->p.raw, 0, sizeof e->p.raw);
            c->st.saves++;
            c->st.pat[e->p.pat]++;
            c->st.words += e->p.words;
        }
    }
    c->save.offered = false;
    memset(&c->ci, 0, sizeof c->ci);
    if (!hd_hw_idle(&c->restore.x, &c->di)) {
        struct hd_regpat_decomp_out dout;
        if (step(&c->restore, &c->di, &dout, now, err, errlen) != 0)
            return -1;
        c->st.decomp_steps++;
        if ((dout.valid_o & 1u) && c->restore.flight.n) {
            struct entry *e = fifo_push(&c->restore.done);
            *e = *fifo_pop(&c->restore.flight);
            memcpy(e->lanes, dout.data_o, sizeof e->lanes);
            c->st.restores++;
        }
    }
    c->restore.offered = false;
    memset(&c->di, 0, sizeof c->di);
    return 0;
}

bool hd_ctx_codec_pop_save(struct hd_ctx_codec *c, struct hd_ctx_codec_packed *out, uint64_t *tag)
{
    if (!c->save.done.n)
        return false;
    const struct entry *e = fifo_pop(&c->save.done);
    *out = e->p;
    if (tag)
        *tag = e->tag;
    return true;
}

bool hd_ctx_codec_pop_restore(struct hd_ctx_codec *c, uint32_t lanes[32], uint64_t *tag)
{
    if (!c->restore.done.n)
        return false;
    const struct entry *e = fifo_pop(&c->restore.done);
    memcpy(lanes, e->lanes, sizeof e->lanes);
    if (tag)
        *tag = e->tag;
    return true;
}

bool hd_ctx_codec_idle(const struct hd_ctx_codec *c)
{
    return !c->save.offered && !c->restore.offered && !c->save.done.n && !c->restore.done.n &&
           hd_hw_idle(&c->save.x, &c->ci) && hd_hw_idle(&c->restore.x, &c->di);
}

uint64_t hd_ctx_codec_next_event(const struct hd_ctx_codec *c, uint64_t now)
{
    return hd_ctx_codec_idle(c) ? UINT64_MAX : now + 1;
}

const struct hd_ctx_codec_stats *hd_ctx_codec_stats(const struct hd_ctx_codec *c)
{
    return &c->st;
}
