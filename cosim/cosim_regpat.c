/* SPDX-License-Identifier: MIT
 * cosim_regpat.c - the register pattern blocks in full-GPU co-simulation (cosim_regpat.h).
 *
 * Design: one unit per SM holds its three block instances and a 4-entry ring of the registers
 * in flight, indexed by the unit's cycle: a register entering the compressor in cycle c leaves
 * it in c+2 (and enters the decompressor and the TB-level classifier there), and leaves those in
 * c+3. Each sample ends with three idle cycles so that every write-back has landed before the
 * model runs on. Liveness and register allocation are the kernel image's shared analyses (its
 * annotation store, model/compiler/annot.h, built once per image): the timing model hands its
 * store over with the launch (hd_func_launch.annot), so the co-simulation reads exactly what
 * timing and context saves read; only under the functional executor, which has no store, the
 * session builds one per image itself (once, the allocator's default budget).
 *
 * The context (Lin §2.3, Fig 2.6/2.8) is the register file's: the full context of a warp is the
 * registers per thread that occupancy and the context saves count (the launch's
 * regs_per_thread, [sm] regs_source: ptxas's by default; without the timing model: the count
 * given by hand, else ptxas's, else the store's allocation) x 32 lanes x 4 B; the live context
 * is the live values that occupy a physical register (or a spill slot) in the store's allocation.
 * Values
 * the allocator keeps as constants (HD_RA_REMAT: parameters, immediates, special registers,
 * rematerialised where read) and registers written but never read hold no register, need no
 * save and are not fed to the blocks. A warp's full context is never below its live words
 * (it only could be where a divergent union row joins values that share a register; counted in
 * full_raised), so live <= full and, per register, compressed <= live hold by construction.
 */
#include "cosim_regpat.h"

#include "cosim_fst.h"
#include "cosim_inst.h"
#include "regpat_comp.h"
#include "regpat_decomp.h"
#include "regpat_tbcls.h"
#include "hd_outfile.h"

#include "annot.h"
#include "cta.h"
#include "func_status.h"
#include "kernel_annot.h"
#include "launch.h"
#include "liveness.h"
#include "module.h"
#include "observer.h"
#include "warp.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define DRAIN 3

/* The blocks' model-side fields (the HD_TAG rows of the regpat ports.def files, in order). */
enum { TAG_CTA, TAG_WARP, TAG_REG, TAG_WORD };

/* {==== Types ==== */
struct slot {
    bool valid, tb, first, last, live;
    struct hd_func_warp *w;
    struct hd_cosim_tag tag;
    unsigned pag;
    uint32_t raw[HD_REGPAT_LANES];
};

struct unit {
    uint32_t sm;
    struct hd_cosim_inst comp, decomp, tbcls;
    int fst[3];
    struct slot ring[4];
    uint64_t tb_words;       /* warp-level words of the TB register being classified */
    uint32_t tb_warps;
    uint32_t tb_live_words;
};

/* A store the session built itself (functional executor: the launch carries none). */
struct own_annot {
    const struct hd_func_kernel *k;
    struct hd_annot *an;
};

/* What a warp's sample reads: the store, the function of its next PC, the full context. */
struct fn_info {
    const struct hd_annot *an;
    struct hd_liveness *lv;   /* the function's liveness */
    uint32_t regs_per_thread; /* the full context per thread, in 32-bit words */
};

struct hd_cosim_regpat {
    struct hd_cosim_opts o;
    struct hd_func_observer obs;
    struct unit *u;
    uint32_t nunits;
    unsigned rtl_instances;
    uint64_t gcycle;
    struct own_annot *own;
    unsigned nown, capown;
    uint64_t *row;           /* scratch for divergent rows */
    size_t row_cap;
    struct hd_regpat_stats st;
    FILE *record;           /* = record_of.f: written to a temporary file, renamed at finish */
    struct hd_outfile record_of;
    uint64_t recorded;
    struct hd_cosim_fst *fst;
    bool failed;
    char msg[1100];
};
/* }==== */

