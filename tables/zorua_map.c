/* SPDX-License-Identifier: MIT
 * zorua_map.c - Zorua's mapping table's C reference (zorua_map.h).
 *
 * Design: the entries, the free list and the two counters mirror the RTL's flops one for one;
 * an edge applies the update, then takes the lookup (which sees the update), as the ports.def
 * says.
 */
#include "zorua_map.h"

#include <stdio.h>
#include <string.h>

#define HD_PORTS_DEF "zorua_map_ports.def"
#define HD_PORTS_IN_T struct hd_zorua_map_in
#define HD_PORTS_OUT_T struct hd_zorua_map_out
#define HD_PORTS_BLOCK_VAR hd_zorua_map_block
#include "hd_ports_table.h"

const struct hd_zorua_map_cfg hd_zorua_map_rmt = {64, 6, 16, 4, 256, 8, 11};
const struct hd_zorua_map_cfg hd_zorua_map_smt = {16, 4, 48, 6, 48, 6, 10};
const struct hd_zorua_map_cfg hd_zorua_map_tmt = {64, 6, 1, 1, 48, 6, 7};

static uint64_t mask(unsigned w) /* w <= 31 (hd_zorua_map_ref_init) */
{
    return ((uint64_t)1 << w) - 1u;
}

int hd_zorua_map_ref_init(struct hd_zorua_map_state *s, const struct hd_zorua_map_cfg *c,
                          char *err, unsigned errlen)
{
    const char *why = NULL;
    if (c->row_w < 1 || c->row_w > 16 || c->set_w < 1 || c->set_w > 16 || c->pw < 1 ||
        c->pw > 15 || c->cnt_w > 31)
        why = "a width is out of range (row_w, set_w 1..16, pw 1..15, cnt_w 2..31)";
    else if (c->rows < 1 || c->rows > (1u << c->row_w) || c->sets < 1 ||
             c->sets > (1u << c->set_w))
        why = "rows must be 1..2^row_w and sets 1..2^set_w";
    else if (c->phys < 2 || c->phys > (1u << c->pw) || c->phys > HD_ZMAP_PHYS_MAX)
        why = "phys must be 2..2^pw and at most 512";
    else if (c->rows * c->sets > HD_ZMAP_ENTRIES_MAX)
        why = "rows x sets must be at most 2048";
    else if ((uint64_t)c->rows * c->sets >> c->cnt_w || (uint64_t)c->phys >> c->cnt_w)
        why = "the counters (cnt_w bits) must hold rows x sets and phys";
    if (why) {
        if (err && errlen)
            snprintf(err, errlen, "zorua_map: %u x %u entries, %u units: %s", c->rows, c->sets,
                     c->phys, why);
        return -1;
    }
    memset(s, 0, sizeof *s);
    s->cfg = *c;
    for (unsigned u = 0; u < c->phys; u++)
        s->free_unit[u] = true;
    s->nfree = c->phys;
    hd_block_reset_values(&hd_zorua_map_block, HD_DIR_OUT, &s->q);
    return 0;
}

void hd_zorua_map_ref_reset(struct hd_zorua_map_state *s)
{
    HD_ZORUA_MAP_REF_RESET_CFG(s); /* fits: the _Static_assert checks it */
}

/* The lowest free unit (s->nfree > 0). */
static unsigned lowest_free(const struct hd_zorua_map_state *s)
{
    for (unsigned u = 0; u < s->cfg.phys; u++)
        if (s->free_unit[u])
            return u;
    return 0;
}

