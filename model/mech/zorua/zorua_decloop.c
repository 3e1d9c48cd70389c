/* SPDX-License-Identifier: MIT
 * zorua_decloop.c - the phase-specifier decoder (zorua_phase) in the timing loop, the model's
 * decoder being the block's C reference (zorua_decloop.h; Zorua Sec. 3.6; docs/blocks/zorua.md
 * "In the loop").
 */
#include "zorua_decloop.h"

#include "hw_ref.h"
#include "zorua_phase.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct zdl_rec {
    struct hd_zorua_phase_in in;
    struct hd_zorua_phase_out out; /* what the reference's output registers held after it */
};

/* The block's configurations one build holds (configs/rtl/zorua_phase.ini, hd_rtl_params.h),
 * smallest first: an SM takes the first that holds it. */
static const struct zdl_kind_row {
    const char *kind;
    struct hd_zorua_phase_cfg cfg;
} kinds[] = {
    {"zorua_phase", HD_ZPH_CFG(ZORUA_PHASE_)},                  /* Fermi */
    {"zorua_phase:kepler", HD_ZPH_CFG(ZORUA_PHASE__KEPLER_)},   /* Kepler */
    {"zorua_phase:maxwell", HD_ZPH_CFG(ZORUA_PHASE__MAXWELL_)}, /* Maxwell */
};

struct zdl_sm {
    bool on;
    const char *kind;                /* the instance kind (zdl_kind) */
    struct hd_zorua_phase_state ref; /* the model's decoder */
    struct zdl_rec *jr;              /* the journal (a ring, oldest first) */
    uint32_t jhead, jn, jcap;
    bool joom;
    struct hd_hw_inst inst;          /* its block */
    bool pend;                       /* the last step took an entry: its outputs are due */
    struct zdl_rec due;
};

struct zdl {
    const struct hd_hw_factory *const *hw;
    uint32_t nsm;
    struct zdl_sm *s;
    uint64_t fault, taken;
    bool made;
};

struct zdl *zdl_create(uint32_t nsm, const struct hd_hw_factory *const *hw, uint64_t fault)
{
    struct zdl *L = calloc(1, sizeof *L);
    if (!L || !(L->s = calloc(nsm ? nsm : 1, sizeof *L->s))) {
        free(L);
        return NULL;
    }
    L->nsm = nsm;
    L->hw = hw;
    L->fault = fault;
    return L;
}

void zdl_destroy(struct zdl *L)
{
    if (!L)
        return;
    for (uint32_t i = 0; i < L->nsm; i++) {
        hd_hw_destroy(&L->s[i].inst);
        free(L->s[i].jr);
    }
    free(L->s);
    free(L);
}

const char *zdl_kind(uint32_t warps, uint32_t reg_sets, uint32_t smem_sets, uint32_t reg_set,
                     uint32_t smem_set, struct hd_zorua_phase_cfg *cfg)
{
    if (reg_set != 4 || smem_set != 1024)
        return NULL;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        const struct hd_zorua_phase_cfg *c = &kinds[i].cfg;
        /* (the specifier's fields hold the largest phase: reg_sets x 4 registers, smem_sets KB) */
        if (warps <= c->warps && reg_sets <= c->reg_sets && smem_sets <= c->smem_sets &&
            (uint64_t)reg_sets * reg_set < ((uint64_t)1 << c->regw) &&
            (uint64_t)smem_sets * smem_set < ((uint64_t)1 << c->smw)) {
            if (cfg)
                *cfg = *c;
            return kinds[i].kind;
        }
    }
    return NULL;
}

bool zdl_fits(uint32_t warps, uint32_t reg_sets, uint32_t smem_sets, uint32_t reg_set,
              uint32_t smem_set)
{
    return zdl_kind(warps, reg_sets, smem_sets, reg_set, smem_set, NULL) != NULL;
}

