/* SPDX-License-Identifier: MIT
 * expars_loop.c - EXPARS's register allocation table and operand-cache tag array stepped in the
 * GPU timing loop at the model's events, every answer compared (expars_loop.h; Yu et al.
 * §3.3.3-3.3.7; docs/blocks/expars.md "In the loop").
 *
 * Appending a block (docs/blocks/expars.md): a struct hd_hw_inst in struct sm_part, made in
 * hd_expars_loop_make, destroyed in hd_expars_loop_destroy, an event function here stepping it
 * through step() and comparing its answer with the model's through mismatch().
 */
#include "expars_loop.h"

#include "expars_arb.h"
#include "expars_cta_calc.h"
#include "expars_rat.h"
#include "expars_sm.h"
#include "hw_ref.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define M(w) ((uint64_t)((1ull << (w)) - 1u))

struct sm_part {
    struct hd_hw_inst rat, oc;
    struct hd_expars_sm *s;      /* its EXPARS state (bound by the hook's oloc) */
    struct hd_hw_inst calc;      /* the maximum-CTA calculator (expars_cta_calc), at each plan */
    struct hd_hw_inst arb;       /* the bank arbitrator (expars_arb): routes, scratchpad passes */
    struct hd_hw_inst pref;      /* the register prefetcher (expars_pref, expars_loop_pref.c) */
};

struct hd_expars_loop {
    uint32_t nsms;
    const struct hd_hw_factory *const *hw;
    bool made, failed;
    struct sm_part *sm;
    uint64_t now;                /* the model cycle of the events (non-decreasing) */
    uint64_t compared;           /* answers compared so far */
    uint64_t fault;              /* [expars] blocks_fault: corrupt the model's side of this one */
    char err[1024];
};

static const char *const op_name[8] = {"PEEK", "READ", "WRITE", "PUT",
                                       "PIN",  "UNPIN", "STEAL", "DROP"};

/* {==== Creation ==== */
static int make_one(struct hd_expars_loop *L, const char *block, const char *name,
                    struct hd_hw_inst *x, size_t in_size, size_t out_size)
{
    const struct hd_hw_factory *f = L->hw && *L->hw ? *L->hw : hd_hw_ref_factory();
    char e[512];
    if (hd_hw_make_sized(f, block, name, x, in_size, out_size, e, sizeof e) != 0) {
        snprintf(L->err, sizeof L->err, "%s", e);
        return -1;
    }
    return 0;
}

static int fail(struct hd_expars_loop *L, char *err, size_t errlen)
{
    L->failed = true;
    snprintf(err, errlen, "%s", L->err);
    return -1;
}

int hd_expars_loop_make(struct hd_expars_loop *L, char *err, size_t errlen)
{
    if (L->made)
        return L->failed ? fail(L, err, errlen) : 0;
    L->made = true;
    for (uint32_t i = 0; i < L->nsms; i++) {
        char name[64];
        snprintf(name, sizeof name, "sm%u.expars_rat", i);
        if (make_one(L, "expars_rat", name, &L->sm[i].rat, sizeof(struct hd_expars_rat_in),
                     sizeof(struct hd_expars_rat_out)) != 0)
            return fail(L, err, errlen);
        snprintf(name, sizeof name, "sm%u.expars_oc_tags", i);
        if (make_one(L, "expars_oc_tags", name, &L->sm[i].oc, sizeof(struct hd_expars_oc_tags_in),
                     sizeof(struct hd_expars_oc_tags_out)) != 0)
            return fail(L, err, errlen);
        snprintf(name, sizeof name, "sm%u.expars_cta_calc", i);
        if (make_one(L, "expars_cta_calc", name, &L->sm[i].calc,
                     sizeof(struct hd_expars_cta_calc_in),
                     sizeof(struct hd_expars_cta_calc_out)) != 0)
            return fail(L, err, errlen);
        snprintf(name, sizeof name, "sm%u.expars_arb", i);
        if (make_one(L, "expars_arb", name, &L->sm[i].arb, sizeof(struct hd_expars_arb_in),
                     sizeof(struct hd_expars_arb_out)) != 0)
            return fail(L, err, errlen);
        snprintf(name, sizeof name, "sm%u.expars_pref", i);
        if (make_one(L, "expars_pref", name, &L->sm[i].pref, sizeof(struct hd_expars_pref_in),
                     sizeof(struct hd_expars_pref_out)) != 0)
            return fail(L, err, errlen);
    }
    return 0;
}