/* The update of one edge; sets the result registers (a refused one changes nothing). */
static void update(struct hd_zorua_map_state *s, const struct hd_zorua_map_in *in)
{
    const struct hd_zorua_map_cfg *c = &s->cfg;
    unsigned op = (unsigned)(in->op_i & 7u);
    if (op == HD_ZMAP_NONE)
        return;
    s->q.up_v_o = 1;
    s->q.up_op_o = op;
    uint64_t row = in->row_i & mask(c->row_w), set = in->set_i & mask(c->set_w);
    if (row >= c->rows || set >= c->sets)
        return;
    unsigned i = (unsigned)(row * c->sets + set);
    const uint16_t valid = (uint16_t)(1u << c->pw);
    uint16_t e = s->e[i];
    bool on = (e & valid) != 0, swapped = !on && (e & 1u), alloc = on || swapped;
    unsigned pset = e & (valid - 1u);
    bool room = s->nswap < (in->lim_i & mask(c->cnt_w));
    switch (op) {
    case HD_ZMAP_ALLOC:
        if (alloc)
            return;
        if (s->nfree > 0) {
            unsigned u = lowest_free(s);
            s->e[i] = (uint16_t)(valid | u);
            s->free_unit[u] = false;
            s->nfree--;
            s->q.up_unit_o = 1;
            s->q.up_pset_o = u;
        } else if (room) {
            s->e[i] = 1;
            s->nswap++;
        } else
            return;
        break;
    case HD_ZMAP_RELEASE:
        if (on) {
            s->free_unit[pset] = true;
            s->nfree++;
            s->q.up_unit_o = 1;
            s->q.up_pset_o = pset;
        } else if (swapped)
            s->nswap--;
        else
            return;
        s->e[i] = 0;
        break;
    case HD_ZMAP_SPILL:
        if (!on || !room)
            return;
        s->e[i] = 1;
        s->free_unit[pset] = true;
        s->nfree++;
        s->nswap++;
        s->q.up_unit_o = 1;
        s->q.up_pset_o = pset;
        break;
    case HD_ZMAP_FILL: {
        if (!swapped || s->nfree == 0)
            return;
        unsigned u = lowest_free(s);
        s->e[i] = (uint16_t)(valid | u);
        s->free_unit[u] = false;
        s->nfree--;
        s->nswap--;
        s->q.up_unit_o = 1;
        s->q.up_pset_o = u;
        break;
    }
    default:
        return; /* 5-7: refused */
    }
    s->q.up_ok_o = 1;
}

void hd_zorua_map_ref_step(struct hd_zorua_map_state *s, const struct hd_zorua_map_in *in,
                           struct hd_zorua_map_out *out)
{
    const struct hd_zorua_map_cfg *c = &s->cfg;
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    update(s, in);
    if (in->lk_v_i & 1u) {
        s->q.lk_v_o = 1;
        uint64_t row = in->lk_row_i & mask(c->row_w), set = in->lk_set_i & mask(c->set_w);
        if (row < c->rows && set < c->sets) {
            uint16_t e = s->e[row * c->sets + set];
            const uint16_t valid = (uint16_t)(1u << c->pw);
            s->q.lk_hit_o = (e & valid) != 0;
            s->q.lk_alloc_o = (e & valid) != 0 || (e & 1u) != 0;
            s->q.lk_pset_o = (e & valid) ? (e & (valid - 1u)) : 0;
        }
    }
    if (s->q.up_v_o || s->q.lk_v_o) {
        s->q.free_o = s->nfree;
        s->q.swap_o = s->nswap;
    }
}

bool hd_zorua_map_ref_idle(const struct hd_zorua_map_state *s, const struct hd_zorua_map_in *in)
{
    return !(in->op_i & 7u) && !(in->lk_v_i & 1u) && !(s->q.up_v_o & 1u) && !(s->q.lk_v_o & 1u);
}

unsigned hd_zorua_map_entry(const struct hd_zorua_map_state *s, unsigned row, unsigned set,
                            unsigned *pset)
{
    if (row >= s->cfg.rows || set >= s->cfg.sets)
        return 0;
    uint16_t e = s->e[row * s->cfg.sets + set];
    const uint16_t valid = (uint16_t)(1u << s->cfg.pw);
    if (e & valid) {
        if (pset)
            *pset = e & (valid - 1u);
        return 1;
    }
    return (e & 1u) ? 2 : 0;
}
