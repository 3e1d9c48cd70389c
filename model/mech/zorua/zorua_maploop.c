/* SPDX-License-Identifier: MIT
 * zorua_maploop.c - the mapping tables (RMT, SMT, TMT) as zorua_map blocks in the timing loop
 * (zorua_maploop.h; Zorua Sec. 4.2-4.3; docs/blocks/zorua.md "In the loop").
 */
#include "zorua_maploop.h"

#include "hw_ref.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The three tables of an SM in the loop (roles: 0 RMT, 1 SMT, 2 TMT): per role its instance
 * name's suffix, what it is, what its rows are; per instance kind (a configuration of
 * configs/rtl/zorua_map.ini built for the loop) its role and the sizes a table must have to be
 * stepped as it. A table is stepped as the first kind of its role with its sizes. */
enum { ZML_NTAB = 3 };
static const struct zml_role {
    const char *suffix, *what, *row;
} roles[ZML_NTAB] = {
    {"zorua_map", "the register mapping table", "warp"},
    {"zorua_map_smt", "the scratchpad mapping table", "CTA"},
    {"zorua_map_tmt", "the thread-slot mapping table", "warp"},
};
#define ZML_CFG(P)                                                                                \
    {P##Rows, P##RowW, P##Sets, P##SetW, P##PhysN, P##PW, P##CntW}
static const struct zml_kind {
    const char *block;
    unsigned role;
    struct hd_zorua_map_cfg cfg;
} kinds[] = {
    {"zorua_map", 0, ZML_CFG(ZORUA_MAP_)},                      /* Fermi */
    {"zorua_map:kepler", 0, ZML_CFG(ZORUA_MAP__KEPLER_)},       /* Kepler, Maxwell */
    {"zorua_map:smt", 1, ZML_CFG(ZORUA_MAP__SMT_)},             /* Fermi, Kepler */
    {"zorua_map:maxwell_smt", 1, ZML_CFG(ZORUA_MAP__MAXWELL_SMT_)},
    {"zorua_map:tmt", 2, ZML_CFG(ZORUA_MAP__TMT_)},             /* Fermi */
    {"zorua_map:kepler_tmt", 2, ZML_CFG(ZORUA_MAP__KEPLER_TMT_)}, /* Kepler, Maxwell */
};
enum { ZML_NKIND = sizeof kinds / sizeof kinds[0] };

struct zml_tab {
    struct zmt *t;                   /* the model's table (NULL: not in the loop) */
    const struct zml_kind *kd;       /* the block's kind it is stepped as */
    struct hd_hw_inst inst;          /* its block */
    bool pend;                       /* the last step took an entry: its outputs are due */
    struct zmt_rec due;              /* ... that entry (expected outputs in due.out) */
};

struct zml {
    const struct hd_hw_factory *const *hw;
    uint32_t nsm;
    struct zml_tab *tab;             /* [nsm][ZML_NTAB] */
    uint64_t fault, taken;
    bool made;
};

struct zml *zml_create(uint32_t nsm, const struct hd_hw_factory *const *hw, uint64_t fault)
{
    struct zml *L = calloc(1, sizeof *L);
    if (!L || !(L->tab = calloc((size_t)(nsm ? nsm : 1) * ZML_NTAB, sizeof *L->tab))) {
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
    for (uint32_t i = 0; i < L->nsm * ZML_NTAB; i++)
        hd_hw_destroy(&L->tab[i].inst);
    free(L->tab);
    free(L);
}

static bool same_cfg(const struct hd_zorua_map_cfg *c, const struct hd_zorua_map_cfg *b)
{
    return c->rows == b->rows && c->sets == b->sets && c->phys == b->phys &&
           c->row_w == b->row_w && c->set_w == b->set_w && c->pw == b->pw &&
           c->cnt_w == b->cnt_w;
}

static int add_table(struct zml *L, uint32_t sm, unsigned k, struct zmt *t, char *err,
                     size_t errlen)
{
    const struct hd_zorua_map_cfg *c = &t->m->cfg;
    const struct zml_kind *kd = NULL;
    for (unsigned i = 0; i < ZML_NKIND && !kd; i++)
        if (kinds[i].role == k && same_cfg(c, &kinds[i].cfg))
            kd = &kinds[i];
    if (!kd) {
        static const char *const cols[ZML_NTAB] = {"register sets", "scratchpad sets", "slot"};
        static const char *const units[ZML_NTAB] = {"sets", "sets", "warp slots"};
        static const char *const keys[ZML_NTAB] = {
            "[sm] logical_warps, max_regs_per_thread / [zorua] reg_set, registers / (reg_set x 32)",
            "[sm] logical_ctas, smem_per_sm / [zorua] smem_set",
            "[sm] logical_warps, max_warps"};
        char built[256] = "";
        for (unsigned i = 0; i < ZML_NKIND; i++) {
            const struct hd_zorua_map_cfg *b = &kinds[i].cfg;
            if (kinds[i].role != k)
                continue;
            const size_t n = strlen(built);
            snprintf(built + n, sizeof built - n, "%s%u logical %ss x %u %s over %u physical %s",
                     n ? " or " : "", b->rows, roles[k].row, b->sets, cols[k], b->phys, units[k]);
        }
        snprintf(err, errlen,
                 "key 'in_loop' ([zorua]): the zorua_map block is built for %s "
                 "(configs/rtl/zorua_map.ini [block] loop_configs), this GPU's %s is %u x %u over "
                 "%u (%s)",
                 built, roles[k].what + 4, c->rows, c->sets, c->phys, keys[k]);
        return -1;
    }
    if (zmt_journal_on(t) != 0) {
        snprintf(err, errlen, "zorua: host out of memory");
        return -1;
    }
    L->tab[(size_t)sm * ZML_NTAB + k].t = t;
    L->tab[(size_t)sm * ZML_NTAB + k].kd = kd;
    return 0;
}

int zml_add_sm(struct zml *L, uint32_t sm, struct zmt *rmt, struct zmt *smt, struct zmt *tmt,
               char *err, size_t errlen)
{
    if (sm >= L->nsm) {
        snprintf(err, errlen, "zorua: SM %u beyond the loop's %u", sm, L->nsm);
        return -1;
    }
    struct zmt *const t[ZML_NTAB] = {rmt, smt, tmt};
    for (unsigned k = 0; k < ZML_NTAB; k++)
        if (add_table(L, sm, k, t[k], err, errlen) != 0)
            return -1;
    return 0;
}

int zml_make(struct zml *L, char *err, size_t errlen)
{
    if (L->made)
        return 0;
    const struct hd_hw_factory *f = *L->hw ? *L->hw : hd_hw_ref_factory();
    for (uint32_t s = 0; s < L->nsm; s++)
        for (unsigned k = 0; k < ZML_NTAB; k++) {
            struct zml_tab *x = &L->tab[(size_t)s * ZML_NTAB + k];
            if (!x->t)
                continue;
            char name[48];
            snprintf(name, sizeof name, "sm%u.%s", s, roles[k].suffix);
            if (hd_hw_make(f, x->kd->block, name, &x->inst, err, errlen) != 0)
                return -1;
            x->inst.ops->reset(x->inst.impl);
            const uint64_t tag[2] = {s, k}; /* (sm, table: 0 RMT, 1 SMT, 2 TMT) */
            hd_hw_set_tag(&x->inst, tag, 2);
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

static const char *what(const struct zmt_rec *r, const char *row, char *buf, size_t len)
{
    static const char *const ops[] = {"", "allocate", "release", "swap out", "swap in"};
    if (r->in.op_i == HD_ZMAP_ALLOC || r->in.op_i == HD_ZMAP_SPILL)
        snprintf(buf, len, "%s of %s %" PRIu64 " set %" PRIu64 " (swap limit %" PRIu64 ")",
                 ops[r->in.op_i], row, r->in.row_i, r->in.set_i, r->in.lim_i);
    else if (r->in.op_i == HD_ZMAP_RELEASE || r->in.op_i == HD_ZMAP_FILL)
        snprintf(buf, len, "%s of %s %" PRIu64 " set %" PRIu64, ops[r->in.op_i], row,
                 r->in.row_i, r->in.set_i);
    else if (r->in.lk_v_i)
        snprintf(buf, len, "lookup of %s %" PRIu64 " set %" PRIu64, row, r->in.lk_row_i,
                 r->in.lk_set_i);
    else
        snprintf(buf, len, "no entry");
    return buf;
}

int zml_cycle(struct zml *L, uint64_t now, bool *busy, char *err, size_t errlen)
{
    *busy = false;
    for (uint32_t i = 0; i < L->nsm * ZML_NTAB; i++) {
        struct zml_tab *x = &L->tab[i];
        const uint32_t s = i / ZML_NTAB;
        const struct zml_role *kd = &roles[i % ZML_NTAB];
        if (!x->t)
            continue;
        if (x->t->joom) {
            snprintf(err, errlen, "zorua: SM %u: host out of memory recording %s's updates", s,
                     kd->what);
            return -1;
        }
        const struct zmt_rec *r = zmt_journal_peek(x->t);
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
                     "zorua: MISMATCH at cycle %" PRIu64 ", SM %u, block %s (sm%u.%s, %s), port "
                     "%s = %" PRIu64 " (0x%" PRIx64 "), the model's table gave %" PRIu64
                     " (0x%" PRIx64 ") for the %s",
                     now, s, x->kd->block, s, kd->suffix, kd->what, p->name, got, got, exp, exp,
                     x->pend ? what(&x->due, kd->row, buf, sizeof buf) : "cycle without an entry");
            return -1;
        }
        x->pend = r != NULL;
        if (r) {
            x->due = *r;
            /* [zorua] loop_fault: a wrong expectation for the Nth step of a register table */
            if (L->fault && kd == &roles[0] && ++L->taken == L->fault)
                x->due.out.free_o ^= 1u;
            zmt_journal_pop(x->t);
        }
        *busy |= x->pend || zmt_journal_peek(x->t) != NULL;
    }
    return 0;
}
