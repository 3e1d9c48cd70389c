/* SPDX-License-Identifier: MIT
 * gpuduet_loop.c - GPUDuet's warp and TB context tables and allocation bitmap stepped in the
 * GPU timing loop in lockstep with the model (gpuduet_loop.h; Lin thesis §3.7-3.9, Table 3.4;
 * docs/blocks/gpuduet.md "In the GPU").
 */
#include "gpuduet_loop.h"

#include "gpuduet.h"
#include "gpuduet_bitmap.h"
#include "gpuduet_tbct.h"
#include "gpuduet_wct.h"
#include "hw_ref.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define NW GPUDUET_WCT_NW
#define NT GPUDUET_TBCT_NT
#define AMASK ((1u << GPUDUET_WCT_AW) - 1u)

/* A WCT entry's Table 3.4 fields, as the model has them or as last written. */
struct wfields {
    uint8_t valid, state;
    uint16_t reg, meta;
};
struct tfields {
    uint8_t valid;
    uint32_t abs;
    uint16_t smem;
};

struct sm_l {
    struct hd_hw_inst wct, tbct;
    struct wfields w[NW];     /* what the WCT holds once the writes sent are in */
    struct tfields t[NT];
    uint64_t wrd[(NW + 63) / 64]; /* entries written, to read back */
    uint64_t trd;
    bool wct_rd, tbct_rd;     /* a read stepped last cycle: its result is due */
    uint32_t wct_rd_e, tbct_rd_e;
    struct wfields wct_want;  /* ... what it must show */
    struct tfields tbct_want;
    uint32_t want_nvalid;
    uint32_t want_vec[3][(NW + 31) / 32]; /* schedulable, stalled, ready */
    uint32_t want_tvec[3];    /* valid, shared memory present, whole */
};

struct gd_loop {
    const struct hd_hw_factory *const *hw;
    uint32_t nsms;
    uint32_t l1_units;        /* the block's L1D region */
    uint64_t fault;           /* [gpuduet] blocks_fault */
    bool fault_done;
    bool made, failed;
    struct sm_l *sm;
    uint64_t wct_writes, tbct_writes, wct_reads, tbct_reads;
    char err[768];
};

/* {==== Creation ==== */
struct gd_loop *gd_loop_create(const struct hd_gpu_timing_params *p,
                               const struct hd_hw_factory *const *hw, char *err, size_t errlen)
{
    const uint32_t rf = p->sm.registers / 32u, sh = (uint32_t)(p->sm.shared_bytes / 128u);
    const uint32_t l1 = GPUDUET_BITMAP_Units - GPUDUET_BITMAP_L1Lo;
    if (rf != GPUDUET_BITMAP_SmemLo || sh != GPUDUET_BITMAP_L1Lo - GPUDUET_BITMAP_SmemLo ||
        p->gduet.l1d_units > l1 || p->sm.max_warps > NW || p->sm.max_ctas > NT ||
        GPUDUET_WCT_RfUnits != GPUDUET_BITMAP_SmemLo || GPUDUET_TBCT_SmemLo != GPUDUET_BITMAP_SmemLo ||
        GPUDUET_TBCT_SmemHi != GPUDUET_BITMAP_L1Lo) {
        snprintf(err, errlen,
                 "key 'gpuduet.blocks': the GPUDuet blocks are built for a unified space of %d "
                 "register-file, %d shared-memory and at most %u L1D units of 128 B, %d warps and "
                 "%d TBs per SM (configs/rtl/gpuduet_*.ini); the GPU has [sm] registers = %u (%u "
                 "units), shared_mem_bytes = %" PRIu64 " (%u units), an L1D of %u units, "
                 "max_ctas = %u and %u warp slots",
                 GPUDUET_BITMAP_SmemLo, GPUDUET_BITMAP_L1Lo - GPUDUET_BITMAP_SmemLo, l1, NW, NT,
                 p->sm.registers, rf, (uint64_t)p->sm.shared_bytes, sh, p->gduet.l1d_units,
                 p->sm.max_ctas, p->sm.max_warps);
        return NULL;
    }
    struct gd_loop *L = calloc(1, sizeof *L);
    if (!L || !(L->sm = calloc(p->num_sms, sizeof *L->sm))) {
        free(L);
        snprintf(err, errlen, "host out of memory (gpuduet blocks)");
        return NULL;
    }
    L->hw = hw;
    L->nsms = p->num_sms;
    L->l1_units = l1;
    L->fault = p->gduet.blocks_fault;
    return L;
}

