/* SPDX-License-Identifier: MIT
 * ctx_tb.c - TB-level compression in the save path ([context] save = compressed_tb; Lin thesis
 * §2.3.3 Fig 2.11 "TB-level compression", evaluated in the thesis at barrier points and not
 * adopted; digest §2.3, §3.5, §8.1 item 4; block compressors/regpat_tbcls.h).
 *
 * Design. A save in this mode is warp-level (save = compressed, ctx_pack.c) unless the CTA is
 * at a barrier point: every warp of the CTA unfinished and not diverged, all at the same next PC,
 * which is a barrier or follows one (annotation store), so every warp saves the same live words
 * (checked). Then, before the warp-level encoding, a classification pass runs on the model
 * clock, register-major as Fig 2.11: one (register, warp) per cycle, the warp's 32 lanes through
 * the warp-level compressor's function (hd_regpat_comp_eval, the reference the regpat_comp block
 * steps; the block instance itself stays on the encoding stream) into the SM's regpat_tbcls
 * instance (ctx_codec.h: the C reference, or the RTL in lockstep under heddle cosim --in-loop,
 * --drive rtl: its class is the one acted on), whose class comes back one cycle after the
 * register's last warp. The pass costs K x W + 1 cycles (K live words per warp, W warps) before
 * the first register enters the compressor: the thesis gives no timing for its TB-level path; a
 * design that fed the classifier from the compressor's own results would overlap the two
 * passes. What is stored:
 *   global uniform   one word per TB (the value);
 *   global strided   two words per TB (the value of thread 0 and the per-thread stride: thread
 *                    t = 32 w + l holds base + stride x t);
 *   every other class (local uniform, local strided, random, dead) stays in every warp's
 *                    warp-level record, through the compressor and the packer as before (the
 *                    thesis: local classes "as warp level", random raw, which the warp-level
 *                    record is for a random register).
 * The TB part - a class vector of 3 bits per live word (16-byte units) and the global scalars -
 * is written first, at the start of warp 0's register slot (the layout reserves
 * hd_sm_ctx_tb_bound(K) bytes more per slot), then the warp records. A restore reads it back
 * with the rest; once the bytes are back and the warp-level registers have come through the
 * unpacker and decompressor, every global register rebuilt from its scalars must equal every
 * warp's register bit for bit, or the run stops with a located error.
 */
#include "ctx_tb.h"

#include "sm_impl.h"

#include "annot.h"
#include "ctx_codec.h"
#include "ctx_image.h"
#include "func_status.h"
#include "regpat_comp.h"
#include "regpat_tbcls.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_global(unsigned cls)
{
    return cls == HD_REGPAT_TB_GLOBAL_UNIFORM || cls == HD_REGPAT_TB_GLOBAL_STRIDED;
}

uint64_t hd_sm_ctx_tb_bound(uint32_t k)
{
    return 16ull * ((3ull * k + 127u) / 128u) + 8ull * k;
}

/* The barrier point of warp w (its next PC if that is a barrier, the PC before it if that is
 * one), or -1. */
static int64_t barrier_point(const struct hd_annot *an, const struct hd_func_warp *w)
{
    uint32_t pc, active;
    if (w->done || w->sp > 1 || !hd_func_warp_next(w, &pc, &active))
        return -1;
    if (hd_annot_flags(an, pc) & HD_AN_BARRIER)
        return pc;
    if (pc > 0 && (hd_annot_flags(an, pc - 1) & HD_AN_BARRIER))
        return (int64_t)pc - 1;
    return -1;
}