/* {==== The kernel's analyses ==== */
/* The annotation store of launch l's image: the timing model's, else one built once here. */
static const struct hd_annot *annot_of(struct hd_cosim_regpat *s, const struct hd_func_launch *l,
                                       char *err, size_t errlen)
{
    if (l->annot)
        return l->annot;
    for (unsigned i = 0; i < s->nown; i++)
        if (s->own[i].k == l->k)
            return s->own[i].an;
    if (s->nown == s->capown) {
        unsigned cap = s->capown ? s->capown * 2 : 8;
        struct own_annot *n = realloc(s->own, cap * sizeof *n);
        if (!n) {
            snprintf(err, errlen, "cosim: out of memory");
            return NULL;
        }
        s->own = n;
        s->capown = cap;
    }
    struct hd_annot *an = hd_func_kernel_annot(l->k, 0, err, errlen);
    if (!an)
        return NULL;
    s->own[s->nown++] = (struct own_annot){l->k, an};
    return an;
}

/* The store and liveness of the function at kernel-wide pc, and the full context per thread;
 * false (err empty) when the function has no analyses, or with a message. */
static bool fn_at(struct hd_cosim_regpat *s, const struct hd_func_launch *l, uint32_t pc,
                  struct fn_info *fi, uint32_t *lpc, char *err, size_t errlen)
{
    const struct hd_annot *an = annot_of(s, l, err, errlen);
    if (!an)
        return false;
    const struct hd_annot_fn *fn = hd_annot_fn_at(an, pc, lpc);
    if (!fn || !fn->lv || *lpc >= fn->lv->ninstrs)
        return false;
    fi->an = an;
    fi->lv = fn->lv;
    fi->regs_per_thread = l->regs_per_thread   ? l->regs_per_thread
                          : l->attr.regs_given ? l->attr.regs_given
                          : l->attr.regs_ptxas ? l->attr.regs_ptxas
                          : an->ra_ok          ? an->regs_per_thread
                                               : fn->lv->max_words;
    size_t need = fn->lv->stride[HD_RC_DATA] ? fn->lv->stride[HD_RC_DATA] : 1;
    if (need > s->row_cap) {
        uint64_t *r = realloc(s->row, need * sizeof *r);
        if (!r) {
            snprintf(err, errlen, "cosim: out of memory");
            return false;
        }
        s->row = r;
        s->row_cap = need;
    }
    return true;
}
/* }==== */

/* {==== One block cycle of an SM's unit ==== */
static void write_back(struct slot *sl, const uint32_t *data, struct hd_regpat_stats *st)
{
    uint64_t *r = sl->w->regs + (size_t)sl->tag.f[TAG_REG] * HD_FUNC_WARP_SIZE;
    unsigned sh = 32u * sl->tag.f[TAG_WORD];
    for (unsigned l = 0; l < HD_REGPAT_LANES; l++) {
        if (data[l] != sl->raw[l])
            st->roundtrip_errors++;
        r[l] = (r[l] & ~((uint64_t)UINT32_MAX << sh)) | ((uint64_t)data[l] << sh);
    }
}

static void tb_account(struct hd_cosim_regpat *s, struct unit *u, unsigned cls)
{
    struct hd_regpat_stats *st = &s->st;
    if (cls == HD_REGPAT_TB_DEAD) { /* a register dead in every warp: outside Fig 2.9's shares */
        st->tb_dead++;
        return;
    }
    st->tb_regs++;
    st->tb_cls[cls % 6]++;
    uint64_t words = 0;
    switch (cls) {
    case HD_REGPAT_TB_GLOBAL_UNIFORM: words = 1; break;
    case HD_REGPAT_TB_GLOBAL_STRIDED: words = 2; break;
    case HD_REGPAT_TB_RANDOM: words = (uint64_t)u->tb_warps * HD_REGPAT_LANES; break;
    case HD_REGPAT_TB_DEAD: words = 0; break;
    default: words = u->tb_words; break;
    }
    st->tb_comp_bytes += 4u * words;
    st->tb_warp_bytes += 4u * u->tb_words;
}