void gd_loop_destroy(struct gd_loop *L)
{
    if (!L)
        return;
    for (uint32_t i = 0; i < L->nsms; i++) {
        hd_hw_destroy(&L->sm[i].wct);
        hd_hw_destroy(&L->sm[i].tbct);
    }
    free(L->sm);
    free(L);
}

static int make(struct gd_loop *L, const char *block, uint32_t sm, struct hd_hw_inst *x,
                size_t in_size, size_t out_size)
{
    const struct hd_hw_factory *f = L->hw && *L->hw ? *L->hw : hd_hw_ref_factory();
    char name[64], e[512];
    snprintf(name, sizeof name, "sm%u.%s", sm, block);
    if (hd_hw_make_sized(f, block, name, x, in_size, out_size, e, sizeof e) != 0) {
        snprintf(L->err, sizeof L->err, "%s", e);
        return -1;
    }
    return 0;
}

int gd_loop_make(struct gd_loop *L, char *err, size_t errlen)
{
    if (!L->made) {
        L->made = true;
        for (uint32_t i = 0; i < L->nsms && !L->failed; i++) {
            struct sm_l *s = &L->sm[i];
            L->failed = make(L, "gpuduet_wct", i, &s->wct, sizeof(struct hd_gpuduet_wct_in),
                             sizeof(struct hd_gpuduet_wct_out)) != 0 ||
                        make(L, "gpuduet_tbct", i, &s->tbct, sizeof(struct hd_gpuduet_tbct_in),
                             sizeof(struct hd_gpuduet_tbct_out)) != 0;
        }
    }
    if (L->failed) {
        snprintf(err, errlen, "%s", L->err);
        return -1;
    }
    return 0;
}
/* }==== */


/* {==== The cycle ==== */
static int step(struct gd_loop *L, struct hd_hw_inst *x, const void *in, void *out, uint64_t now)
{
    if (hd_hw_step(x, in, out, now) != 0) {
        L->failed = true;
        snprintf(L->err, sizeof L->err, "%s", x->ops->error(x->impl));
        return -1;
    }
    return 0;
}

static struct wfields wmodel(const struct gd_wct_entry *e)
{
    if (!e->valid)
        return (struct wfields){0, 0, 0, 0};
    return (struct wfields){1, (uint8_t)(e->state & 3u), (uint16_t)(e->regaddr & AMASK),
                            (uint16_t)(e->metaaddr & AMASK)};
}

static struct tfields tmodel(const struct gd_tbct_entry *e)
{
    if (!e->valid)
        return (struct tfields){0, 0, 0};
    return (struct tfields){1, e->absmask, (uint16_t)(e->smemaddr & AMASK)};
}

static bool wsame(const struct wfields *a, const struct wfields *b)
{
    return a->valid == b->valid && a->state == b->state && a->reg == b->reg &&
           a->meta == b->meta;
}

static bool tsame(const struct tfields *a, const struct tfields *b)
{
    return a->valid == b->valid && a->abs == b->abs && a->smem == b->smem;
}

static const char *sname(unsigned st)
{
    return hd_gpuduet_wct_state_name(st);
}