struct hd_expars_loop *hd_expars_loop_create(const struct hd_gpu_timing_params *p,
                                             const struct hd_hw_factory *const *hw, char *err,
                                             size_t errlen)
{
    const struct hd_sm_params *s = &p->sm;
    const uint32_t slots = s->max_ctas < HD_EXPARS_MAX_SLOTS ? s->max_ctas : HD_EXPARS_MAX_SLOTS;
    if (slots > EXPARS_RAT_Slots || s->max_warps > EXPARS_RAT_Warps ||
        s->max_warps > (1u << EXPARS_OC_TAGS_WW)) {
        snprintf(err, errlen, "key 'blocks': expars_rat is built for %d CTA slots and %d warps "
                 "(configs/rtl/expars_rat.ini), expars_oc_tags for %u warps; the SM has %u CTA "
                 "slots and %u warps", EXPARS_RAT_Slots, EXPARS_RAT_Warps,
                 1u << EXPARS_OC_TAGS_WW, slots, s->max_warps);
        return NULL;
    }
    struct hd_expars_oc_tags g;
    hd_expars_oc_tags_init(&g, s->expars_oc_lines, s->expars_oc_banks, s->expars_oc_ways);
    if (g.nlines != EXPARS_OC_TAGS_Lines || g.ways != EXPARS_OC_TAGS_Ways ||
        g.nbanks != EXPARS_OC_TAGS_Banks) {
        snprintf(err, errlen, "key 'blocks': expars_oc_tags is built for %d lines, %d ways, %d "
                 "banks (configs/rtl/expars_oc_tags.ini); [expars] oc_lines = %u, oc_ways = %u, "
                 "oc_banks = %u", EXPARS_OC_TAGS_Lines, EXPARS_OC_TAGS_Ways, EXPARS_OC_TAGS_Banks,
                 s->expars_oc_lines, s->expars_oc_ways, s->expars_oc_banks);
        return NULL;
    }
    /* the calculator's operands (expars_alloc.c make_plan): the SM's sizes, tau in thousandths */
    const uint32_t threads = s->max_threads < s->max_warps * 32 ? s->max_threads
                                                                : s->max_warps * 32;
    if (s->registers > M(EXPARS_CTA_CALC_RW) || s->shared_bytes > M(EXPARS_CTA_CALC_SW) ||
        slots > M(EXPARS_CTA_CALC_CW) || threads > M(EXPARS_CTA_CALC_TW) ||
        1000u > M(EXPARS_CTA_CALC_QW)) {
        snprintf(err, errlen, "key 'blocks': expars_cta_calc is built for %llu registers, %llu "
                 "scratchpad bytes, %llu CTA slots, %llu threads and tau in thousandths "
                 "(configs/rtl/expars_cta_calc.ini); the SM has %u registers, %llu bytes, %u "
                 "CTA slots, %u threads", (unsigned long long)M(EXPARS_CTA_CALC_RW),
                 (unsigned long long)M(EXPARS_CTA_CALC_SW),
                 (unsigned long long)M(EXPARS_CTA_CALC_CW),
                 (unsigned long long)M(EXPARS_CTA_CALC_TW), s->registers,
                 (unsigned long long)s->shared_bytes, slots, threads);
        return NULL;
    }
    if (s->expars_oc_banks != EXPARS_ARB_Banks ||
        s->expars_fill_latency > M(EXPARS_ARB_LW)) {
        snprintf(err, errlen, "key 'blocks': expars_arb is built for %d operand-cache banks and "
                 "fill latencies up to %llu (configs/rtl/expars_arb.ini); [expars] oc_banks = "
                 "%u, fill_latency = %u", EXPARS_ARB_Banks,
                 (unsigned long long)M(EXPARS_ARB_LW), s->expars_oc_banks,
                 s->expars_fill_latency);
        return NULL;
    }
    if (s->max_warps > EXPARS_PREF_Warps || g.nlines != EXPARS_PREF_Lines ||
        g.ways != EXPARS_PREF_Ways || s->expars_fill_latency > M(EXPARS_PREF_LW) ||
        EXPARS_PREF_NR != 64 * HD_EXPARS_PREF_MAX_WORDS) {
        snprintf(err, errlen, "key 'blocks': expars_pref is built for %d warps, %d lines of %d "
                 "ways, %d-register vectors and fill latencies up to %llu "
                 "(configs/rtl/expars_pref.ini); the SM has %u warps, [expars] oc_lines = %u, "
                 "oc_ways = %u, fill_latency = %u", EXPARS_PREF_Warps, EXPARS_PREF_Lines,
                 EXPARS_PREF_Ways, EXPARS_PREF_NR, (unsigned long long)M(EXPARS_PREF_LW),
                 s->max_warps, g.nlines, g.ways, s->expars_fill_latency);
        return NULL;
    }
    struct hd_expars_loop *L = calloc(1, sizeof *L);
    if (!L || !(L->sm = calloc(p->num_sms ? p->num_sms : 1, sizeof *L->sm))) {
        free(L);
        snprintf(err, errlen, "host out of memory for the EXPARS blocks");
        return NULL;
    }
    L->nsms = p->num_sms;
    L->hw = hw;
    L->fault = p->exb.blocks_fault;
    return L;
}