/* Returns false on a mismatch. */
static bool unit_cycle(struct hd_cosim_regpat *s, struct unit *u, const struct slot *in)
{
    uint64_t g = s->gcycle++;
    uint64_t c = u->comp.cycle;
    struct slot *cur = &u->ring[c & 3u];
    if (in)
        *cur = *in;
    else
        cur->valid = false;
    const struct slot *s2 = &u->ring[(c + 2) & 3u]; /* entered two cycles ago */
    struct slot *s3 = &u->ring[(c + 1) & 3u];       /* entered three cycles ago */
    const struct hd_cosim_tag *tag = in ? &in->tag : s2->valid ? &s2->tag : &s3->tag;
    bool ok = true;

    struct hd_regpat_comp_in ci;
    struct hd_regpat_comp_out co;
    memset(&ci, 0, sizeof ci);
    if (in) {
        ci.valid_i = 1;
        ci.live_i = in->live;
        ci.pag_i = in->pag;
        memcpy(ci.data_i, in->raw, sizeof ci.data_i);
    }
    ok &= hd_cosim_step(&u->comp, &ci, &co, g, tag);

    struct hd_regpat_decomp_in di;
    struct hd_regpat_decomp_out dout;
    memset(&di, 0, sizeof di);
    struct hd_regpat_tbcls_in ti;
    struct hd_regpat_tbcls_out to;
    memset(&ti, 0, sizeof ti);
    bool have = co.valid_o && s2->valid && c >= 2;
    if (have) {
        di.valid_i = 1;
        di.pat_i = co.pat_o;
        di.pag_i = s2->pag;
        memcpy(di.base_i, co.base_o, sizeof di.base_i);
        memcpy(di.stride_i, co.stride_o, sizeof di.stride_i);
        memcpy(di.raw_i, s2->raw, sizeof di.raw_i);
        struct hd_regpat_stats *st = &s->st;
        if (s2->tb) {
            ti.valid_i = 1;
            ti.first_i = s2->first;
            ti.last_i = s2->last;
            ti.pat_i = co.pat_o;
            ti.pag_i = s2->pag;
            memcpy(ti.base_i, co.base_o, sizeof ti.base_i);
            memcpy(ti.stride_i, co.stride_o, sizeof ti.stride_i);
            if (s2->first) {
                u->tb_words = 0;
                u->tb_warps = 0;
            }
            u->tb_words += co.words_o;
            u->tb_warps++;
        } else if (!s2->live) {
            st->dead_regs++; /* pattern 00, nothing stored (compared like every register) */
        } else {
            st->regs++;
            st->pat[co.pat_o & 3u]++;
            st->comp_bytes += 4u * co.words_o;
            struct hd_regpat_comp_in v = ci;
            struct hd_regpat_comp_out vo;
            v.valid_i = 1;
            v.live_i = 1;
            v.pag_i = HD_REGPAT_PAG32;
            memcpy(v.data_i, s2->raw, sizeof v.data_i);
            hd_regpat_comp_eval(&v, &vo);
            st->pat32[vo.pat_o & 3u]++;
        }
    }
    ok &= hd_cosim_step(&u->decomp, &di, &dout, g, tag);
    ok &= hd_cosim_step(&u->tbcls, &ti, &to, g, tag);
    if (dout.valid_o && s3->valid && s3->live && c >= 3) /* a dead register is not restored */
        write_back(s3, dout.data_o, &s->st);
    if (to.valid_o)
        tb_account(s, u, (unsigned)to.cls_o);
    s->st.block_cycles++;
    if (u->comp.rtl)
        s->st.rtl_cycles++;
    if (s->fst && tag->now >= s->o.win_a && tag->now <= s->o.win_b) {
        struct hd_cosim_inst *xs[3] = {&u->comp, &u->decomp, &u->tbcls};
        for (unsigned k = 0; k < 3; k++) {
            const void *hin, *hro, *hto;
            const struct hd_cosim_tag *ht;
            uint64_t hg;
            if (hd_cosim_hist(xs[k], 0, &hin, &hro, &hto, &ht, &hg))
                hd_cosim_fst_cycle(s->fst, u->fst[k], hg, hin, hro, hto, ht);
        }
    }
    if (s->record && in && (s->o.record_max == 0 || s->recorded < s->o.record_max)) {
        s->recorded++;
        fprintf(s->record, "%u %u", in->pag, in->live ? 1u : 0u);
        for (unsigned l = 0; l < HD_REGPAT_LANES; l++)
            fprintf(s->record, " %08x", in->raw[l]);
        fputc('\n', s->record);
    }
    return ok;
}

