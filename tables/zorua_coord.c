/* SPDX-License-Identifier: MIT
 * zorua_coord.c - Zorua's coordinator's C reference (zorua_coord.h).
 *
 * Design: the state mirrors the RTL's flops one for one. An edge computes the new state from
 * the state at the start of the cycle, as the RTL's next-state logic does; the parts write it in
 * place, in an order in which each reads only what the parts before it left as it was (session
 * 29: no copy of the whole state per cycle). The admission step goes first and reads everything
 * as it was; the arrival reads only which warps and blocks are live, which the admission does not
 * change; the event last, with its warp and block as they were at the start of the cycle (the
 * admission may have written the block's scratchpad held, and takes a waiting warp: never a
 * schedulable one, which is all an event accepts). The three touch different warps and blocks
 * (an event names a schedulable warp, the arrival takes free ones, the admission a waiting one),
 * the allocation counters add their deltas, and the epoch counter reads and writes only its own.
 * The sizes and widths are the state's configuration (s->cfg, the RTL's parameters), so one
 * build steps every named configuration (session 15: Kepler's and Maxwell's 96 warps).
 */
#include "zorua_coord.h"

#include <string.h>

#define HD_PORTS_DEF "zorua_coord_ports.def"
#define HD_PORTS_IN_T struct hd_zorua_coord_in
#define HD_PORTS_OUT_T struct hd_zorua_coord_out
#define HD_PORTS_BLOCK_VAR hd_zorua_coord_block
#include "hd_ports_table.h"

#include <stdio.h>

#define M(w) (((uint64_t)1 << (w)) - 1u)
#define CMASK M(s->cfg.cw)
#define SETB(m, w) ((m)[(w) / 32u] |= (uint32_t)1 << ((w) % 32u))
#define CLRB(m, w) ((m)[(w) / 32u] &= ~((uint32_t)1 << ((w) % 32u)))

static void phys(const struct hd_zorua_coord_cfg *c, uint32_t p[3])
{
    p[HD_ZCO_SLOT] = c->phys_slot;
    p[HD_ZCO_SMEM] = c->phys_smem;
    p[HD_ZCO_REG] = c->phys_reg;
}

static void thresholds(struct hd_zorua_coord_state *s)
{
    uint32_t p[3];
    phys(&s->cfg, p);
    for (unsigned r = 0; r < 3; r++)
        s->oth[r] = s->pct * p[r] / 100u;
}

int hd_zorua_coord_ref_init(struct hd_zorua_coord_state *s, const struct hd_zorua_coord_cfg *c,
                            char *err, unsigned errlen)
{
    const char *bad = hd_zorua_coord_cfg_check(c);
    if (bad) {
        if (err && errlen)
            snprintf(err, errlen, "zorua_coord: configuration refused: %s", bad);
        return -1;
    }
    memset(s, 0, sizeof *s);
    s->cfg = *c;
    s->pct = c->pct_init;
    thresholds(s);
    hd_block_reset_values(&hd_zorua_coord_block, HD_DIR_OUT, &s->q);
    return 0;
}

void hd_zorua_coord_ref_reset(struct hd_zorua_coord_state *s)
{
    HD_ZORUA_COORD_REF_RESET_CFG(s);
}

/* The parallelism the floor sees: the schedulable warps and, with fbar, the warps held at a
 * barrier of a block none of whose warps waits in a queue (the barrier completes without new
 * resources: no deadlock in allocation, L249). */
static unsigned nprog(const struct hd_zorua_coord_state *s, bool fbar)
{
    bool wait[HD_ZCO_BLOCKS_MAX] = {false};
    for (unsigned w = 0; w < s->cfg.warps; w++)
        if (s->w[w].live && s->w[w].pend && !s->w[w].bar)
            wait[s->w[w].blk] = true;
    unsigned n = 0;
    for (unsigned w = 0; w < s->cfg.warps; w++)
        n += s->w[w].sched || (fbar && s->w[w].bar && !wait[s->w[w].blk]);
    return n;
}

bool hd_zorua_coord_room(uint32_t live, uint32_t kw, uint32_t warps, bool blk_free,
                         uint32_t phys_slot, uint32_t tth, bool vreq)
{
    return kw != 0 && live + kw <= warps && blk_free && (!vreq || live + kw <= phys_slot + tth);
}

int hd_zorua_coord_pick(const uint8_t *qof, uint32_t n)
{
    /* One pass (session 29): the first warp of the register queue is the pick; else the first
     * of the scratchpad queue, else of the thread queue. */
    int first[HD_ZCO_REG] = {-1, -1}; /* the lowest warp of the thread and scratchpad queues */
    for (uint32_t w = 0; w < n; w++) {
        if (qof[w] == HD_ZCO_REG)
            return (int)w;
        if (qof[w] < HD_ZCO_REG && first[qof[w]] < 0)
            first[qof[w]] = (int)w;
    }
    return first[HD_ZCO_SMEM] >= 0 ? first[HD_ZCO_SMEM] : first[HD_ZCO_SLOT];
}