void hd_expars_loop_destroy(struct hd_expars_loop *L)
{
    if (!L)
        return;
    for (uint32_t i = 0; i < L->nsms; i++) {
        hd_hw_destroy(&L->sm[i].rat);
        hd_hw_destroy(&L->sm[i].oc);
        hd_hw_destroy(&L->sm[i].calc);
        hd_hw_destroy(&L->sm[i].arb);
        hd_hw_destroy(&L->sm[i].pref);
    }
    free(L->sm);
    free(L);
}

void hd_expars_loop_bind(struct hd_expars_loop *L, uint32_t sm, struct hd_expars_sm *s)
{
    if (!L || !s || sm >= L->nsms)
        return;
    L->sm[sm].s = s;
    s->loop = L;
    s->oc.loop = L;
    s->oc.sm = sm;
}

int hd_expars_loop_cycle(struct hd_expars_loop *L, uint64_t now, char *err, size_t errlen)
{
    if (now + 1 > L->now)
        L->now = now + 1; /* the events after this cycle's end belong to the next */
    return L->failed ? fail(L, err, errlen) : 0;
}
/* }==== */

/* {==== Stepping and comparing ==== */
/* The run stops at the end of the cycle: the hook's cycle returns the message. Later events
 * are not stepped (usable() is false). */
static void stop(struct hd_expars_loop *L, uint32_t sm)
{
    (void)sm;
    L->failed = true;
}

static bool usable(const struct hd_expars_loop *L, uint32_t sm)
{
    return L && !L->failed && L->made && sm < L->nsms && L->sm[sm].rat.ops && L->sm[sm].oc.ops;
}

static int step(struct hd_expars_loop *L, uint32_t sm, struct hd_hw_inst *x, const void *in,
                void *out, const uint64_t *tag)
{
    hd_hw_set_tag(x, tag, 2);
    if (hd_hw_step(x, in, out, L->now) != 0) {
        snprintf(L->err, sizeof L->err, "%s", x->ops->error(x->impl));
        stop(L, sm);
        return -1;
    }
    return 0;
}

/* Is this comparison the one [expars] blocks_fault corrupts? */
static bool faulted(struct hd_expars_loop *L)
{
    return ++L->compared == L->fault;
}
/* }==== */