int zdl_add_sm(struct zdl *L, uint32_t sm, uint32_t warps, uint32_t reg_sets, uint32_t smem_sets,
               uint32_t reg_set, uint32_t smem_set, char *err, size_t errlen)
{
    if (sm >= L->nsm) {
        snprintf(err, errlen, "zorua: SM %u beyond the loop's %u", sm, L->nsm);
        return -1;
    }
    struct hd_zorua_phase_cfg cfg;
    const char *kind = zdl_kind(warps, reg_sets, smem_sets, reg_set, smem_set, &cfg);
    if (!kind) {
        const struct hd_zorua_phase_cfg *f = &kinds[0].cfg, *m = &kinds[2].cfg;
        snprintf(err, errlen,
                 "key 'in_loop' ([zorua]): the zorua_phase block is built for %u logical warps, "
                 "%u register sets of 4 registers and %u scratchpad sets of 1024 bytes (Fermi) "
                 "or up to %u, %u and %u (Kepler, Maxwell; configs/rtl/zorua_phase.ini), this "
                 "GPU's decoder needs %u, %u of %u and %u of %u ([sm] logical_warps, "
                 "max_regs_per_thread, smem_per_sm, [zorua] reg_set, smem_set)",
                 f->warps, f->reg_sets, f->smem_sets, m->warps, m->reg_sets, m->smem_sets, warps,
                 reg_sets, reg_set, smem_sets, smem_set);
        return -1;
    }
    struct zdl_sm *x = &L->s[sm];
    x->jcap = 64;
    if (!(x->jr = calloc(x->jcap, sizeof *x->jr))) {
        snprintf(err, errlen, "zorua: host out of memory");
        return -1;
    }
    if (hd_zorua_phase_ref_init(&x->ref, &cfg, err, (unsigned)errlen) != 0)
        return -1;
    x->kind = kind;
    x->on = true;
    return 0;
}

int zdl_make(struct zdl *L, char *err, size_t errlen)
{
    if (L->made)
        return 0;
    const struct hd_hw_factory *f = *L->hw ? *L->hw : hd_hw_ref_factory();
    for (uint32_t s = 0; s < L->nsm; s++) {
        struct zdl_sm *x = &L->s[s];
        if (!x->on)
            continue;
        char name[48];
        snprintf(name, sizeof name, "sm%u.zorua_phase", s);
        if (hd_hw_make_sized(f, x->kind, name, &x->inst, sizeof(struct hd_zorua_phase_in),
                             sizeof(struct hd_zorua_phase_out), err, errlen) != 0)
            return -1;
        x->inst.ops->reset(x->inst.impl);
    }
    L->made = true;
    return 0;
}

/* One edge of the model's decoder with *in, journalled for the block. */
static void edge(struct zdl_sm *x, const struct hd_zorua_phase_in *in)
{
    struct hd_zorua_phase_out out;
    hd_zorua_phase_ref_step(&x->ref, in, &out);
    if (x->jn == x->jcap) { /* grow the ring, oldest first */
        struct zdl_rec *n = calloc((size_t)x->jcap * 2, sizeof *n);
        if (!n) { /* zdl_cycle stops the run */
            x->joom = true;
            return;
        }
        for (uint32_t i = 0; i < x->jn; i++)
            n[i] = x->jr[(x->jhead + i) % x->jcap];
        free(x->jr);
        x->jr = n;
        x->jhead = 0;
        x->jcap *= 2;
    }
    struct zdl_rec *r = &x->jr[(x->jhead + x->jn++) % x->jcap];
    r->in = *in;
    r->out = x->ref.q;
}

static struct zdl_sm *sm_of(struct zdl *L, uint32_t sm)
{
    return L && sm < L->nsm && L->s[sm].on ? &L->s[sm] : NULL;
}

void zdl_arrive(struct zdl *L, uint32_t sm, const uint32_t mask[ZDL_MWORDS], uint32_t rsets,
                uint32_t ssets)
{
    struct zdl_sm *x = sm_of(L, sm);
    if (!x)
        return;
    struct hd_zorua_phase_in in = {0};
    in.init_v_i = 1;
    memcpy(in.init_mask_i, mask, sizeof in.init_mask_i);
    in.init_rsets_i = rsets;
    in.init_ssets_i = ssets;
    edge(x, &in);
}

bool zdl_phase(struct zdl *L, uint32_t sm, uint32_t w, uint32_t regs, uint32_t smem,
               uint32_t *rsets, uint32_t *ssets)
{
    struct zdl_sm *x = sm_of(L, sm);
    if (!x)
        return false;
    struct hd_zorua_phase_in in = {0};
    in.v_i = 1;
    in.cls_i = HD_ZPH_PHASE;
    in.warp_i = w;
    in.regs_i = regs;
    in.smem_i = smem;
    edge(x, &in);
    if (!x->ref.q.ev_v_o || x->ref.q.ev_kind_o != 0 || x->ref.q.ev_warp_o != w)
        return false;
    *rsets = (uint32_t)x->ref.q.ev_rsets_o;
    *ssets = (uint32_t)x->ref.q.ev_ssets_o;
    return true;
}