/* A mismatch: a few more cycles to show the aftermath, the FST window, the message. */
static int fail(struct hd_cosim_regpat *s, struct unit *u, struct hd_func_launch *l)
{
    uint64_t marker = s->gcycle - 1;
    for (unsigned k = 0; k < DRAIN + 1; k++)
        unit_cycle(s, u, NULL);
    s->failed = true;
    const char *path = s->o.fail_fst ? s->o.fail_fst : "cosim-mismatch.fst";
    struct hd_cosim_inst *xs[3] = {&u->comp, &u->decomp, &u->tbcls};
    int rc = hd_cosim_fst_dump_history(path, xs, 3, s->o.window ? s->o.window : 64, marker);
    snprintf(l->err, sizeof l->err,
             "cosim: RTL/reference mismatch or failed RTL assertion on SM %u (block cycle %" PRIu64
             "); FST window %s%s",
             u->sm, marker, path, rc == 0 ? " (+ .gtkw)" : " could not be written");
    snprintf(s->msg, sizeof s->msg, "%s", l->err);
    return HD_FUNC_ERR_INTERNAL;
}
/* }==== */

/* {==== Observer callbacks ==== */
/* The live data-register row of warp w (divergence-aware), or NULL. */
static const uint64_t *live_row(struct hd_cosim_regpat *s, const struct hd_func_launch *l,
                                const struct hd_func_warp *w, struct fn_info *fi, uint32_t *kpc,
                                const struct hd_func_kfunc **kf, char *err, size_t errlen)
{
    uint32_t pc, active, lpc;
    if (!hd_func_warp_next(w, &pc, &active))
        return NULL;
    *kpc = pc;
    *kf = hd_func_kernel_func_at(l->k, pc);
    if (!*kf || !fn_at(s, l, pc, fi, &lpc, err, errlen))
        return NULL;
    if (w->sp > 1) {
        hd_liveness_divergent_row(fi->lv, lpc, HD_RC_DATA, s->row);
        return s->row;
    }
    return hd_liveness_in_row(fi->lv, lpc, HD_RC_DATA);
}

/* A warp's full context in 32-bit words per lane: the allocator's registers per thread, raised
 * to the live words where a divergent union row exceeds it (counted). */
static uint64_t full_words(struct hd_cosim_regpat *s, const struct fn_info *fi, uint64_t live)
{
    if (live <= fi->regs_per_thread)
        return fi->regs_per_thread;
    s->st.full_raised++;
    return live;
}

/* Feed every live word of warp w (tb: as part of a TB-level sequence). Returns false on error
 * (message in l->err) or mismatch. */
static bool feed_reg(struct hd_cosim_regpat *s, struct unit *u, struct slot *sl,
                     const struct hd_func_warp *w, uint32_t kreg, unsigned word, bool live)
{
    sl->w = (struct hd_func_warp *)w;
    sl->live = live;
    sl->tag.f[TAG_REG] = kreg;
    sl->tag.f[TAG_WORD] = word;
    const uint64_t *r = w->regs + (size_t)kreg * HD_FUNC_WARP_SIZE;
    for (unsigned l = 0; l < HD_REGPAT_LANES; l++)
        sl->raw[l] = (uint32_t)(r[l] >> (32u * word));
    return unit_cycle(s, u, sl);
}

static struct unit *unit_of(struct hd_cosim_regpat *s, const struct hd_func_cta *c)
{
    return &s->u[c->smid < s->nunits ? c->smid : 0];
}