/* {==== The RAT ==== */
static void rat_write(struct hd_expars_loop *L, uint32_t sm, const struct hd_expars_rat_in *in,
                      uint32_t warp)
{
    struct hd_expars_rat_out out;
    const uint64_t tag[2] = {sm, warp};
    step(L, sm, &L->sm[sm].rat, in, &out, tag);
}

void hd_expars_loop_plan(struct hd_expars_loop *L, const struct hd_expars_sm *s)
{
    if (!usable(L, s->id))
        return;
    const struct hd_expars_rat *r = &s->rat;
    struct hd_expars_rat_in in;
    memset(&in, 0, sizeof in);
    in.cfg_v_i = 1;
    in.cfg_on_i = r->on;
    in.cfg_start_cta_i = r->start_cta;
    in.cfg_start_reg_i = r->start_reg;
    in.cfg_max_reg_i = r->max_reg;
    rat_write(L, s->id, &in, 0);
    for (uint32_t k = 0; k < EXPARS_RAT_Slots && !L->failed; k++) {
        if (!r->sbr[k])
            continue; /* (the configuration write cleared it) */
        memset(&in, 0, sizeof in);
        in.sbr_v_i = 1;
        in.sbr_idx_i = k;
        in.sbr_i = r->sbr[k];
        rat_write(L, s->id, &in, 0);
    }
}

void hd_expars_loop_slot(struct hd_expars_loop *L, const struct hd_expars_sm *s, uint32_t slot)
{
    if (!usable(L, s->id) || slot >= EXPARS_RAT_Slots)
        return;
    struct hd_expars_rat_in in;
    memset(&in, 0, sizeof in);
    in.cta_v_i = 1;
    in.cta_slot_i = slot;
    in.cta_used_i = s->slot[slot].used;
    in.cta_mix_i = s->slot[slot].mix;
    rat_write(L, s->id, &in, 0);
}

void hd_expars_loop_warp(struct hd_expars_loop *L, const struct hd_expars_sm *s, uint32_t warp)
{
    if (!usable(L, s->id) || warp >= EXPARS_RAT_Warps)
        return;
    struct hd_expars_rat_in in;
    memset(&in, 0, sizeof in);
    in.wrp_v_i = 1;
    in.wrp_warp_i = warp;
    in.wrp_cta_i = s->warp_cta[warp];
    in.wrp_local_i = s->warp_local[warp];
    rat_write(L, s->id, &in, warp);
}

bool hd_expars_loop_rat(struct hd_expars_loop *L, const struct hd_expars_sm *s, uint32_t warp,
                        uint32_t reg, bool model, uint64_t now)
{
    const uint32_t sm = s->id;
    if (!usable(L, sm) || reg > M(EXPARS_RAT_RW) || warp >= EXPARS_RAT_Warps)
        return model; /* (not a lookup the table can take: the model's judgement is false) */
    if (now > L->now)
        L->now = now;
    struct hd_expars_rat_in in;
    struct hd_expars_rat_out out;
    memset(&in, 0, sizeof in);
    in.q_v_i = 1;
    in.q_warp_i = warp;
    in.q_reg_i = reg;
    const uint64_t tag[2] = {sm, warp};
    struct sm_part *p = &L->sm[sm];
    if (step(L, sm, &p->rat, &in, &out, tag) != 0)
        return model;
    memset(&in, 0, sizeof in); /* the read-out edge: the registered answer */
    if (step(L, sm, &p->rat, &in, &out, tag) != 0)
        return model;
    /* the model's answer: the judgement, and in the scratchpad eq. 13's address */
    bool want = model;
    const uint32_t cta = s->warp_cta[warp];
    uint64_t addr = 0;
    if (model) {
        struct hd_expars_rat r = s->rat;
        r.max_reg &= (uint32_t)M(EXPARS_RAT_RW);
        addr = hd_expars_rat_addr(&r, (uint32_t)((cta - r.start_cta) & M(EXPARS_RAT_SW)),
                                  s->warp_local[warp], reg) & M(EXPARS_RAT_AW);
    }
    if (faulted(L))
        want = !want; /* test only: a wrong expectation */
    if (!(out.q_v_o & 1) || (bool)(out.q_spm_o & 1) != want || out.q_addr_o != addr ||
        out.q_cta_o != (cta & M(EXPARS_RAT_SW))) {
        snprintf(L->err, sizeof L->err,
                 "sm%u.expars_rat at cycle %" PRIu64 ": lookup of warp slot %u register %u: "
                 "q_v_o=%u q_spm_o=%u q_addr_o=%" PRIu64 " q_cta_o=%u; the model (expars_sm.h) "
                 "has in the scratchpad=%u, address %" PRIu64 ", CTA slot %u (Start_CTA %u, "
                 "Start_Reg %u, Max_Reg %u)", sm, L->now, warp, reg, (unsigned)(out.q_v_o & 1),
                 (unsigned)(out.q_spm_o & 1), (uint64_t)out.q_addr_o, (unsigned)out.q_cta_o,
                 (unsigned)want, addr, cta, s->rat.start_cta, s->rat.start_reg,
                 s->rat.max_reg);
        stop(L, sm);
        return model;
    }
    return out.q_spm_o & 1; /* the block's judgement is the one used */
}
/* }==== */