/* The WCT's writes of this cycle (one per port) and a read of an entry written. */
static int step_wct(struct gd_loop *L, struct gd *g, uint32_t i, uint64_t now, bool *busy)
{
    struct sm_l *s = &L->sm[i];
    const struct gd_wct *m = &g->sm[i].wct;
    struct hd_gpuduet_wct_in in;
    memset(&in, 0, sizeof in);
    for (uint32_t e = 0; e < NW; e++) {
        const struct wfields want = wmodel(&m->w[e]);
        struct wfields *have = &s->w[e];
        if (wsame(&want, have))
            continue;
        bool sent = false, fault = false;
        if (!want.valid) {
            if ((sent = !in.fin_v_i)) {
                in.fin_v_i = 1;
                in.fin_wid_i = e;
            }
        } else {
            fault = L->fault && !L->fault_done && now >= L->fault;
            const bool same_addr = have->valid && want.reg == have->reg && want.meta == have->meta;
            if (!have->valid && !fault) {
                if ((sent = !in.ld_v_i)) {
                    in.ld_v_i = 1;
                    in.ld_wid_i = e;
                    in.ld_state_i = want.state;
                    in.ld_reg_i = want.reg;
                    in.ld_meta_i = want.meta;
                }
            } else if (same_addr && !fault && have->state == HD_WCT_RUNNING &&
                       want.state == HD_WCT_STALLED) {
                if ((sent = !in.st_v_i)) {
                    in.st_v_i = 1;
                    in.st_wid_i = e;
                }
            } else if (same_addr && !fault &&
                       ((have->state == HD_WCT_STALLED && want.state == HD_WCT_RUNNING) ||
                        (have->state == HD_WCT_ABSENT && want.state == HD_WCT_READY))) {
                if ((sent = !in.mr_v_i)) {
                    in.mr_v_i = 1;
                    in.mr_wid_i = e;
                }
            } else if (have->valid || fault) {
                /* a move (or, with the fault, any write: the CSL port with a wrong state) */
                if ((sent = !in.csl_v_i) && (have->valid || !in.ld_v_i)) {
                    if (!have->valid) { /* (the fault on a new entry: launched, then moved) */
                        in.ld_v_i = 1;
                        in.ld_wid_i = e;
                        in.ld_state_i = want.state;
                        in.ld_reg_i = want.reg;
                        in.ld_meta_i = want.meta;
                    }
                    in.csl_v_i = 1;
                    in.csl_wid_i = e;
                    in.csl_state_i = fault ? want.state ^ 1u : want.state;
                    in.csl_reg_i = want.reg;
                    in.csl_meta_i = want.meta;
                    L->fault_done |= fault;
                } else {
                    sent = false;
                }
            }
        }
        if (!sent) {
            *busy = true; /* its port is taken this cycle */
            continue;
        }
        *have = want;
        s->wrd[e / 64] |= 1ull << (e % 64);
        L->wct_writes++;
    }
    uint32_t rd = NW;
    for (uint32_t k = 0; k < (NW + 63) / 64 && rd == NW; k++)
        if (s->wrd[k])
            rd = k * 64 + (uint32_t)__builtin_ctzll(s->wrd[k]);
    if (rd < NW) {
        s->wrd[rd / 64] &= ~(1ull << (rd % 64));
        in.rd_v_i = 1;
        in.rd_wid_i = rd;
    }
    const bool due = s->wct_rd;
    if (!due && rd == NW && hd_hw_idle(&s->wct, &in))
        return 0;
    const uint64_t tag[1] = {i};
    hd_hw_set_tag(&s->wct, tag, 1);
    struct hd_gpuduet_wct_out out;
    if (step(L, &s->wct, &in, &out, now) != 0)
        return -1;
    if (due) {
        const struct wfields *w = &s->wct_want;
        const uint32_t e = s->wct_rd_e;
        const char *bad = NULL;
        uint64_t got = 0, exp = 0;
        int bitno = -1;
        if (!(out.rd_v_o & 1))
            bad = "rd_v_o", got = 0, exp = 1;
        else if ((out.rd_valid_o & 1) != w->valid)
            bad = "rd_valid_o", got = out.rd_valid_o, exp = w->valid;
        else if (out.rd_state_o != w->state)
            bad = "rd_state_o", got = out.rd_state_o, exp = w->state;
        else if (out.rd_reg_o != w->reg)
            bad = "rd_reg_o", got = out.rd_reg_o, exp = w->reg;
        else if (out.rd_meta_o != w->meta)
            bad = "rd_meta_o", got = out.rd_meta_o, exp = w->meta;
        else if (out.rd_nvalid_o != s->want_nvalid)
            bad = "rd_nvalid_o", got = out.rd_nvalid_o, exp = s->want_nvalid;
        static const char *const vn[3] = {"rd_sched_o", "rd_stalled_o", "rd_ready_o"};
        for (uint32_t v = 0; v < 3 && !bad; v++) {
            const uint32_t *o = v == 0 ? out.rd_sched_o : v == 1 ? out.rd_stalled_o
                                                                 : out.rd_ready_o;
            for (uint32_t k = 0; k < (NW + 31) / 32 && !bad; k++)
                if (o[k] != s->want_vec[v][k]) {
                    const uint32_t d = o[k] ^ s->want_vec[v][k];
                    const uint32_t b = (uint32_t)__builtin_ctz(d);
                    bad = vn[v];
                    got = o[k] >> b & 1u;
                    exp = s->want_vec[v][k] >> b & 1u;
                    bitno = (int)(k * 32 + b);
                }
        }
        if (bad) {
            char bit[32] = "";
            if (bitno >= 0)
                snprintf(bit, sizeof bit, " bit %d", bitno);
            snprintf(L->err, sizeof L->err,
                     "gpuduet blocks: MISMATCH at cycle %" PRIu64 ", SM %u, block gpuduet_wct, "
                     "signal %s%s: the block gives %" PRIu64 ", the model's warp context table "
                     "has %" PRIu64 " (reading entry %u, which the model holds as valid=%u "
                     "state=%s Regaddr=0x%03x Metaaddr=0x%03x)",
                     now, i, bad, bit, got, exp, e, w->valid, sname(w->state), w->reg, w->meta);
            L->failed = true;
            return -1;
        }
        L->wct_reads++;
    }
    s->wct_rd = rd < NW;
    if (rd < NW) { /* what the read must show: the table after this edge's writes */
        s->wct_rd_e = rd;
        s->wct_want = s->w[rd];
        s->want_nvalid = 0;
        memset(s->want_vec, 0, sizeof s->want_vec);
        for (uint32_t e = 0; e < NW; e++) {
            const struct wfields *w = &s->w[e];
            if (!w->valid)
                continue;
            s->want_nvalid++;
            const uint32_t bit = 1u << (e % 32);
            if (w->state == HD_WCT_RUNNING && hd_gpuduet_wct_present(w->reg) &&
                hd_gpuduet_wct_present(w->meta))
                s->want_vec[0][e / 32] |= bit;
            if (w->state == HD_WCT_STALLED)
                s->want_vec[1][e / 32] |= bit;
            if (w->state == HD_WCT_READY)
                s->want_vec[2][e / 32] |= bit;
        }
    }
    return 0;
}

