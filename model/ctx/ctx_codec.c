/* SPDX-License-Identifier: MIT
 * ctx_codec.c - the register pattern codec of one SM in the timing loop (ctx_codec.h).
 *
 * Design: each path has an input register (what was offered this cycle), a FIFO of the
 * registers inside its block (the compressor's results come out in order, so the head is the
 * register a valid output belongs to: its raw lanes and tag) and a FIFO of finished results.
 * The in-flight FIFO holds at most latency + 1 entries; the result FIFO HD_CODEC_OUT.
 * The packer and unpacker have latency 1 and are stepped while an input is presented, while a
 * presented input's output is due, or while they are not idle; their in-flight entries say
 * which input (tag, flush) the next output belongs to.
 */
#include "ctx_codec.h"

#include "ctx_unpacker.h"
#include "regpat_decomp.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HD_CODEC_FIFO 8 /* in flight + finished, per path */

struct entry {
    uint64_t tag;
    bool pack, last;                 /* save path: on into the packer; the record's last */
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

/* A packer/unpacker input in flight (latency 1): whose output comes next. */
struct pk_flight {
    uint64_t tag;
    bool flush, take, valid;
};

#define HD_PACK_OUT 4

struct hd_ctx_codec {
    uint32_t sm;
    struct path save, restore;
    struct hd_regpat_comp_in ci;
    struct hd_regpat_decomp_in di;
    /* packer: input of this cycle, flush due next cycle, output FIFO */
    struct hd_hw_inst pk;
    struct hd_ctx_packer_in pi;
    bool pi_set, flush_due, save_bubble;
    uint64_t flush_tag;
    struct pk_flight pk_fl;
    struct hd_ctx_codec_pack_out pk_out[HD_PACK_OUT];
    unsigned pk_head, pk_n;
    /* unpacker: input of this cycle, the words it holds (the codec's count), what is in flight */
    struct hd_hw_inst up;
    struct hd_ctx_unpacker_in ui;
    bool ui_set;
    unsigned up_words;
    struct pk_flight up_fl, up_prev; /* this cycle's input; the one whose output is due */
    bool up_offered;
    uint64_t pk_tag_next;        /* the tag of this cycle's packer input */
    bool pk_fl_next_flush;       /* this cycle's packer input is the flush */
    struct hd_hw_inst ctl;       /* the preemption controller */
    struct hd_hw_inst tb;        /* the TB-level classifier (made on first use) */
    const struct hd_hw_factory *f;
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
    c->f = f;
    char name[64];
    snprintf(name, sizeof name, "sm%u.regpat_comp", sm_id);
    if (hd_hw_make(f, "regpat_comp", name, &c->save.x, err, errlen) != 0)
        goto fail;
    snprintf(name, sizeof name, "sm%u.regpat_decomp", sm_id);
    if (hd_hw_make(f, "regpat_decomp", name, &c->restore.x, err, errlen) != 0)
        goto fail;
    snprintf(name, sizeof name, "sm%u.ctx_packer", sm_id);
    if (hd_hw_make(f, "ctx_packer", name, &c->pk, err, errlen) != 0)
        goto fail;
    snprintf(name, sizeof name, "sm%u.ctx_unpacker", sm_id);
    if (hd_hw_make(f, "ctx_unpacker", name, &c->up, err, errlen) != 0)
        goto fail;
    snprintf(name, sizeof name, "sm%u.ctx_ctl", sm_id);
    if (hd_hw_make(f, "ctx_ctl", name, &c->ctl, err, errlen) != 0)
        goto fail;
    if (c->save.x.b->in_size != sizeof c->ci || c->restore.x.b->in_size != sizeof c->di ||
        c->pk.b->in_size != sizeof c->pi || c->up.b->in_size != sizeof c->ui ||
        c->ctl.b->in_size != sizeof(struct hd_ctx_ctl_in)) {
        snprintf(err, errlen, "ctx codec of SM %u: the factory's blocks have other ports than "
                              "regpat_comp/regpat_decomp/ctx_packer/ctx_unpacker/ctx_ctl", sm_id);
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
    hd_hw_destroy(&c->pk);
    hd_hw_destroy(&c->up);
    hd_hw_destroy(&c->ctl);
    hd_hw_destroy(&c->tb);
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
    if (!can_offer(p) || c->save_bubble)
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

bool hd_ctx_codec_offer_save_packed(struct hd_ctx_codec *c, const uint32_t lanes[32], bool live,
                                    unsigned pag_sel, uint64_t tag, bool last)
{
    if (c->pk_n + 3 > HD_PACK_OUT || !hd_ctx_codec_offer_save(c, lanes, live, pag_sel, tag))
        return false;
    c->save.in.pack = true;
    c->save.in.last = last;
    return true;
}

bool hd_ctx_codec_offer_unpack(struct hd_ctx_codec *c, const uint32_t *seg, bool take,
                               unsigned pat, unsigned pag_sel, bool align, uint64_t tag)
{
    if (c->up_offered || (!seg && !take && !align) || !can_offer(&c->restore))
        return false;
    unsigned words = c->up_words;
    const unsigned need = take ? hd_ctx_unpacker_words(pat, pag_sel) : 0;
    if (need > words)
        return false;
    words -= need;
    if (align)
        words -= words % HD_CTX_SEG_WORDS;
    if (seg && words > HD_CTX_UNPACK_BUF - HD_CTX_SEG_WORDS)
        return false;
    c->up_words = seg ? words + HD_CTX_SEG_WORDS : words;
    c->up_offered = true;
    memset(&c->ui, 0, sizeof c->ui);
    c->ui.valid_i = take;
    c->ui.pat_i = pat & 3u;
    c->ui.pag_i = pag_sel & 3u;
    c->ui.align_i = align;
    if (seg) {
        c->ui.seg_valid_i = 1;
        memcpy(c->ui.seg_i, seg, sizeof c->ui.seg_i);
    }
    c->ui_set = true;
    c->up_fl = (struct pk_flight){tag, false, take, false};
    return true;
}

int hd_ctx_codec_ctl_step(struct hd_ctx_codec *c, const struct hd_ctx_ctl_in *in,
                          struct hd_ctx_ctl_out *out, uint64_t tag, uint64_t now, char *err,
                          size_t errlen)
{
    if (hd_hw_idle(&c->ctl, in)) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    hd_hw_set_tag(&c->ctl, &tag, 1);
    if (hd_hw_step(&c->ctl, in, out, now) != 0) {
        snprintf(err, errlen, "%s", c->ctl.ops->error(c->ctl.impl));
        return -1;
    }
    c->st.ctl_steps++;
    return 0;
}

int hd_ctx_codec_tb_step(struct hd_ctx_codec *c, const struct hd_regpat_tbcls_in *in,
                         struct hd_regpat_tbcls_out *out, const uint64_t tag[4], uint64_t now,
                         char *err, size_t errlen)
{
    if (!c->tb.ops) {
        char name[64];
        snprintf(name, sizeof name, "sm%u.regpat_tbcls", c->sm);
        if (hd_hw_make_sized(c->f, "regpat_tbcls", name, &c->tb, sizeof *in, sizeof *out, err,
                             errlen) != 0)
            return -1;
    }
    if (hd_hw_idle(&c->tb, in)) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    hd_hw_set_tag(&c->tb, tag, 4);
    if (hd_hw_step(&c->tb, in, out, now) != 0) {
        snprintf(err, errlen, "%s", c->tb.ops->error(c->tb.impl));
        return -1;
    }
    c->st.tb_steps++;
    return 0;
}

void hd_ctx_codec_ctl_reset(struct hd_ctx_codec *c)
{
    c->ctl.ops->reset(c->ctl.impl);
}

unsigned hd_ctx_codec_unpack_words(const struct hd_ctx_codec *c)
{
    return c->up_words;
}

bool hd_ctx_codec_pop_pack(struct hd_ctx_codec *c, struct hd_ctx_codec_pack_out *out)
{
    if (!c->pk_n)
        return false;
    *out = c->pk_out[c->pk_head];
    c->pk_head = (c->pk_head + 1) % HD_PACK_OUT;
    c->pk_n--;
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

/* The waveform fields of a packer/unpacker tag. */
static void show_tag64(struct hd_hw_inst *x, uint64_t tag)
{
    uint64_t f[4] = {tag >> 32, (tag >> 24) & 0xffu, (tag >> 8) & 0xffffu, tag & 0xffu};
    hd_hw_set_tag(x, f, 4);
}

static int inst_fail(struct hd_hw_inst *x, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s", x->ops->error(x->impl));
    return -1;
}

/* The packer's cycle: its input was set from the compressor's output (or a flush). */
static int pack_tick(struct hd_ctx_codec *c, uint64_t now, char *err, size_t errlen)
{
    if (!c->pi_set && c->flush_due) { /* the record's flush, in a cycle of its own */
        memset(&c->pi, 0, sizeof c->pi);
        c->pi.flush_i = 1;
        c->pi_set = true;
        c->flush_due = false;
        c->pk_fl_next_flush = true;
    }
    const bool due = c->pk_fl.valid;
    if (!c->pi_set && !due && hd_hw_idle(&c->pk, &c->pi))
        return 0;
    struct hd_ctx_packer_out o;
    show_tag64(&c->pk, c->pi_set ? (c->pk_fl_next_flush ? c->flush_tag : c->pk_tag_next)
                                 : c->pk_fl.tag);
    if (hd_hw_step(&c->pk, &c->pi, &o, now) != 0)
        return inst_fail(&c->pk, err, errlen);
    c->st.pack_steps++;
    if (due && (o.seg_valid_o || o.pv_valid_o || c->pk_fl.flush)) {
        struct hd_ctx_codec_pack_out *q = &c->pk_out[(c->pk_head + c->pk_n++) % HD_PACK_OUT];
        memset(q, 0, sizeof *q);
        q->tag = c->pk_fl.tag;
        q->record_end = c->pk_fl.flush;
        q->seg = o.seg_valid_o & 1u;
        q->seg_last = o.seg_last_o & 1u;
        q->seg_words = (uint32_t)o.seg_words_o;
        memcpy(q->seg_data, o.seg_o, sizeof q->seg_data);
        q->pv = o.pv_valid_o & 1u;
        q->pv_n = (uint32_t)o.pv_n_o;
        memcpy(q->pv_data, o.pv_o, sizeof q->pv_data);
        c->st.segments += q->seg;
        c->st.pattern_vectors += q->pv;
    }
    c->pk_fl = (struct pk_flight){c->pk_fl_next_flush ? c->flush_tag : c->pk_tag_next,
                                  c->pk_fl_next_flush, false, c->pi_set};
    c->pi_set = c->pk_fl_next_flush = false;
    memset(&c->pi, 0, sizeof c->pi);
    return 0;
}

/* The unpacker's cycle; a register it gives out goes to the decompressor this cycle. */
static int unpack_tick(struct hd_ctx_codec *c, uint64_t now, char *err, size_t errlen)
{
    const bool due = c->up_prev.valid;
    if (!c->ui_set && !due && hd_hw_idle(&c->up, &c->ui))
        return 0;
    struct hd_ctx_unpacker_out o;
    show_tag64(&c->up, c->ui_set ? c->up_fl.tag : c->up_prev.tag);
    if (hd_hw_step(&c->up, &c->ui, &o, now) != 0)
        return inst_fail(&c->up, err, errlen);
    c->st.unpack_steps++;
    if (o.err_o & 1u) {
        snprintf(err, errlen, "SM %u cycle %llu: ctx_unpacker protocol error (a register taken "
                              "without its words or a segment without room)",
                 c->sm, (unsigned long long)now);
        return -1;
    }
    if (due && c->up_prev.take && (o.valid_o & 1u)) { /* on into the decompressor */
        struct path *p = &c->restore;
        p->offered = true;
        memset(&p->in, 0, sizeof p->in);
        p->in.tag = c->up_prev.tag;
        memset(&c->di, 0, sizeof c->di);
        c->di.valid_i = 1;
        c->di.pat_i = o.pat_o & 3u;
        c->di.pag_i = o.pag_o & 3u;
        memcpy(c->di.base_i, o.base_o, sizeof c->di.base_i);
        memcpy(c->di.stride_i, o.stride_o, sizeof c->di.stride_i);
        memcpy(c->di.raw_i, o.raw_o, sizeof c->di.raw_i);
    }
    c->up_prev = c->up_fl;
    c->up_prev.valid = c->ui_set;
    c->ui_set = c->up_offered = false;
    memset(&c->ui, 0, sizeof c->ui);
    return 0;
}

int hd_ctx_codec_tick(struct hd_ctx_codec *c, uint64_t now, char *err, size_t errlen)
{
    const bool last_offer = c->save.offered && c->save.in.last;
    c->save_bubble = false;
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
            if (e->pack) { /* on into the packer this cycle, with the raw lanes */
                memset(&c->pi, 0, sizeof c->pi);
                c->pi.valid_i = 1;
                c->pi.pat_i = co.pat_o & 3u;
                c->pi.words_i = co.words_o;
                memcpy(c->pi.base_i, co.base_o, sizeof c->pi.base_i);
                memcpy(c->pi.stride_i, co.stride_o, sizeof c->pi.stride_i);
                memcpy(c->pi.raw_i, e->p.raw, sizeof c->pi.raw_i);
                c->pi_set = true;
                c->pk_tag_next = e->tag;
                if (e->last) {
                    c->flush_due = true;
                    c->flush_tag = e->tag;
                }
            }
            if (e->p.pat != HD_REGPAT_RANDOM)
                memset(e->p.raw, 0, sizeof e->p.raw);
            c->st.saves++;
            c->st.pat[e->p.pat]++;
            c->st.words += e->p.words;
        }
    }
    c->save_bubble = last_offer; /* the next cycle's compressor output is the flush's slot */
    c->save.offered = false;
    memset(&c->ci, 0, sizeof c->ci);
    if (pack_tick(c, now, err, errlen) != 0 || unpack_tick(c, now, err, errlen) != 0)
        return -1;
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
           hd_hw_idle(&c->save.x, &c->ci) && hd_hw_idle(&c->restore.x, &c->di) && !c->pi_set &&
           !c->flush_due && !c->pk_fl.valid && !c->pk_n && hd_hw_idle(&c->pk, &c->pi) &&
           !c->ui_set && !c->up_prev.valid && hd_hw_idle(&c->up, &c->ui);
}

uint64_t hd_ctx_codec_next_event(const struct hd_ctx_codec *c, uint64_t now)
{
    return hd_ctx_codec_idle(c) ? UINT64_MAX : now + 1;
}

const struct hd_ctx_codec_stats *hd_ctx_codec_stats(const struct hd_ctx_codec *c)
{
    return &c->st;
}