bool hd_zorua_coord_fits(const uint32_t alloc[3], const uint32_t need[3], const uint32_t phys[3],
                         const uint32_t oth[3])
{
    for (unsigned r = 0; r < 3; r++)
        if (need[r] && alloc[r] + need[r] > phys[r] + oth[r])
            return false;
    return true;
}

uint32_t hd_zorua_coord_alg1(uint32_t pct, int32_t di, int32_t dm, uint32_t step, uint32_t max,
                             uint32_t delta)
{
    if (di - dm > (int32_t)delta) /* more idleness: more TLP helps */
        return pct + step > max ? max : pct + step;
    if (dm - di > (int32_t)delta) /* memory pressure: back off */
        return pct < step ? 0 : pct - step;
    return pct;
}

/* The admission step, first in the edge: s is the state at the start of the cycle until it
 * writes (its outputs first, then the state). */
static void admit(struct hd_zorua_coord_state *s, bool fbar)
{
    /* qof of the warps in the try set (every other one NOQ) up to the highest: the pick's input
     * over the warps below n, one pass over the set's bits (session 29) */
    uint8_t qof[HD_ZCO_WARPS_MAX];
    const unsigned nw = s->cfg.warps;
    unsigned n = 0;
    for (unsigned i = 0; i < HD_ZCO_MWORDS; i++)
        for (uint32_t m = s->try_mask[i]; m != 0; m &= m - 1u) {
            const unsigned w = 32u * i + (unsigned)__builtin_ctz(m);
            if (w >= nw)
                break;
            const struct hd_zorua_coord_warp *x = &s->w[w];
            while (n < w)
                qof[n++] = HD_ZCO_NOQ;
            qof[n++] = x->pend && !x->bar && x->queue <= HD_ZCO_REG ? x->queue : HD_ZCO_NOQ;
        }
    const int pick = hd_zorua_coord_pick(qof, n);
    if (pick < 0)
        return;
    unsigned w = (unsigned)pick;
    CLRB(s->try_mask, w);
    struct hd_zorua_coord_warp *x = &s->w[w];
    struct hd_zorua_coord_blk *b = &s->b[x->blk];
    uint32_t need[3];
    need[HD_ZCO_SLOT] = !x->slot;
    need[HD_ZCO_SMEM] = b->sneed > b->sheld ? (uint32_t)(b->sneed - b->sheld) : 0;
    need[HD_ZCO_REG] = (uint32_t)(x->rneed - x->rheld) & M(s->cfg.rsw);
    uint32_t ph[3];
    phys(&s->cfg, ph);
    const bool fit = hd_zorua_coord_fits(s->alloc, need, ph, s->oth);
    if (!fit && nprog(s, fbar) >= s->cfg.floor) /* the floor forces it in */
        return;
    s->q.gr_v_o = 1;
    s->q.gr_warp_o = w;
    s->q.gr_blk_o = x->blk;
    s->q.gr_force_o = !fit;
    s->q.gr_slot_o = need[HD_ZCO_SLOT];
    s->q.gr_sfrom_o = need[HD_ZCO_SMEM] ? b->sheld : 0;
    s->q.gr_ssets_o = need[HD_ZCO_SMEM];
    s->q.gr_rfrom_o = need[HD_ZCO_REG] ? x->rheld : 0;
    s->q.gr_rsets_o = need[HD_ZCO_REG];
    for (unsigned r = 0; r < 3; r++)
        s->alloc[r] = (uint32_t)((s->alloc[r] + need[r]) & CMASK);
    x->slot = true;
    x->rheld = x->rneed;
    x->sched = true;
    x->pend = false;
    if (need[HD_ZCO_SMEM])
        b->sheld = b->sneed;
}

/* Every warp of block blk held at its barrier returns to the thread queue (the event's: the
 * warps' live, barrier and block bits are still those of the start of the cycle, but for the
 * warps the arrival took, which were free and are not at a barrier). */
static void release_barrier(struct hd_zorua_coord_state *s, unsigned blk)
{
    for (unsigned v = 0; v < s->cfg.warps; v++)
        if (s->w[v].live && s->w[v].bar && s->w[v].blk == blk)
            s->w[v].bar = false;
    s->b[blk].nbar = 0;
    s->q.rl_bar_o = 1;
}

/* The warp event, last in the edge: x and b are its warp and that warp's block at the start of
 * the cycle (zeros for a warp past the configuration's); true when accepted. */