static int on_sample(void *ctx, struct hd_func_launch *l, struct hd_func_cta *c, uint64_t now)
{
    struct hd_cosim_regpat *s = ctx;
    struct unit *u = unit_of(s, c);
    s->st.samples++;
    struct slot sl;
    memset(&sl, 0, sizeof sl);
    sl.valid = true;
    sl.pag = hd_regpat_pag_for_block(l->block);
    sl.tag.now = now;
    sl.tag.valid = true;
    sl.tag.f[TAG_CTA] = (uint32_t)c->linear;
    bool ok = true;
    for (uint32_t wi = 0; wi < c->nwarps && ok; wi++) {
        struct hd_func_warp *w = &c->warps[wi];
        struct fn_info fi;
        const struct hd_func_kfunc *kf;
        uint32_t pc;
        const uint64_t *row = live_row(s, l, w, &fi, &pc, &kf, l->err, sizeof l->err);
        if (!row) {
            if (l->err[0])
                return HD_FUNC_ERR_INTERNAL;
            continue;
        }
        struct hd_liveness *lv = fi.lv;
        s->st.warp_samples++;
        sl.tag.f[TAG_WARP] = wi;
        uint64_t live_words = 0;
        for (uint32_t i = 0; i < lv->n[HD_RC_DATA] && ok; i++) {
            const bool live = row[i / 64] >> (i % 64) & 1u;
            uint32_t r = lv->reg_of[HD_RC_DATA][i];
            if (!hd_annot_held(fi.an, kf->reg_base + r))
                continue;
            unsigned words = lv->words[r] > 2 ? 2 : lv->words[r];
            for (unsigned wd = 0; wd < words && ok; wd++) {
                live_words += live;
                ok = feed_reg(s, u, &sl, w, kf->reg_base + r, wd, live);
            }
        }
        s->st.live_bytes += live_words * 128u;
        s->st.full_bytes += full_words(s, &fi, live_words) * 128u;
    }
    for (unsigned k = 0; k < DRAIN && ok; k++)
        ok = unit_cycle(s, u, NULL);
    return ok ? HD_FUNC_OK : fail(s, u, l);
}

static int on_barrier(void *ctx, struct hd_func_launch *l, struct hd_func_cta *c, uint64_t now)
{
    struct hd_cosim_regpat *s = ctx;
    if (!s->o.tb_level)
        return HD_FUNC_OK;
    struct unit *u = unit_of(s, c);
    /* Every live warp at one PC, none diverged: the TB-level point. */
    uint32_t pc0 = 0, nlive = 0;
    bool same = true;
    for (uint32_t wi = 0; wi < c->nwarps; wi++) {
        uint32_t pc, active;
        if (!hd_func_warp_next(&c->warps[wi], &pc, &active))
            continue;
        if (nlive++ == 0)
            pc0 = pc;
        same &= pc == pc0 && c->warps[wi].sp == 1;
    }
    if (nlive == 0 || !same) {
        s->st.tb_skipped++;
        return HD_FUNC_OK;
    }
    struct fn_info fi;
    const struct hd_func_kfunc *kf;
    uint32_t pc;
    uint32_t first = 0;
    while (c->warps[first].done)
        first++;
    const uint64_t *row = live_row(s, l, &c->warps[first], &fi, &pc, &kf, l->err, sizeof l->err);
    if (!row)
        return l->err[0] ? HD_FUNC_ERR_INTERNAL : HD_FUNC_OK;
    s->st.tb_points++;
    struct hd_liveness *lv = fi.lv;
    struct slot sl;
    memset(&sl, 0, sizeof sl);
    sl.valid = sl.tb = true;
    sl.pag = hd_regpat_pag_for_block(l->block);
    sl.tag.now = now;
    sl.tag.valid = true;
    sl.tag.f[TAG_CTA] = (uint32_t)c->linear;
    uint64_t live_words = 0;
    bool ok = true;
    for (uint32_t i = 0; i < lv->n[HD_RC_DATA] && ok; i++) {
        const bool live = row[i / 64] >> (i % 64) & 1u;
        uint32_t r = lv->reg_of[HD_RC_DATA][i];
        if (!hd_annot_held(fi.an, kf->reg_base + r))
            continue;
        unsigned words = lv->words[r] > 2 ? 2 : lv->words[r];
        for (unsigned wd = 0; wd < words && ok; wd++) {
            live_words += live;
            uint32_t k = 0;
            for (uint32_t wi = 0; wi < c->nwarps && ok; wi++) {
                if (c->warps[wi].done)
                    continue;
                sl.first = k == 0;
                sl.last = k + 1 == nlive;
                sl.tag.f[TAG_WARP] = wi;
                k++;
                ok = feed_reg(s, u, &sl, &c->warps[wi], kf->reg_base + r, wd, live);
            }
        }
    }
    s->st.tb_full_bytes += (uint64_t)nlive * full_words(s, &fi, live_words) * 128u;
    s->st.tb_live_bytes += (uint64_t)nlive * live_words * 128u;
    for (unsigned k = 0; k < DRAIN && ok; k++)
        ok = unit_cycle(s, u, NULL);
    return ok ? HD_FUNC_OK : fail(s, u, l);
}
/* }==== */

