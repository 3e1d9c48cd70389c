/* SPDX-License-Identifier: MIT
 * zorua_maploop.c - the register mapping tables as zorua_map blocks in the timing loop
 * (zorua_maploop.h; Zorua Sec. 4.2-4.3; docs/blocks/zorua.md "In the loop").
 */
#include "zorua_maploop.h"

#include "hw_ref.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct zml_sm {
    struct zmt *rmt;                 /* the model's table (NULL: this SM is not in the loop) */
    struct hd_hw_inst inst;          /* its block */
    bool pend;                       /* the last step took an entry: its outputs are due */
    struct zmt_rec due;              /* ... that entry (expected outputs in due.out) */
};

struct zml {
    const struct hd_hw_factory *const *hw;
    uint32_t nsm;
    struct zml_sm *sm;
    uint64_t fault, taken;
    bool made;
};

struct zml *zml_create(uint32_t nsm, const struct hd_hw_factory *const *hw, uint64_t fault)
{
    struct zml *L = calloc(1, sizeof *L);
    if (!L || !(L->sm = calloc(nsm ? nsm : 1, sizeof *L->sm))) {
        free(L);
        return NULL;
    }
    L->nsm = nsm;
    L->hw = hw;
    L->fault = fault;
    return L;
}

void zml_destroy(struct zml *L)
{
    if (!L)
        return;
    for (uint32_t s = 0; s < L->nsm; s++)
        hd_hw_destroy(&L->sm[s].inst);
    free(L->sm);
    free(L);
}

int zml_add_sm(struct zml *L, uint32_t sm, struct zmt *rmt, char *err, size_t errlen)
{
    const struct hd_zorua_map_cfg *c = &rmt->m->cfg;
    if (sm >= L->nsm) {
        snprintf(err, errlen, "zorua: SM %u beyond the loop's %u", sm, L->nsm);
        return -1;
    }
    if (c->rows != ZORUA_MAP_Rows || c->sets != ZORUA_MAP_Sets || c->phys != ZORUA_MAP_PhysN ||
        c->row_w != ZORUA_MAP_RowW || c->set_w != ZORUA_MAP_SetW || c->pw != ZORUA_MAP_PW ||
        c->cnt_w != ZORUA_MAP_CntW) {
        snprintf(err, errlen,
                 "key 'in_loop' ([zorua]): the zorua_map block is built for %u logical warps x %u "
                 "register sets over %u physical sets (configs/rtl/zorua_map.ini, "
                 "HD_RTL_CONFIG_zorua_map), this GPU's register mapping table is %u x %u over %u "
                 "([sm] logical_warps, max_regs_per_thread / [zorua] reg_set, registers / "
                 "(reg_set x 32))",
                 (unsigned)ZORUA_MAP_Rows, (unsigned)ZORUA_MAP_Sets, (unsigned)ZORUA_MAP_PhysN,
                 c->rows, c->sets, c->phys);
        return -1;
    }
    if (zmt_journal_on(rmt) != 0) {
        snprintf(err, errlen, "zorua: host out of memory");
        return -1;
    }
    L->sm[sm].rmt = rmt;
    return 0;
}

int zml_make(struct zml *L, char *err, size_t errlen)
{
    if (L->made)
        return 0;
    const struct hd_hw_factory *f = *L->hw ? *L->hw : hd_hw_ref_factory();
    for (uint32_t s = 0; s < L->nsm; s++) {
        if (!L->sm[s].rmt)
            continue;
        char name[48];
        snprintf(name, sizeof name, "sm%u.zorua_map", s);
        if (hd_hw_make(f, "zorua_map", name, &L->sm[s].inst, err, errlen) != 0)
            return -1;
        L->sm[s].inst.ops->reset(L->sm[s].inst.impl);
        const uint64_t tag[2] = {s, 0}; /* (sm, table 0 = RMT) */
        hd_hw_set_tag(&L->sm[s].inst, tag, 2);
    }
    L->made = true;
    return 0;
}

/* The first output port where out differs from want (-1: none). */
static int differ(const struct hd_block_desc *b, const struct hd_zorua_map_out *out,
                  const struct hd_zorua_map_out *want)
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

static const char *what(const struct zmt_rec *r, char *buf, size_t len)
{
    static const char *const ops[] = {"", "allocate", "release", "swap out", "swap in"};
    if (r->in.op_i == HD_ZMAP_ALLOC || r->in.op_i == HD_ZMAP_SPILL)
        snprintf(buf, len, "%s of warp %" PRIu64 " set %" PRIu64 " (swap limit %" PRIu64 ")",
                 ops[r->in.op_i], r->in.row_i, r->in.set_i, r->in.lim_i);
    else if (r->in.op_i == HD_ZMAP_RELEASE || r->in.op_i == HD_ZMAP_FILL)
        snprintf(buf, len, "%s of warp %" PRIu64 " set %" PRIu64, ops[r->in.op_i], r->in.row_i,
                 r->in.set_i);
    else if (r->in.lk_v_i)
        snprintf(buf, len, "lookup of warp %" PRIu64 " set %" PRIu64, r->in.lk_row_i,
                 r->in.lk_set_i);
    else
        snprintf(buf, len, "no entry");
    return buf;
}

int zml_cycle(struct zml *L, uint64_t now, bool *busy, char *err, size_t errlen)
{
    *busy = false;
    for (uint32_t s = 0; s < L->nsm; s++) {
        struct zml_sm *x = &L->sm[s];
        if (!x->rmt)
            continue;
        if (x->rmt->joom) {
            snprintf(err, errlen, "zorua: SM %u: host out of memory recording the RMT's updates",
                     s);
            return -1;
        }
        const struct zmt_rec *r = zmt_journal_peek(x->rmt);
        static const struct hd_zorua_map_in none; /* (immutable) */
        const struct hd_zorua_map_in *in = r ? &r->in : &none;
        if (!x->pend && !r && hd_hw_idle(&x->inst, in))
            continue;
        struct hd_zorua_map_out out;
        if (hd_hw_step(&x->inst, in, &out, now) != 0) {
            snprintf(err, errlen, "zorua: cycle %" PRIu64 ", SM %u: %s", now, s,
                     x->inst.ops->error(x->inst.impl));
            return -1;
        }
        struct hd_zorua_map_out want;
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
            char buf[96];
            snprintf(err, errlen,
                     "zorua: MISMATCH at cycle %" PRIu64 ", SM %u, block zorua_map (sm%u.zorua_map, "
                     "the register mapping table), port %s = %" PRIu64 " (0x%" PRIx64 "), the "
                     "model's table gave %" PRIu64 " (0x%" PRIx64 ") for the %s",
                     now, s, s, p->name, got, got, exp, exp,
                     x->pend ? what(&x->due, buf, sizeof buf) : "cycle without an entry");
            return -1;
        }
        x->pend = r != NULL;
        if (r) {
            x->due = *r;
            if (L->fault && ++L->taken == L->fault)
                x->due.out.free_o ^= 1u; /* [zorua] loop_fault: a wrong expectation */
            zmt_journal_pop(x->rmt);
        }
        *busy |= x->pend || zmt_journal_peek(x->rmt) != NULL;
    }
    return 0;
}