static bool event(struct hd_zorua_coord_state *s, const struct hd_zorua_coord_in *in,
                  const struct hd_zorua_coord_warp *x, const struct hd_zorua_coord_blk *b)
{
    s->q.ev_v_o = 1;
    const struct hd_zorua_coord_cfg *g = &s->cfg;
    unsigned w = (unsigned)(in->ev_warp_i & M(g->ww)), kind = in->ev_kind_i & 3u;
    uint32_t rs = (uint32_t)(in->ev_rsets_i & M(g->rsw));
    uint32_t ss = (uint32_t)(in->ev_ssets_i & M(g->ssw));
    if (w >= g->warps || !x->sched || kind > HD_ZCO_EXIT)
        return false;
    if (kind == HD_ZCO_PHASE && (rs > g->reg_sets || ss > g->smem_sets))
        return false;
    struct hd_zorua_coord_warp *y = &s->w[w];
    struct hd_zorua_coord_blk *c = &s->b[x->blk];
    s->q.ev_ok_o = 1;
    s->q.rl_warp_o = w;
    s->q.rl_blk_o = x->blk;
    y->sched = false;
    if (kind == HD_ZCO_PHASE) {
        uint32_t rel = x->rheld > rs ? x->rheld - rs : 0;
        uint32_t sneed = b->sneed > ss ? b->sneed : ss;
        y->rheld = (uint8_t)(x->rheld - rel);
        y->rneed = (uint8_t)rs;
        s->alloc[HD_ZCO_REG] = (uint32_t)((s->alloc[HD_ZCO_REG] - rel) & CMASK);
        c->sneed = (uint8_t)sneed;
        y->pend = true;
        y->queue = sneed > b->sheld ? HD_ZCO_SMEM : HD_ZCO_REG;
        s->q.rl_rfrom_o = rel ? rs : 0;
        s->q.rl_rsets_o = rel;
    } else if (kind == HD_ZCO_BARRIER) {
        y->pend = true;
        y->queue = HD_ZCO_SLOT;
        if (b->nbar + 1u >= b->nlive)
            release_barrier(s, x->blk);
        else {
            y->bar = true;
            c->nbar = (uint8_t)(b->nbar + 1u);
        }
    } else {
        s->alloc[HD_ZCO_REG] = (uint32_t)((s->alloc[HD_ZCO_REG] - x->rheld) & CMASK);
        s->alloc[HD_ZCO_SLOT] = (uint32_t)((s->alloc[HD_ZCO_SLOT] - x->slot) & CMASK);
        s->q.rl_slot_o = x->slot;
        s->q.rl_rsets_o = x->rheld;
        memset(y, 0, sizeof *y);
        unsigned left = b->nlive - 1u;
        c->nlive = (uint8_t)left;
        if (left == 0) {
            s->alloc[HD_ZCO_SMEM] = (uint32_t)((s->alloc[HD_ZCO_SMEM] - b->sheld) & CMASK);
            s->q.rl_ssets_o = b->sheld;
            memset(c, 0, sizeof *c);
        } else if (b->nbar != 0 && b->nbar >= left)
            release_barrier(s, x->blk);
    }
    return true;
}

/* The block arrival, after the admission (which changes no warp's or block's live bit); true
 * when taken. */
static bool arrival(struct hd_zorua_coord_state *s, const struct hd_zorua_coord_in *in)
{
    s->q.arr_v_o = 1;
    const struct hd_zorua_coord_cfg *g = &s->cfg;
    unsigned kw = (unsigned)(in->kwarps_i & M(g->kww));
    uint32_t rs = (uint32_t)(in->tb_rsets_i & M(g->rsw));
    uint32_t ss = (uint32_t)(in->tb_ssets_i & M(g->ssw));
    unsigned nfree = 0;
    for (unsigned w = 0; w < g->warps; w++)
        nfree += !s->w[w].live;
    int blk = -1;
    for (unsigned k = 0; k < g->blocks && blk < 0; k++)
        if (!s->b[k].live)
            blk = (int)k;
    if (kw == 0 || kw > nfree || blk < 0 || rs > g->reg_sets || ss > g->smem_sets)
        return false;
    unsigned taken = 0;
    uint32_t mask[HD_ZCO_MWORDS] = {0};
    for (unsigned w = 0; w < g->warps && taken < kw; w++) {
        struct hd_zorua_coord_warp *y = &s->w[w];
        if (y->live)
            continue;
        memset(y, 0, sizeof *y);
        y->live = y->pend = true;
        y->queue = HD_ZCO_SLOT;
        y->blk = (uint8_t)blk;
        y->rneed = (uint8_t)rs;
        SETB(mask, w);
        taken++;
    }
    struct hd_zorua_coord_blk *c = &s->b[blk];
    c->live = true;
    c->sneed = (uint8_t)ss;
    c->sheld = 0;
    c->nlive = (uint8_t)kw;
    c->nbar = 0;
    s->q.arr_ok_o = 1;
    s->q.arr_blk_o = (unsigned)blk;
    memcpy(s->q.arr_wmask_o, mask, sizeof mask);
    return true;
}