/* {==== The operand-cache tags ==== */
void hd_expars_loop_oc(struct hd_expars_loop *L, uint32_t sm, unsigned op, uint32_t warp,
                       uint32_t reg, uint32_t ver, bool dirty, struct hd_expars_oc_res *r)
{
    if (!usable(L, sm) || warp > M(EXPARS_OC_TAGS_WW) || reg > M(EXPARS_OC_TAGS_RW))
        return;
    struct hd_expars_oc_tags_in in;
    struct hd_expars_oc_tags_out out;
    memset(&in, 0, sizeof in);
    in.op_v_i = 1;
    in.op_i = op & 7u;
    in.warp_i = warp;
    in.reg_i = reg;
    in.ver_i = ver & M(EXPARS_OC_TAGS_VW);
    in.dirty_i = dirty;
    const uint64_t tag[2] = {sm, warp};
    struct sm_part *p = &L->sm[sm];
    if (step(L, sm, &p->oc, &in, &out, tag) != 0)
        return;
    memset(&in, 0, sizeof in); /* the read-out edge: the registered answer */
    if (step(L, sm, &p->oc, &in, &out, tag) != 0)
        return;
    /* the model's answer at the block's widths */
    struct hd_expars_oc_tags_out want;
    memset(&want, 0, sizeof want);
    want.res_v_o = 1;
    want.hit_o = r->hit;
    want.line_o = r->line;
    want.bank_o = r->bank;
    want.ver_o = r->ver & M(EXPARS_OC_TAGS_VW);
    want.vic_v_o = r->vic.valid;
    if (r->vic.valid) {
        want.vic_dirty_o = r->vic.dirty;
        want.vic_pinned_o = r->vic.pinned;
        want.vic_warp_o = r->vic.warp & M(EXPARS_OC_TAGS_WW);
        want.vic_reg_o = r->vic.reg & M(EXPARS_OC_TAGS_RW);
        want.vic_ver_o = r->vic.ver & M(EXPARS_OC_TAGS_VW);
    }
    want.n_o = r->n;
    if (faulted(L))
        want.hit_o ^= 1u; /* test only: a wrong expectation */
    if (memcmp(&want, &out, sizeof out) != 0) {
        snprintf(L->err, sizeof L->err,
                 "sm%u.expars_oc_tags at cycle %" PRIu64 ": %s of warp slot %u register %u: "
                 "hit_o=%u line_o=%u ver_o=%u vic_v_o=%u vic_dirty_o=%u vic_warp_o=%u "
                 "vic_reg_o=%u n_o=%u; the model's operand cache (expars_oc.c) has hit=%u line "
                 "%u version %u victim valid=%u dirty=%u warp %u register %u, %u lines",
                 sm, L->now, op_name[op & 7u], warp, reg, (unsigned)out.hit_o,
                 (unsigned)out.line_o, (unsigned)out.ver_o, (unsigned)out.vic_v_o,
                 (unsigned)out.vic_dirty_o, (unsigned)out.vic_warp_o, (unsigned)out.vic_reg_o,
                 (unsigned)out.n_o, (unsigned)want.hit_o, (unsigned)want.line_o,
                 (unsigned)want.ver_o, (unsigned)want.vic_v_o, (unsigned)want.vic_dirty_o,
                 (unsigned)want.vic_warp_o, (unsigned)want.vic_reg_o, (unsigned)want.n_o);
        stop(L, sm);
        return;
    }
    /* the block's answer is the one used (equal here; with --drive rtl the RTL's) */
    r->hit = out.hit_o & 1;
    r->line = (uint32_t)out.line_o;
    r->bank = (uint32_t)out.bank_o;
    r->ver = (uint32_t)out.ver_o;
    r->n = (uint32_t)out.n_o;
    r->vic.valid = out.vic_v_o & 1;
    r->vic.dirty = out.vic_dirty_o & 1;
    r->vic.pinned = out.vic_pinned_o & 1;
    r->vic.warp = (uint16_t)out.vic_warp_o;
    r->vic.reg = (uint16_t)out.vic_reg_o;
    r->vic.ver = (uint32_t)out.vic_ver_o;
}
/* }==== */