bool hd_sm_ctx_tb_plan(struct hd_sm *sm, struct hd_tcta *c, bool *oom)
{
    struct hd_ctx *x = c->ctx;
    const struct hd_annot *an = c->la->tk->an;
    const uint32_t nw = c->fc->nwarps;
    (void)sm;
    *oom = false;
    x->tb = x->classifying = false;
    if (!an || nw == 0 || x->nitems == 0 || x->nitems % nw != 0)
        return false;
    const int64_t bp = barrier_point(an, &c->fc->warps[0]);
    if (bp < 0)
        return false;
    for (uint32_t w = 1; w < nw; w++)
        if (barrier_point(an, &c->fc->warps[w]) != bp)
            return false;
    const uint32_t k = x->nitems / nw;
    for (uint32_t w = 0; w < nw; w++)
        for (uint32_t r = 0; r < k; r++) {
            const struct hd_ctx_item *a = &x->items[r], *b = &x->items[w * k + r];
            if (b->warp != w || b->kreg != a->kreg || b->word != a->word)
                return false;
        }
    if (x->cap_tbr < k) {
        struct hd_ctx_tbreg *t = realloc(x->tbr, k * sizeof *t);
        if (!t) {
            *oom = true;
            return false;
        }
        x->tbr = t;
        x->cap_tbr = k;
    }
    for (uint32_t r = 0; r < k; r++)
        x->tbr[r] = (struct hd_ctx_tbreg){x->items[r].kreg, x->items[r].word, 0, 0, 0, 0};
    x->tb = x->classifying = true;
    x->tb_k = k;
    x->tb_nw = nw;
    x->cls_next = x->cls_done = 0;
    return true;
}

static void lanes_of(const struct hd_ctx *x, uint32_t w, uint32_t kreg, unsigned word,
                     uint32_t lanes[HD_REGPAT_LANES])
{
    const uint64_t *r = x->fc.warps[w].regs + (size_t)kreg * HD_FUNC_WARP_SIZE;
    for (unsigned l = 0; l < HD_REGPAT_LANES; l++)
        lanes[l] = (uint32_t)(r[l] >> (32u * word));
}

/* The pass is over: the TB part, the global registers out of the items, the warp records. */
static int finish_pass(struct hd_sm *sm, struct hd_ctx *x, char *err, size_t errlen)
{
    const uint32_t k = x->tb_k;
    uint64_t scalars = 0, wwords = 0;
    for (uint32_t r = 0; r < k; r++)
        if (is_global(x->tbr[r].cls)) {
            scalars += x->tbr[r].cls == HD_REGPAT_TB_GLOBAL_UNIFORM ? 1 : 2;
            wwords += x->tbr[r].wwords;
        }
    uint32_t n = 0;
    for (uint32_t i = 0; i < x->nitems; i++) /* items are warp-major, k per warp */
        if (!is_global(x->tbr[i % k].cls))
            x->items[n++] = x->items[i];
    x->nitems = n;
    x->classifying = false;
    const uint64_t part = 16ull * ((3ull * k + 127u) / 128u) + 4ull * scalars;
    sm->st->ctx_tb_saves++;
    sm->st->ctx_tb_part_bytes += part;
    sm->st->ctx_tb_warp_bytes += 4ull * wwords;
    if (!hd_ctx_image_regs(x->img, 0, part))
        goto oom;
    x->rec_total = 0;
    for (uint32_t i = 0; i < n; i++) /* one record per warp with warp-level registers */
        x->rec_total += i + 1 == n || x->items[i + 1].warp != x->items[i].warp;
    if (n == 0) { /* every live word was global: the save's list is complete */
        x->encoding = false;
        if (!hd_ctx_image_finish(x->img))
            goto oom;
        x->bytes = hd_ctx_image_bytes(x->img);
        x->reqs = hd_ctx_image_nreqs(x->img);
    }
    return HD_FUNC_OK;
oom:
    snprintf(err, errlen, "host out of memory writing a TB-level context on SM %u", sm->id);
    return HD_FUNC_ERR_MEMORY;
}

