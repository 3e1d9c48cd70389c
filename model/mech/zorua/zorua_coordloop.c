/* SPDX-License-Identifier: MIT
 * zorua_coordloop.c - the coordinator block (zorua_coord) in the timing loop, deciding o_thresh
 * (zorua_coordloop.h; Zorua Sec. 3.5, Algorithm 1; docs/blocks/zorua.md "In the loop").
 */
#include "zorua_coordloop.h"

#include "hw_ref.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct zcl_sm {
    bool on;
    const char *kind; /* the instance kind (zcl_kind) */
    struct hd_hw_inst inst;
};

/* The block's configurations one build holds (configs/rtl/zorua_coord.ini, hd_rtl_params.h). */
static const struct zcl_kind_row {
    const char *kind;
    struct hd_zorua_coord_cfg cfg;
} kinds[] = {
    {"zorua_coord", HD_ZCO_CFG(ZORUA_COORD_)},                   /* Fermi */
    {"zorua_coord:kepler", HD_ZCO_CFG(ZORUA_COORD__KEPLER_)},    /* Kepler */
    {"zorua_coord:maxwell", HD_ZCO_CFG(ZORUA_COORD__MAXWELL_)},  /* Maxwell */
};

struct zcl {
    const struct hd_hw_factory *const *hw;
    uint32_t nsm;
    struct zcl_sm *s;
    bool made;
};

struct zcl *zcl_create(uint32_t nsm, const struct hd_hw_factory *const *hw)
{
    struct zcl *L = calloc(1, sizeof *L);
    if (!L || !(L->s = calloc(nsm ? nsm : 1, sizeof *L->s))) {
        free(L);
        return NULL;
    }
    L->nsm = nsm;
    L->hw = hw;
    return L;
}

void zcl_destroy(struct zcl *L)
{
    if (!L)
        return;
    for (uint32_t i = 0; i < L->nsm; i++)
        hd_hw_destroy(&L->s[i].inst);
    free(L->s);
    free(L);
}

const char *zcl_kind(uint32_t warps, uint32_t ctas, uint32_t reg_units, uint32_t smem_units,
                     uint32_t slots, uint32_t reg_sets, uint32_t smem_sets, uint32_t floor,
                     struct hd_zorua_coord_cfg *cfg)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        const struct hd_zorua_coord_cfg *c = &kinds[i].cfg;
        if (warps == c->warps && ctas == c->blocks && reg_units == c->phys_reg &&
            smem_units == c->phys_smem && slots == c->phys_slot && reg_sets <= c->reg_sets &&
            smem_sets <= c->smem_sets && floor == c->floor) {
            if (cfg)
                *cfg = *c;
            return kinds[i].kind;
        }
    }
    return NULL;
}

bool zcl_fits(uint32_t reg_units, uint32_t smem_units, uint32_t slots)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (reg_units == kinds[i].cfg.phys_reg && smem_units == kinds[i].cfg.phys_smem &&
            slots == kinds[i].cfg.phys_slot)
            return true;
    return false;
}

bool zcl_keys(double o_default, double step, double max, uint32_t delta, uint32_t epoch)
{
    return o_default == ZORUA_COORD_PctInit && step == ZORUA_COORD_PctStep &&
           max == ZORUA_COORD_PctMax && delta == ZORUA_COORD_DeltaTh && epoch == ZORUA_COORD_Epoch;
}

int zcl_add_sm(struct zcl *L, uint32_t sm, const char *kind, double o_default, double step,
               double max, uint32_t delta, uint32_t epoch, char *err, size_t errlen)
{
    if (sm >= L->nsm) {
        snprintf(err, errlen, "zorua: SM %u beyond the loop's %u", sm, L->nsm);
        return -1;
    }
    if (!zcl_keys(o_default, step, max, delta, epoch)) {
        snprintf(err, errlen,
                 "key 'in_loop' ([zorua]): the zorua_coord block's o_thresh controller is built "
                 "for o_default_pct = %u, o_step_pct = %u, o_max_pct = %u, c_delta_thresh = %u, "
                 "epoch = %u (configs/rtl/zorua_coord.ini), this run has %g, %g, %g, %u, %u",
                 (unsigned)ZORUA_COORD_PctInit, (unsigned)ZORUA_COORD_PctStep,
                 (unsigned)ZORUA_COORD_PctMax, (unsigned)ZORUA_COORD_DeltaTh,
                 (unsigned)ZORUA_COORD_Epoch, o_default, step, max, delta, epoch);
        return -1;
    }
    L->s[sm].on = true;
    L->s[sm].kind = kind;
    return 0;
}

int zcl_make(struct zcl *L, char *err, size_t errlen)
{
    if (L->made)
        return 0;
    const struct hd_hw_factory *f = *L->hw ? *L->hw : hd_hw_ref_factory();
    for (uint32_t s = 0; s < L->nsm; s++) {
        struct zcl_sm *x = &L->s[s];
        if (!x->on)
            continue;
        char name[48];
        snprintf(name, sizeof name, "sm%u.zorua_coord", s);
        if (hd_hw_make_sized(f, x->kind, name, &x->inst, sizeof(struct hd_zorua_coord_in),
                             sizeof(struct hd_zorua_coord_out), err, errlen) != 0)
            return -1;
        x->inst.ops->reset(x->inst.impl);
    }
    L->made = true;
    return 0;
}

int zcl_step(struct zcl *L, uint32_t sm, uint64_t now, const struct hd_zorua_coord_in *in,
             const struct hd_zorua_coord_out *want, struct hd_zorua_coord_out *got, char *err,
             size_t errlen)
{
    *got = *want;
    if (!L || sm >= L->nsm || !L->s[sm].on || !L->made)
        return 0;
    struct zcl_sm *x = &L->s[sm];
    struct hd_zorua_coord_out out;
    if (hd_hw_step(&x->inst, in, &out, now) != 0) {
        snprintf(err, errlen, "zorua: cycle %" PRIu64 ", SM %u: %s", now, sm,
                 x->inst.ops->error(x->inst.impl));
        return -1;
    }
    const struct hd_block_desc *b = x->inst.b;
    for (unsigned i = 0; i < b->nports; i++) {
        const struct hd_port_desc *p = &b->ports[i];
        if (p->dir != HD_DIR_OUT || hd_port_equal(p, &out, want))
            continue;
        char g[64], e[64]; /* (decimal and hex; the warp masks, 64 or 96 bits: hex) */
        if (p->wide) {
            hd_port_format(p, &out, g, sizeof g);
            hd_port_format(p, want, e, sizeof e);
        } else {
            uint64_t gv, ev;
            memcpy(&gv, (const char *)&out + p->offset, sizeof gv);
            memcpy(&ev, (const char *)want + p->offset, sizeof ev);
            snprintf(g, sizeof g, "%" PRIu64 " (0x%" PRIx64 ")", gv, gv);
            snprintf(e, sizeof e, "%" PRIu64 " (0x%" PRIx64 ")", ev, ev);
        }
        snprintf(err, errlen,
                 "zorua: MISMATCH at cycle %" PRIu64 ", SM %u, block %s (sm%u.zorua_coord, the "
                 "coordinator), port %s = %s, the model's coordinator gave %s%s",
                 now, sm, x->kind, sm, p->name, g, e, want->ep_v_o ? " at an epoch's end" : "");
        return -1;
    }
    *got = out;
    return 0;
}