/* {==== The maximum-CTA calculator ==== */
int hd_expars_loop_calc(struct hd_expars_loop *L, const struct hd_expars_sm *s,
                        const struct hd_expars_in *e, int rc, struct hd_expars_plan *pl)
{
    const uint32_t sm = s->id;
    if (!usable(L, sm) || !L->sm[sm].calc.ops)
        return rc;
    if (e->R > M(EXPARS_CTA_CALC_RW) || e->S > M(EXPARS_CTA_CALC_SW) ||
        e->max_ctas > M(EXPARS_CTA_CALC_CW) || e->max_threads > M(EXPARS_CTA_CALC_TW) ||
        e->r_cta > M(EXPARS_CTA_CALC_RW) || e->s_cta > M(EXPARS_CTA_CALC_SW) ||
        e->t_cta > M(EXPARS_CTA_CALC_TW) || e->tau_num > M(EXPARS_CTA_CALC_QW) ||
        e->tau_den > M(EXPARS_CTA_CALC_QW))
        return rc; /* (a launch the block cannot take: the model's plan is the baseline) */
    struct hd_expars_cta_calc_in in;
    struct hd_expars_cta_calc_out out;
    memset(&in, 0, sizeof in);
    in.start_i = 1;
    in.regs_i = e->R;
    in.smem_i = e->S;
    in.slots_i = e->max_ctas;
    in.threads_i = e->max_threads;
    in.r_cta_i = e->r_cta;
    in.s_cta_i = e->s_cta;
    in.t_cta_i = e->t_cta;
    in.tau_num_i = e->tau_num;
    in.tau_den_i = e->tau_den;
    const uint64_t tag[2] = {sm, 0};
    struct sm_part *p = &L->sm[sm];
    if (step(L, sm, &p->calc, &in, &out, tag) != 0) /* the start edge */
        return rc;
    memset(&in, 0, sizeof in);
    /* then edges until done_o, bounded far above the longest search (expars_calc.c calc_run) */
    const uint32_t bound = (1u << (2 * EXPARS_CTA_CALC_CW)) * (HD_EXPARS_CTA_CALC_DW + 2u) +
                           8u * (HD_EXPARS_CTA_CALC_DW + 1u);
    uint32_t edges = 0;
    do {
        if (step(L, sm, &p->calc, &in, &out, tag) != 0)
            return rc;
        edges++;
    } while (!(out.done_o & 1u) && edges < bound);
    /* the model's answer (hd_expars_plan: the reference run to its answer) */
    struct hd_expars_cta_calc_out want;
    memset(&want, 0, sizeof want);
    want.done_o = 1;
    want.busy_o = out.busy_o; /* (not an answer) */
    uint32_t want_edges = rc == 0 ? pl->calc_cycles : 1;
    if (rc != 0) {
        want.err_o = 1;
    } else {
        want.on_o = pl->on;
        want.lower_o = pl->lower;
        want.upper_o = pl->upper;
        want.cta_rf_o = pl->cta_rf;
        want.cta_mix_o = pl->cta_mix;
        want.start_reg_o = pl->start_reg;
        want.max_reg_o = pl->max_reg;
        want.wpc_o = pl->wpc;
        want.region_o = pl->region_bytes;
    }
    if (faulted(L))
        want.cta_rf_o ^= 1u; /* test only: a wrong expectation */
    if (!(out.done_o & 1u) || edges != want_edges || memcmp(&want, &out, sizeof out) != 0) {
        snprintf(L->err, sizeof L->err,
                 "sm%u.expars_cta_calc at cycle %" PRIu64 ": plan of R_CTA %u, S_CTA %u, T_CTA "
                 "%u: done_o=%u after %u edges err_o=%u on_o=%u lower_o=%u upper_o=%u "
                 "cta_rf_o=%u cta_mix_o=%u start_reg_o=%u max_reg_o=%u wpc_o=%u region_o=%u; "
                 "the model (expars_calc.c) has %u edges err=%u on=%u lower %u upper %u CTA_RF "
                 "%u CTA_Mix %u Start_Reg %u Max_Reg %u Warps_Per_CTA %u region %u",
                 sm, L->now, e->r_cta, e->s_cta, e->t_cta, (unsigned)(out.done_o & 1u), edges,
                 (unsigned)out.err_o, (unsigned)out.on_o, (unsigned)out.lower_o,
                 (unsigned)out.upper_o, (unsigned)out.cta_rf_o, (unsigned)out.cta_mix_o,
                 (unsigned)out.start_reg_o, (unsigned)out.max_reg_o, (unsigned)out.wpc_o,
                 (unsigned)out.region_o, want_edges, (unsigned)want.err_o,
                 (unsigned)want.on_o, (unsigned)want.lower_o, (unsigned)want.upper_o,
                 (unsigned)want.cta_rf_o, (unsigned)want.cta_mix_o, (unsigned)want.start_reg_o,
                 (unsigned)want.max_reg_o, (unsigned)want.wpc_o, (unsigned)want.region_o);
        stop(L, sm);
        return rc;
    }
    /* the block's answer is the plan (equal here; with --drive rtl the RTL's) */
    if (out.err_o & 1u)
        return -1;
    pl->on = out.on_o & 1u;
    pl->lower = (uint32_t)out.lower_o;
    pl->upper = (uint32_t)out.upper_o;
    pl->cta_rf = (uint32_t)out.cta_rf_o;
    pl->cta_mix = (uint32_t)out.cta_mix_o;
    pl->start_reg = (uint32_t)out.start_reg_o;
    pl->max_reg = (uint32_t)out.max_reg_o;
    pl->wpc = (uint32_t)out.wpc_o;
    pl->region_bytes = (uint32_t)out.region_o;
    pl->calc_cycles = edges;
    return 0;
}
/* }==== */