/* {==== Session ==== */
struct hd_cosim_regpat *hd_cosim_regpat_create(const struct hd_cosim_opts *o, uint32_t num_sms,
                                               char *err, size_t errlen)
{
    struct hd_cosim_regpat *s = calloc(1, sizeof *s);
    if (!s || num_sms == 0) {
        free(s);
        snprintf(err, errlen, "cosim: out of memory");
        return NULL;
    }
    s->o = *o;
    s->nunits = num_sms;
    s->u = calloc(num_sms, sizeof *s->u);
    if (!s->u)
        goto oom;
    const struct hd_cosim_rtl_ops *rc = NULL, *rd = NULL, *rt = NULL;
    static const char *const blk[3] = {"regpat_comp", "regpat_decomp", "regpat_tbcls"};
    bool inl[3]; /* --fst-internal: that block's RTL is the variant with public internal signals */
    for (unsigned k = 0; k < 3; k++)
        inl[k] = o->fst_path && o->rtl && hd_cosim_fst_names(o->fst_internal, blk[k]);
    for (const char *p = o->fst_internal && strcmp(o->fst_internal, "all") ? o->fst_internal : "";
         *p;) {
        size_t len = strcspn(p, ",");
        bool known = false;
        for (unsigned k = 0; k < 3; k++)
            known |= len == strlen(blk[k]) && strncmp(p, blk[k], len) == 0;
        if (!known) {
            snprintf(err, errlen, "cosim: --fst-internal %.*s: not co-simulated here (the "
                                  "observer session has regpat_comp, regpat_decomp, "
                                  "regpat_tbcls; other blocks need --in-loop)", (int)len, p);
            hd_cosim_regpat_destroy(s);
            return NULL;
        }
        p += len + (p[len] == ',');
    }
    if (o->rtl) {
        rc = inl[0] ? hd_cosim_rtl_find_internal(blk[0]) : hd_cosim_rtl_find(blk[0]);
        rd = inl[1] ? hd_cosim_rtl_find_internal(blk[1]) : hd_cosim_rtl_find(blk[1]);
        rt = inl[2] ? hd_cosim_rtl_find_internal(blk[2]) : hd_cosim_rtl_find(blk[2]);
        if (!rc || !rd || !rt) {
            snprintf(err, errlen, "cosim: this build has no RTL models (Verilator was not found "
                                  "at configure time); use heddle regpat-stats for the C reference");
            hd_cosim_regpat_destroy(s);
            return NULL;
        }
    }
    unsigned hist = (o->window ? o->window : 64) + DRAIN + 2;
    for (uint32_t i = 0; i < num_sms; i++) {
        struct unit *u = &s->u[i];
        bool on = o->rtl && (o->sm_all || (i < HD_COSIM_MAX_SMS && o->sms[i]));
        char name[64];
        u->sm = i;
        snprintf(name, sizeof name, "sm%u.regpat_comp", i);
        if (hd_cosim_inst_init(&u->comp, name, hd_hw_ref_find("regpat_comp"), on ? rc : NULL,
                               o->drive_rtl, hist, o->plusargs) != 0)
            goto oom;
        snprintf(name, sizeof name, "sm%u.regpat_decomp", i);
        if (hd_cosim_inst_init(&u->decomp, name, hd_hw_ref_find("regpat_decomp"), on ? rd : NULL,
                               o->drive_rtl, hist, o->plusargs) != 0)
            goto oom;
        snprintf(name, sizeof name, "sm%u.regpat_tbcls", i);
        if (hd_cosim_inst_init(&u->tbcls, name, hd_hw_ref_find("regpat_tbcls"), on ? rt : NULL,
                               o->drive_rtl, hist, o->plusargs) != 0)
            goto oom;
        if (o->coverage && (hd_cosim_inst_cover(&u->comp) != 0 ||
                            hd_cosim_inst_cover(&u->decomp) != 0 ||
                            hd_cosim_inst_cover(&u->tbcls) != 0))
            goto oom;
        s->rtl_instances += on ? 3u : 0u;
        u->fst[0] = u->fst[1] = u->fst[2] = -1;
    }
    if (o->fst_path) {
        s->fst = hd_cosim_fst_open(o->fst_path);
        if (!s->fst) {
            snprintf(err, errlen, "cosim: --fst %s: cannot create the file", o->fst_path);
            hd_cosim_regpat_destroy(s);
            return NULL;
        }
        for (uint32_t i = 0; i < num_sms; i++) {
            const struct hd_cosim_inst *xs[3] = {&s->u[i].comp, &s->u[i].decomp,
                                                 &s->u[i].tbcls};
            for (unsigned k = 0; k < 3; k++) /* (internal signals only where the RTL runs) */
                s->u[i].fst[k] = inl[k] ? hd_cosim_fst_add_internal(s->fst, xs[k])
                                        : hd_cosim_fst_add(s->fst, xs[k]);
            if (s->u[i].fst[0] < 0 || s->u[i].fst[1] < 0 || s->u[i].fst[2] < 0)
                goto oom; /* every instance is dumped, or the run does not start */
        }
    }
    if (o->record) {
        char why[256];
        if (hd_outfile_open(&s->record_of, o->record, false, why, sizeof why) != 0) {
            snprintf(err, errlen, "cosim: --record %s: %s", o->record, why);
            hd_cosim_regpat_destroy(s);
            return NULL;
        }
        s->record = s->record_of.f;
        fprintf(s->record, "# heddle replay vectors for regpat_comp: pag_sel live lane0..lane31 "
                           "(hex)\n");
    }
    s->obs.every = o->every;
    s->obs.ctx = s;
    s->obs.sample = on_sample;
    s->obs.barrier = on_barrier;
    return s;
oom:
    snprintf(err, errlen, "cosim: out of memory (or an RTL model could not be created)");
    hd_cosim_regpat_destroy(s);
    return NULL;
}