static int step_tbct(struct gd_loop *L, struct gd *g, uint32_t i, uint64_t now, bool *busy)
{
    struct sm_l *s = &L->sm[i];
    const struct gd_wct *m = &g->sm[i].wct;
    struct hd_gpuduet_tbct_in in;
    memset(&in, 0, sizeof in);
    for (uint32_t t = 0; t < NT; t++) {
        const struct tfields want = tmodel(&m->t[t]);
        struct tfields *have = &s->t[t];
        if (tsame(&want, have))
            continue;
        const uint32_t x = want.abs ^ have->abs;
        bool sent = false;
        if (!want.valid) {
            if ((sent = !in.fin_v_i)) {
                in.fin_v_i = 1;
                in.fin_tb_i = t;
            }
        } else if (!have->valid) {
            if ((sent = !in.ld_v_i)) {
                in.ld_v_i = 1;
                in.ld_tb_i = t;
                in.ld_abs_i = want.abs;
                in.ld_smem_i = want.smem;
            }
        } else if (want.smem == have->smem && x && !(x & (x - 1u))) {
            if ((sent = !in.wm_v_i)) {
                in.wm_v_i = 1;
                in.wm_tb_i = t;
                in.wm_warp_i = (uint32_t)__builtin_ctz(x);
                in.wm_abs_i = (want.abs & x) != 0;
            }
        } else if ((sent = !in.tm_v_i)) {
            in.tm_v_i = 1;
            in.tm_tb_i = t;
            in.tm_abs_i = want.abs;
            in.tm_smem_i = want.smem;
        }
        if (!sent) {
            *busy = true;
            continue;
        }
        *have = want;
        s->trd |= 1ull << t;
        L->tbct_writes++;
    }
    uint32_t rd = NT;
    if (s->trd) {
        rd = (uint32_t)__builtin_ctzll(s->trd);
        s->trd &= s->trd - 1u;
        in.rd_v_i = 1;
        in.rd_tb_i = rd;
    }
    const bool due = s->tbct_rd;
    if (!due && rd == NT && hd_hw_idle(&s->tbct, &in))
        return 0;
    struct hd_gpuduet_tbct_out out;
    if (step(L, &s->tbct, &in, &out, now) != 0)
        return -1;
    if (due) {
        const struct tfields *w = &s->tbct_want;
        const char *bad = NULL;
        uint64_t got = 0, exp = 0;
        if (!(out.rd_v_o & 1))
            bad = "rd_v_o", got = 0, exp = 1;
        else if ((out.rd_valid_o & 1) != w->valid)
            bad = "rd_valid_o", got = out.rd_valid_o, exp = w->valid;
        else if (out.rd_abs_o != w->abs)
            bad = "rd_abs_o", got = out.rd_abs_o, exp = w->abs;
        else if (out.rd_smem_o != w->smem)
            bad = "rd_smem_o", got = out.rd_smem_o, exp = w->smem;
        else if (out.rd_valids_o != s->want_tvec[0])
            bad = "rd_valids_o", got = out.rd_valids_o, exp = s->want_tvec[0];
        else if (out.rd_smemp_o != s->want_tvec[1])
            bad = "rd_smemp_o", got = out.rd_smemp_o, exp = s->want_tvec[1];
        else if (out.rd_whole_o != s->want_tvec[2])
            bad = "rd_whole_o", got = out.rd_whole_o, exp = s->want_tvec[2];
        if (bad) {
            snprintf(L->err, sizeof L->err,
                     "gpuduet blocks: MISMATCH at cycle %" PRIu64 ", SM %u, block gpuduet_tbct, "
                     "signal %s: the block gives 0x%" PRIx64 ", the model's TB context table has "
                     "0x%" PRIx64 " (reading entry %u: valid=%u Absmask=0x%08x Smemaddr=0x%03x)",
                     now, i, bad, got, exp, s->tbct_rd_e, w->valid, w->abs, w->smem);
            L->failed = true;
            return -1;
        }
        L->tbct_reads++;
    }
    s->tbct_rd = rd < NT;
    if (rd < NT) {
        s->tbct_rd_e = rd;
        s->tbct_want = s->t[rd];
        memset(s->want_tvec, 0, sizeof s->want_tvec);
        for (uint32_t t = 0; t < NT; t++)
            if (s->t[t].valid) {
                s->want_tvec[0] |= 1u << t;
                s->want_tvec[1] |= (uint32_t)hd_gpuduet_tbct_smem_present(s->t[t].smem) << t;
                s->want_tvec[2] |= (uint32_t)(s->t[t].abs == 0) << t;
            }
    }
    return 0;
}