void zdl_exit(struct zdl *L, uint32_t sm, uint32_t w)
{
    struct zdl_sm *x = sm_of(L, sm);
    if (!x)
        return;
    struct hd_zorua_phase_in in = {0};
    in.v_i = 1;
    in.cls_i = HD_ZPH_EXIT;
    in.warp_i = w;
    edge(x, &in);
}

/* The first output port where out differs from want (-1: none). */
static int differ(const struct hd_block_desc *b, const void *out, const void *want)
{
    for (unsigned i = 0; i < b->nports; i++) {
        const struct hd_port_desc *p = &b->ports[i];
        if (p->dir != HD_DIR_OUT || p->wide)
            continue;
        uint64_t x, y;
        memcpy(&x, (const char *)out + p->offset, sizeof x);
        memcpy(&y, (const char *)want + p->offset, sizeof y);
        if (x != y)
            return (int)i;
    }
    return -1;
}

static const char *what(const struct zdl_rec *r, char *buf, size_t len)
{
    if (r->in.init_v_i) {
        char m[40]; /* the mask in hex, its highest non-zero word first */
        unsigned hi = HD_ZPH_MWORDS - 1, n = 0;
        while (hi > 0 && !r->in.init_mask_i[hi])
            hi--;
        n += (unsigned)snprintf(m, sizeof m, "%" PRIx32, r->in.init_mask_i[hi]);
        while (hi-- > 0 && n < sizeof m)
            n += (unsigned)snprintf(m + n, sizeof m - n, "%08" PRIx32, r->in.init_mask_i[hi]);
        snprintf(buf, len, "arrival of warps 0x%s (%" PRIu64 " register sets, %" PRIu64
                 " scratchpad sets)", m, r->in.init_rsets_i, r->in.init_ssets_i);
    } else if (r->in.cls_i == HD_ZPH_PHASE)
        snprintf(buf, len, "phase specifier of warp %" PRIu64 " (%" PRIu64 " registers, %" PRIu64
                 " bytes)", r->in.warp_i, r->in.regs_i, r->in.smem_i);
    else
        snprintf(buf, len, "exit of warp %" PRIu64, r->in.warp_i);
    return buf;
}

int zdl_cycle(struct zdl *L, uint64_t now, bool *busy, char *err, size_t errlen)
{
    *busy = false;
    for (uint32_t s = 0; s < L->nsm; s++) {
        struct zdl_sm *x = &L->s[s];
        if (!x->on)
            continue;
        if (x->joom) {
            snprintf(err, errlen, "zorua: SM %u: host out of memory recording the decoder's inputs",
                     s);
            return -1;
        }
        const struct zdl_rec *r = x->jn ? &x->jr[x->jhead] : NULL;
        static const struct hd_zorua_phase_in none; /* (immutable) */
        const struct hd_zorua_phase_in *in = r ? &r->in : &none;
        if (!x->pend && !r && hd_hw_idle(&x->inst, in))
            continue;
        struct hd_zorua_phase_out out, want;
        if (hd_hw_step(&x->inst, in, &out, now) != 0) {
            snprintf(err, errlen, "zorua: cycle %" PRIu64 ", SM %u: %s", now, s,
                     x->inst.ops->error(x->inst.impl));
            return -1;
        }
        if (x->pend)
            want = x->due.out;
        else
            memset(&want, 0, sizeof want);
        const int d = differ(x->inst.b, &out, &want);
        if (d >= 0) {
            const struct hd_port_desc *p = &x->inst.b->ports[d];
            uint64_t got, exp;
            memcpy(&got, (const char *)&out + p->offset, sizeof got);
            memcpy(&exp, (const char *)&want + p->offset, sizeof exp);
            char buf[160];
            snprintf(err, errlen,
                     "zorua: MISMATCH at cycle %" PRIu64 ", SM %u, block %s "
                     "(sm%u.zorua_phase, the phase-specifier decoder), port %s = %" PRIu64
                     " (0x%" PRIx64 "), the model's decoder gave %" PRIu64 " (0x%" PRIx64
                     ") for the %s",
                     now, s, x->kind, s, p->name, got, got, exp, exp,
                     x->pend ? what(&x->due, buf, sizeof buf) : "cycle without an entry");
            return -1;
        }
        x->pend = r != NULL;
        if (r) {
            x->due = *r;
            if (L->fault && ++L->taken == L->fault) /* (a test of the check) */
                x->due.out.ev_rsets_o ^= 1u;
            x->jhead = (x->jhead + 1) % x->jcap;
            x->jn--;
        }
        *busy |= x->pend || x->jn != 0;
    }
    return 0;
}