int hd_sm_ctx_tb_cycle(struct hd_sm *sm, struct hd_ctx *x, uint64_t now, char *err,
                       size_t errlen)
{
    const uint32_t k = x->tb_k, nw = x->tb_nw, total = k * nw;
    struct hd_regpat_tbcls_in in;
    struct hd_regpat_tbcls_out out;
    memset(&in, 0, sizeof in);
    uint64_t tag[4] = {x->id, 0, 0, 0};
    if (x->cls_next < total) {
        const uint32_t r = x->cls_next / nw, w = x->cls_next % nw;
        struct hd_regpat_comp_in ci;
        struct hd_regpat_comp_out co;
        memset(&ci, 0, sizeof ci);
        uint32_t lanes[HD_REGPAT_LANES];
        lanes_of(x, w, x->tbr[r].kreg, x->tbr[r].word, lanes);
        ci.valid_i = 1;
        ci.live_i = 1;
        ci.pag_i = hd_regpat_pag_for_block(x->la->l->block);
        memcpy(ci.data_i, lanes, sizeof ci.data_i);
        hd_regpat_comp_eval(&ci, &co);
        x->tbr[r].wwords += (uint32_t)co.words_o;
        in.valid_i = 1;
        in.first_i = w == 0;
        in.last_i = w + 1 == nw;
        in.pat_i = co.pat_o;
        in.pag_i = ci.pag_i;
        memcpy(in.base_i, co.base_o, sizeof in.base_i);
        memcpy(in.stride_i, co.stride_o, sizeof in.stride_i);
        tag[1] = w;
        tag[2] = x->tbr[r].kreg;
        tag[3] = x->tbr[r].word;
    }
    if (hd_ctx_codec_tb_step(sm->ce->codec, &in, &out, tag, now, err, errlen) != 0)
        return HD_FUNC_ERR_INTERNAL;
    x->cls_next++; /* past total: cycles waited for the last class */
    if (out.valid_o & 1u) {
        if (x->cls_done >= k) {
            snprintf(err, errlen, "internal: SM %u: the TB-level classifier answered more "
                                  "registers than were presented", sm->id);
            return HD_FUNC_ERR_INTERNAL;
        }
        struct hd_ctx_tbreg *t = &x->tbr[x->cls_done++];
        t->cls = (uint8_t)(out.cls_o % HD_REGPAT_TB_NCLASSES);
        t->base = (uint32_t)out.gbase_o;
        t->stride = (uint32_t)out.gstride_o;
        if (x->cls_done == k)
            return finish_pass(sm, x, err, errlen);
    } else if (x->cls_next > total + 1) { /* latency 1: the last class is overdue */
        snprintf(err, errlen, "SM %u cycle %llu: sm%u.regpat_tbcls gave %u of %u classes one "
                              "cycle after the last warp", sm->id, (unsigned long long)now,
                 sm->id, x->cls_done, k);
        return HD_FUNC_ERR_INTERNAL;
    }
    return HD_FUNC_OK;
}

int hd_sm_ctx_tb_check(struct hd_sm *sm, struct hd_ctx *x, uint64_t now, char *err,
                       size_t errlen)
{
    if (!x->tb)
        return HD_FUNC_OK;
    uint32_t lanes[HD_REGPAT_LANES];
    for (uint32_t r = 0; r < x->tb_k; r++) {
        const struct hd_ctx_tbreg *t = &x->tbr[r];
        if (!is_global(t->cls))
            continue;
        for (uint32_t w = 0; w < x->tb_nw; w++) {
            lanes_of(x, w, t->kreg, t->word, lanes);
            for (unsigned l = 0; l < HD_REGPAT_LANES; l++) {
                const uint32_t want = t->cls == HD_REGPAT_TB_GLOBAL_UNIFORM
                                          ? t->base
                                          : t->base + t->stride * (32u * w + l);
                if (lanes[l] != want) {
                    const struct hd_func_cta *fc = &x->fc;
                    snprintf(err, errlen,
                             "%s: SM %u cycle %llu: the TB-level restore of register %u (word %u) "
                             "gives %#x in lane %u of warp %u of block (%u,%u,%u), the register "
                             "holds %#x (regpat_tbcls class %s, base %#x, stride %#x)",
                             x->la->l->k->entry->name, sm->id, (unsigned long long)now, t->kreg,
                             t->word, want, l, w, fc->ctaid[0], fc->ctaid[1], fc->ctaid[2],
                             lanes[l], hd_regpat_tb_class_name(t->cls), t->base, t->stride);
                    return HD_FUNC_ERR_INTERNAL;
                }
            }
        }
    }
    return HD_FUNC_OK;
}