int gd_loop_cycle(struct gd_loop *L, struct gd *g, uint64_t now, bool *busy, char *err,
                  size_t errlen)
{
    if (gd_loop_make(L, err, errlen) != 0)
        return -1;
    for (uint32_t i = 0; i < L->nsms && i < g->nsm; i++) {
        struct sm_l *s = &L->sm[i];
        if (step_wct(L, g, i, now, busy) != 0 || step_tbct(L, g, i, now, busy) != 0) {
            snprintf(err, errlen, "%s", L->err);
            return -1;
        }
        *busy |= s->wct_rd || s->tbct_rd || s->trd;
        for (uint32_t k = 0; k < (NW + 63) / 64; k++)
            *busy |= s->wrd[k] != 0;
    }
    if (L->failed) {
        snprintf(err, errlen, "%s", L->err);
        return -1;
    }
    return 0;
}

void gd_loop_log(const struct gd_loop *L, FILE *f, uint64_t bitmap_ops)
{
    fprintf(f,
            "blocks wct_writes=%" PRIu64 " wct_reads=%" PRIu64 " tbct_writes=%" PRIu64
            " tbct_reads=%" PRIu64 " bitmap_ops=%" PRIu64 "\n",
            L->wct_writes, L->wct_reads, L->tbct_writes, L->tbct_reads, bitmap_ops);
}
/* }==== */