void hd_cosim_regpat_destroy(struct hd_cosim_regpat *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; s->u && i < s->nunits; i++) {
        hd_cosim_inst_free(&s->u[i].comp);
        hd_cosim_inst_free(&s->u[i].decomp);
        hd_cosim_inst_free(&s->u[i].tbcls);
    }
    for (unsigned i = 0; i < s->nown; i++)
        hd_annot_free(s->own[i].an);
    if (s->fst)
        hd_cosim_fst_close(s->fst, NULL, UINT64_MAX);
    hd_outfile_discard(&s->record_of); /* not finished: the old record stays */
    free(s->own);
    free(s->row);
    free(s->u);
    free(s);
}

const struct hd_func_observer *hd_cosim_regpat_observer(struct hd_cosim_regpat *s)
{
    return &s->obs;
}

int hd_cosim_regpat_finish(struct hd_cosim_regpat *s, char *err, size_t errlen)
{
    int rc = 0;
    if (s->fst) {
        char gtkw[600];
        snprintf(gtkw, sizeof gtkw, "%s", s->o.fst_path);
        size_t len = strlen(gtkw);
        if (len > 4 && strcmp(gtkw + len - 4, ".fst") == 0)
            gtkw[len - 4] = '\0';
        strncat(gtkw, ".gtkw", sizeof gtkw - strlen(gtkw) - 1);
        rc = hd_cosim_fst_close(s->fst, gtkw, UINT64_MAX);
        s->fst = NULL;
        if (rc != 0)
            snprintf(err, errlen, "cosim: cannot write %s", gtkw);
    }
    if (s->record) {
        char why[256];
        s->record = NULL;
        if (hd_outfile_commit(&s->record_of, why, sizeof why) != 0) {
            snprintf(err, errlen, "cosim: --record %s: %s", s->o.record, why);
            rc = -1;
        }
    }
    return rc;
}