/* {==== The bank arbitrator ==== */
static const char *const arb_name[4] = {"route of source", "route of destination",
                                        "scratchpad pass", "ld/st.shared booking"};

void hd_expars_loop_arb(struct hd_expars_loop *L, uint32_t sm,
                        const struct hd_expars_arb_in *req, struct hd_expars_arb_out *ans,
                        uint64_t now)
{
    if (!usable(L, sm) || !L->sm[sm].arb.ops)
        return;
    if (req->reg_i > M(EXPARS_ARB_RW) || req->degree_i > M(EXPARS_ARB_GW)) {
        snprintf(L->err, sizeof L->err,
                 "sm%u.expars_arb at cycle %" PRIu64 ": register %u or degree %u past the "
                 "block's widths (configs/rtl/expars_arb.ini RW = %d, GW = %d)", sm, now,
                 (unsigned)req->reg_i, (unsigned)req->degree_i, EXPARS_ARB_RW, EXPARS_ARB_GW);
        stop(L, sm);
        return;
    }
    if (now > L->now)
        L->now = now;
    struct hd_expars_arb_in in = *req;
    struct hd_expars_arb_out out;
    in.op_v_i = 1;
    in.now_i = now & M(EXPARS_ARB_NW);
    const uint64_t tag[2] = {sm, 0};
    struct sm_part *p = &L->sm[sm];
    if (step(L, sm, &p->arb, &in, &out, tag) != 0)
        return;
    struct hd_expars_arb_in idle;
    memset(&idle, 0, sizeof idle); /* the read-out edge: the registered answer */
    if (step(L, sm, &p->arb, &idle, &out, tag) != 0)
        return;
    struct hd_expars_arb_out want = *ans;
    want.res_v_o = 1;
    if (faulted(L))
        want.res_v_o ^= 1u; /* test only: a wrong expectation */
    if (memcmp(&want, &out, sizeof out) != 0) {
        snprintf(L->err, sizeof L->err,
                 "sm%u.expars_arb at cycle %" PRIu64 ": %s (register %u, in the scratchpad %u, "
                 "hit %u, dirty victim %u, degree %u): res_v_o=%u oc_o=%u bank_o=%u spad_o=%u "
                 "lat_o=%u grant_o=%u wait_o=%u; the model (expars_oloc.c, sm_oloc_port.c) has "
                 "%u %u %u %u %u %u %u", sm, L->now, arb_name[in.op_i & 3u],
                 (unsigned)in.reg_i, (unsigned)in.spm_i, (unsigned)in.hit_i,
                 (unsigned)in.vic_dirty_i, (unsigned)in.degree_i, (unsigned)out.res_v_o,
                 (unsigned)out.oc_o, (unsigned)out.bank_o, (unsigned)out.spad_o,
                 (unsigned)out.lat_o, (unsigned)out.grant_o, (unsigned)out.wait_o,
                 (unsigned)want.res_v_o, (unsigned)want.oc_o, (unsigned)want.bank_o,
                 (unsigned)want.spad_o, (unsigned)want.lat_o, (unsigned)want.grant_o,
                 (unsigned)want.wait_o);
        stop(L, sm);
        return;
    }
    *ans = out; /* the block's answer is the one used (equal here; with --drive rtl the RTL's) */
}
/* }==== */