/* The epoch counter and Algorithm 1 (its own registers only). */
static void epoch(struct hd_zorua_coord_state *s, const struct hd_zorua_coord_in *in)
{
    uint32_t idle = in->idle_i & 1u, mem = in->mem_i & 1u;
    const struct hd_zorua_coord_cfg *g = &s->cfg;
    if (s->ecnt != g->epoch - 1u) {
        s->ecnt = s->ecnt + 1u;
        s->cidle = s->cidle + idle;
        s->cmem = s->cmem + mem;
        return;
    }
    int32_t ci = (int32_t)(s->cidle + idle), cm = (int32_t)(s->cmem + mem);
    int32_t di = ci - (int32_t)s->pidle, dm = cm - (int32_t)s->pmem;
    const uint32_t pct = hd_zorua_coord_alg1(s->pct, di, dm, g->pct_step, g->pct_max,
                                             g->delta_th);
    s->pct = pct;
    thresholds(s);
    s->pidle = (uint32_t)ci;
    s->pmem = (uint32_t)cm;
    s->cidle = s->cmem = 0;
    s->ecnt = 0;
    s->q.ep_v_o = 1;
    s->q.ep_pct_o = pct;
    s->q.ep_rth_o = s->oth[HD_ZCO_REG];
    s->q.ep_sth_o = s->oth[HD_ZCO_SMEM];
    s->q.ep_tth_o = s->oth[HD_ZCO_SLOT];
}

void hd_zorua_coord_ref_step(struct hd_zorua_coord_state *s, const struct hd_zorua_coord_in *in,
                             struct hd_zorua_coord_out *out)
{
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    /* the event's warp and its block as the cycle starts (the admission writes in place) */
    struct hd_zorua_coord_warp ex = {0};
    struct hd_zorua_coord_blk eb = {0};
    const unsigned ew = (unsigned)(in->ev_warp_i & M(s->cfg.ww));
    if (ew < s->cfg.warps) {
        ex = s->w[ew];
        eb = s->b[ex.blk];
    }
    bool trigger = false;
    admit(s, in->fbar_i & 1u);
    if (in->tb_v_i & 1u)
        trigger |= arrival(s, in);
    if (in->ev_v_i & 1u)
        trigger |= event(s, in, &ex, &eb);
    const unsigned nw = s->cfg.warps;
    if (trigger) {
        memset(s->try_mask, 0, sizeof s->try_mask);
        for (unsigned w = 0; w < nw; w++)
            if (s->w[w].pend && !s->w[w].bar)
                SETB(s->try_mask, w);
    }
    const bool active = in->active_i & 1u;
    if (active)
        epoch(s, in);
    /* The schedulable bits: last cycle's (out), the admitted warp's set, the event's warp's
     * cleared; nothing else changes one (an arrival's warps were free: not schedulable). */
    memcpy(s->q.sched_o, out->sched_o, sizeof s->q.sched_o);
    if (s->q.gr_v_o)
        SETB(s->q.sched_o, s->q.gr_warp_o);
    if (s->q.ev_ok_o)
        CLRB(s->q.sched_o, s->q.rl_warp_o);
    /* The live warps: the blocks' live-warp counts (a free block's is 0). */
    unsigned live = 0;
    bool blk_free = false;
    for (unsigned k = 0; k < s->cfg.blocks; k++) {
        blk_free |= !s->b[k].live;
        live += s->b[k].nlive;
    }
    unsigned kw = (unsigned)(in->kwarps_i & M(s->cfg.kww));
    s->q.tb_req_o = active && hd_zorua_coord_room(live, kw, nw, blk_free, s->cfg.phys_slot,
                                                  s->oth[HD_ZCO_SLOT], in->vreq_i & 1u);
}

/* Idle: no input, nothing to try and every output 0 (sched_o with them: no warp schedulable). */
bool hd_zorua_coord_ref_idle(const struct hd_zorua_coord_state *s,
                             const struct hd_zorua_coord_in *in)
{
    static const struct hd_zorua_coord_out z; /* every output 0 */
    bool tries = false;
    for (unsigned i = 0; i < HD_ZCO_MWORDS; i++)
        tries |= s->try_mask[i] != 0;
    return !((in->active_i | in->tb_v_i | in->ev_v_i) & 1u) && !tries &&
           memcmp(&s->q, &z, sizeof z) == 0;
}