const struct hd_regpat_stats *hd_cosim_regpat_stats(const struct hd_cosim_regpat *s)
{
    return &s->st;
}

bool hd_cosim_regpat_failed(const struct hd_cosim_regpat *s)
{
    return s->failed;
}

unsigned hd_cosim_regpat_rtl_instances(const struct hd_cosim_regpat *s)
{
    return s->rtl_instances;
}

void hd_cosim_regpat_print_errors(const struct hd_cosim_regpat *s, FILE *f)
{
    for (uint32_t i = 0; i < s->nunits; i++) {
        const struct hd_cosim_inst *xs[3] = {&s->u[i].comp, &s->u[i].decomp, &s->u[i].tbcls};
        for (unsigned k = 0; k < 3; k++)
            if (xs[k]->errors)
                fprintf(f, "SM %u block %s:\n%s", i, xs[k]->name, xs[k]->errors);
    }
    if (s->msg[0])
        fprintf(f, "%s\n", s->msg);
}
void hd_cosim_regpat_print_coverage(const struct hd_cosim_regpat *s, const char *who, FILE *f)
{
    struct hd_cover_sum *sum = hd_cover_sum_create();
    for (uint32_t i = 0; sum && i < s->nunits; i++) {
        const struct hd_cosim_inst *xs[3] = {&s->u[i].comp, &s->u[i].decomp, &s->u[i].tbcls};
        for (unsigned k = 0; k < 3; k++)
            if (xs[k]->cov && hd_cover_sum_add(sum, xs[k]->cov) != 0) {
                hd_cover_sum_destroy(sum);
                sum = NULL;
            }
    }
    if (!sum) {
        fprintf(f, "coverage (%s): out of memory\n", who);
        return;
    }
    hd_cover_sum_print(sum, who, f);
    hd_cover_sum_destroy(sum);
}
/* }==== */

/* {==== Report ==== */
static double pct(uint64_t a, uint64_t b)
{
    return b ? 100.0 * (double)a / (double)b : 0.0;
}

void hd_regpat_stats_header(FILE *f)
{
    fprintf(f, "| workload | live regs | uniform | strided | random | random @32 | live/full | "
               "warp-comp/full | comp/live | raised | TB regs | g-uni | l-uni | g-str | l-str | TB random | "
               "TB-comp/warp-comp |\n");
    fprintf(f, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
               "---:|\n");
}

void hd_regpat_stats_row(FILE *f, const char *workload, const struct hd_regpat_stats *st)
{
    fprintf(f, "| %s | %" PRIu64 " | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% | "
               "%" PRIu64 " | ", workload,
            st->regs, pct(st->pat[HD_REGPAT_UNIFORM], st->regs),
            pct(st->pat[HD_REGPAT_STRIDED], st->regs), pct(st->pat[HD_REGPAT_RANDOM], st->regs),
            pct(st->pat32[HD_REGPAT_RANDOM], st->regs), pct(st->live_bytes, st->full_bytes),
            pct(st->comp_bytes, st->full_bytes), pct(st->comp_bytes, st->live_bytes),
            st->full_raised);
    if (st->tb_regs == 0) {
        fprintf(f, "0 | - | - | - | - | - | - |\n");
        return;
    }
    fprintf(f, "%" PRIu64 " | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% |\n", st->tb_regs,
            pct(st->tb_cls[HD_REGPAT_TB_GLOBAL_UNIFORM], st->tb_regs),
            pct(st->tb_cls[HD_REGPAT_TB_LOCAL_UNIFORM], st->tb_regs),
            pct(st->tb_cls[HD_REGPAT_TB_GLOBAL_STRIDED], st->tb_regs),
            pct(st->tb_cls[HD_REGPAT_TB_LOCAL_STRIDED], st->tb_regs),
            pct(st->tb_cls[HD_REGPAT_TB_RANDOM], st->tb_regs),
            pct(st->tb_comp_bytes, st->tb_warp_bytes));
}
/* }==== */