/* {==== For the blocks stepped by other files (expars_loop.h) ==== */
bool hd_expars_loop_live(const struct hd_expars_loop *L)
{
    return L && L->made && !L->failed;
}

const struct hd_hw_factory *hd_expars_loop_factory(const struct hd_expars_loop *L)
{
    return L->hw && *L->hw ? *L->hw : hd_hw_ref_factory();
}

uint64_t hd_expars_loop_now(const struct hd_expars_loop *L)
{
    return L->now;
}

bool hd_expars_loop_faulted(struct hd_expars_loop *L)
{
    return faulted(L);
}

void hd_expars_loop_fail(struct hd_expars_loop *L, const char *msg)
{
    snprintf(L->err, sizeof L->err, "%s", msg);
    L->failed = true;
}
/* }==== */

/* {==== For blocks stepped from their own files ==== */
struct hd_hw_inst *hd_expars_loop_pref_inst(struct hd_expars_loop *L, uint32_t sm, uint64_t now)
{
    if (!usable(L, sm) || !L->sm[sm].pref.ops)
        return NULL;
    if (now > L->now)
        L->now = now;
    return &L->sm[sm].pref;
}

int hd_expars_loop_step(struct hd_expars_loop *L, uint32_t sm, struct hd_hw_inst *x,
                        const void *in, void *out, uint64_t tag)
{
    const uint64_t t[2] = {sm, tag};
    return step(L, sm, x, in, out, t);
}

void hd_expars_loop_mismatch(struct hd_expars_loop *L, const char *msg)
{
    snprintf(L->err, sizeof L->err, "%s", msg);
    stop(L, 0);
}
/* }==== */
