/* SPDX-License-Identifier: MIT
 * lin_alloc_tables.c - the "lin_tables" allocator ([sm] allocator = lin_tables): registers and
 * shared memory through Lin's two allocation tables (thesis §2.3.1 Fig 2.4, in-place context
 * switching; digest §2.2, §3.1; block tables/alloc_table.h), warp and CTA slots as the
 * partitioned allocator keeps them.
 *
 * Design: each resident CTA holds one entry of the register-file table (units of one vector
 * register, 32 x 32 bit) and one of the shared-memory table (units of 128 B); a CTA's block is
 * the first-fit contiguous block the table's alloc answers, so its registers and shared memory
 * are ceil(regs / 32) and ceil(smem / 128) units (the tables' granularity; with the default
 * configurations a CTA's registers are whole vector registers already). A CTA fits when slots,
 * warps and threads have room and both tables place its block (16 entries each: at most 16
 * resident CTAs). plan_victims() is Lin's "minimum number of TBs": the register-file table's
 * spill query (the window of the CTA's size that overlaps the fewest allowed CTAs, whose
 * ranges it overlaps are the victims), then the shared-memory table's with those victims
 * counted as gone; if slots, warps or threads are still short, further candidates in the
 * partitioned order (lowest priority, most recently placed first); then every victim not
 * needed is given back (latest first), so the set is minimal (sm_alloc_victims.h, the rule the
 * partitioned allocator uses too). Candidates: CTAs of other launches of lower priority.
 * The tables decide: every request the allocator makes (each alloc, each free, each spill query)
 * is a transaction on one of two block instances made through the GPU's block factory
 * ("sm<N>.rf_alloc_table", "sm<N>.smem_alloc_table": the C reference, or under heddle cosim
 * --in-loop the C reference and the Verilated RTL in lockstep, --drive rtl: the RTL's outputs):
 * the request is presented for one block cycle and the answer read from the registered outputs
 * the next (the block's latency 1), and that answer IS the decision: the entry and first-fit
 * start of a placed CTA (its register and shared-memory base), the victims of a spill query.
 * The allocator keeps a copy of the entries as the blocks' answers wrote them (the same write
 * the block makes) for what the tables have no request for: can_accept, and the fit tests of
 * victim planning (hd_alloc_table_eval on the copy, pure). An answer that is not a legal one
 * (a block that overlaps an entry in use, names a victim it may not, refuses an alloc the
 * entries have room for) stops the run with the instance, cycle and request (fault).
 * Time: the allocation interface answers at once (a "no" from the CTA scheduler starts a
 * preemption), so a transaction costs no model cycle; the block's two steps are numbered on its
 * own clock, which follows the SM's cycle (tick) and runs ahead of it by the requests of one
 * cycle. docs/blocks/alloc_table.md: the latency this leaves out.
 * Partial grants (acquire, release_part of registers or shared memory) are not Lin's mechanism:
 * acquire refuses, release_part gives back only a warp slot. Lin's split (Fig 2.4, [context]
 * inplace_split; issue 24 item 8): plan_room makes room for n CTAs in one plan, by parts, on
 * copies of the tables; park frees a switched CTA's register entry, slots and warps and keeps
 * its shared-memory entry valid; unpark places the CTA again on that entry. Lin's stop in place
 * (2.5.5, [context] inplace_stop): plan_room with HD_ALLOC_ROOM_STOP counts every allowed CTA's
 * slots, warps and threads as free (they all stop), so only the tables name victims; park_all
 * frees a stopped CTA's slots and warps and keeps both its entries valid; unpark places it
 * again on both (only slots, warps and threads allocated anew).
 */
#include "lin_mech.h"
#include "sm_alloc_victims.h"

#include "alloc_table.h"
#include "hw_ref.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RF, SMEM, NTAB };
static const char *const tab_name[NTAB] = {"rf_alloc_table", "smem_alloc_table"};

struct cta_info {
    uint32_t launch;
    int32_t priority;
    uint64_t seq;
    uint32_t warps, threads;
    uint8_t entry[NTAB];
};

struct inloop {
    struct hd_hw_inst x;
    uint64_t clk;   /* the block cycle of its last step */
    bool stepped;
    uint64_t transactions;
};

struct tab_state {
    const struct hd_sm_params *p;
    uint64_t *warp_used;
    uint32_t words;
    bool *cta_used;
    struct cta_info *info;
    uint32_t *cand;
    uint64_t seq;
    struct hd_alloc_usage u;
    uint32_t cap[NTAB];              /* units */
    struct hd_alloc_table_state t[NTAB]; /* the tables the allocator decides with */
    bool parked[HD_ALLOC_TABLE_ENTRIES]; /* shared-memory entries kept for a CTA whose
                                            registers left (Fig 2.4; tab_park) */
    uint64_t parked_smem[HD_ALLOC_TABLE_ENTRIES];
    bool parked_rf[HD_ALLOC_TABLE_ENTRIES]; /* register-file entries kept for a CTA stopped in
                                               place (Lin 2.5.5; tab_park_all) */
    uint64_t parked_regs[HD_ALLOC_TABLE_ENTRIES];
    /* the blocks */
    uint32_t sm;
    uint64_t now; /* the SM's cycle as last ticked */
    const struct hd_hw_factory *const *hw;
    bool made, failed;
    struct inloop il[NTAB];
    char err[768];
};

static uint32_t units(uint64_t bytes_or_regs, uint32_t unit)
{
    return (uint32_t)((bytes_or_regs + unit - 1) / unit);
}

static uint32_t need(const struct hd_cta_demand *d, int t)
{
    return t == RF ? units(d->regs, HD_ALLOC_TABLE_RF_UNIT) : units(d->smem, HD_ALLOC_TABLE_SMEM_UNIT);
}

static struct hd_alloc_table_in request(unsigned op, uint32_t size, uint32_t cap, unsigned entry,
                                        uint32_t cand, uint32_t drop)
{
    struct hd_alloc_table_in in;
    memset(&in, 0, sizeof in);
    in.op_i = op;
    in.size_i = size;
    in.cap_i = cap;
    in.entry_i = entry;
    in.cand_i = cand;
    in.drop_i = drop;
    return in;
}

/* {==== The tables: the blocks' answers are the decisions ==== */
static const char *op_name(uint64_t op)
{
    return op == HD_ATAB_ALLOC ? "alloc" : op == HD_ATAB_FREE ? "free" : op == HD_ATAB_SPILL ? "spill" : "none";
}

static void make_instances(struct tab_state *s)
{
    const struct hd_hw_factory *f = s->hw && *s->hw ? *s->hw : hd_hw_ref_factory();
    for (int t = 0; t < NTAB && !s->failed; t++) {
        char name[64], e[512];
        snprintf(name, sizeof name, "sm%u.%s", s->sm, tab_name[t]);
        if (hd_hw_make_sized(f, "alloc_table", name, &s->il[t].x,
                             sizeof(struct hd_alloc_table_in), sizeof(struct hd_alloc_table_out),
                             e, sizeof e) != 0) {
            s->failed = true;
            snprintf(s->err, sizeof s->err, "%s", e);
        }
    }
    s->made = true;
}

/* Is `out` a legal answer to `in` over the entries of c (the copy before the request)? NULL,
 * or what is wrong. */
static const char *illegal(const struct hd_alloc_table_state *c, const struct hd_alloc_table_in *in,
                           const struct hd_alloc_table_out *out)
{
    if (!(out->valid_o & 1u) || out->op_o != in->op_i)
        return "no answer to the request";
    const uint32_t size = (uint32_t)in->size_i, start = (uint32_t)out->start_o;
    if (in->op_i == HD_ATAB_FREE)
        return (out->ok_o & 1u) != c->e[in->entry_i & 0xfu].valid ? "a wrong ok for the free" : NULL;
    if (!(out->ok_o & 1u)) {
        struct hd_alloc_table_out r;
        hd_alloc_table_eval(c, in, &r); /* a refusal must be forced: no entry or no room */
        return (r.ok_o & 1u) ? "a refusal where the entries have room" : NULL;
    }
    if (start + size > in->cap_i)
        return "a block beyond the memory";
    uint32_t over = 0;
    for (unsigned e = 0; e < HD_ALLOC_TABLE_ENTRIES; e++) {
        const struct hd_alloc_table_entry *x = &c->e[e];
        if (x->valid && x->size && size && x->start < start + size && start < (uint32_t)x->start + x->size &&
            !(in->op_i == HD_ATAB_SPILL && (in->drop_i >> e & 1u)))
            over |= 1u << e;
    }
    if (in->op_i == HD_ATAB_ALLOC) {
        if (c->e[out->entry_o & 0xfu].valid)
            return "an entry already in use";
        return over ? "a block overlapping an entry in use" : NULL;
    }
    if (out->victims_o != over)
        return "victims other than the entries its window overlaps";
    return (over & ~(uint32_t)in->cand_i) ? "a victim that is not a candidate" : NULL;
}

/* One request as a transaction on table t: presented for one block cycle, answered on the
 * registered outputs the next; the answer is the decision, and the copy takes its write. The
 * C reference's answer on the copy stands in only once a block failed (the run then stops). */
static void exec(struct tab_state *s, int t, const struct hd_alloc_table_in *in, uint32_t slot,
                 struct hd_alloc_table_out *out)
{
    struct hd_alloc_table_out ref;
    hd_alloc_table_eval(&s->t[t], in, &ref);
    if (!s->made)
        make_instances(s);
    struct inloop *l = &s->il[t];
    if (!s->failed) {
        const uint64_t t0 = l->stepped && l->clk >= s->now ? l->clk + 1 : s->now;
        const uint64_t tag[2] = {s->sm, slot};
        struct hd_alloc_table_in none;
        struct hd_alloc_table_out first;
        memset(&none, 0, sizeof none);
        hd_hw_set_tag(&l->x, tag, 2);
        if (hd_hw_step(&l->x, in, &first, t0) != 0 || hd_hw_step(&l->x, &none, out, t0 + 1) != 0) {
            s->failed = true;
            snprintf(s->err, sizeof s->err, "%s", l->x.ops->error(l->x.impl));
        } else {
            const char *bad = (first.valid_o & 1u) ? "an answer before the request" : illegal(&s->t[t], in, out);
            if (bad) {
                s->failed = true;
                snprintf(s->err, sizeof s->err,
                         "sm%u.%s at block cycle %" PRIu64 " (SM cycle %" PRIu64 "): %s: the "
                         "block answered %s ok=%u entry=%u start=%u victims=%#x used=%u to the %s "
                         "request (size %u, cap %u, entry %u, cand %#x, drop %#x) for slot %u",
                         s->sm, tab_name[t], t0 + 1, s->now, bad, op_name(out->op_o),
                         (unsigned)out->ok_o, (unsigned)out->entry_o, (unsigned)out->start_o,
                         (unsigned)out->victims_o, (unsigned)out->used_o, op_name(in->op_i),
                         (unsigned)in->size_i, (unsigned)in->cap_i, (unsigned)in->entry_i,
                         (unsigned)in->cand_i, (unsigned)in->drop_i, slot);
            }
        }
        l->clk = t0 + 1;
        l->stepped = true;
        l->transactions++;
    }
    if (s->failed)
        *out = ref;
    hd_alloc_table_write(&s->t[t], in, out);
}

static bool tab_tick(void *impl, uint64_t now)
{
    struct tab_state *s = impl;
    s->now = now;
    return false; /* the tables answer within the request */
}

static uint64_t tab_next_event(const void *impl, uint64_t now)
{
    (void)impl;
    (void)now;
    return UINT64_MAX;
}

static int tab_fault(const void *impl, char *err, size_t errlen)
{
    const struct tab_state *s = impl;
    if (!s->failed)
        return 0;
    snprintf(err, errlen, "%s", s->err);
    return -1;
}

static void tab_attach(void *impl, uint32_t sm, const struct hd_hw_factory *const *hw)
{
    struct tab_state *s = impl;
    s->sm = sm;
    s->hw = hw;
}
/* }==== */

/* {==== Placement ==== */
/* Do slots, warps and threads have room for d with the CTAs of `gone` (slot mask) away, and do
 * both tables (entries of `gone` invalid) place its blocks (the register file's only, with
 * regs_only: its shared memory is a parked block)? */
static bool fits_ex(const struct tab_state *s, const struct hd_cta_demand *d, const bool *gone,
                    bool regs_only)
{
    const struct hd_sm_params *p = s->p;
    uint32_t ctas = s->u.ctas, warps = s->u.warps, threads = s->u.threads;
    struct hd_alloc_table_state t[NTAB] = {s->t[RF], s->t[SMEM]};
    for (uint32_t c = 0; gone && c < p->max_ctas; c++)
        if (gone[c]) {
            ctas--;
            warps -= s->info[c].warps;
            threads -= s->info[c].threads;
            for (int k = 0; k < NTAB; k++)
                t[k].e[s->info[c].entry[k]].valid = false;
        }
    if (d->warps > HD_ALLOC_MAX_WARPS || ctas >= p->max_ctas || warps + d->warps > p->max_warps ||
        threads + d->threads > p->max_threads)
        return false;
    for (int k = 0; k < (regs_only ? 1 : NTAB); k++) {
        struct hd_alloc_table_in in = request(HD_ATAB_ALLOC, need(d, k), s->cap[k], 0, 0, 0);
        struct hd_alloc_table_out out;
        if (in.size_i != need(d, k))
            return false; /* more units than the table's 12 bits hold */
        hd_alloc_table_eval(&t[k], &in, &out);
        if (!(out.ok_o & 1u))
            return false;
    }
    return true;
}

static bool fits(const struct tab_state *s, const struct hd_cta_demand *d, const bool *gone)
{
    return fits_ex(s, d, gone, false);
}

static bool tab_can_accept(const void *impl, const struct hd_cta_demand *d)
{
    return fits(impl, d, NULL);
}

/* The lowest free CTA slot and the d->warps lowest free warp slots, marked used in g and the
 * warp bitmap (the caller marks the CTA slot once its table entries are made). */
static uint32_t grant_slots(struct tab_state *s, const struct hd_cta_demand *d,
                            struct hd_cta_grant *g)
{
    uint32_t slot = 0;
    while (s->cta_used[slot])
        slot++;
    memset(g, 0, sizeof *g);
    g->cta_slot = slot;
    g->nwarps = d->warps;
    g->threads = d->threads;
    for (uint32_t w = 0, i = 0; i < d->warps; w++) {
        if (s->warp_used[w / 64] >> (w % 64) & 1u)
            continue;
        s->warp_used[w / 64] |= 1ull << (w % 64);
        g->warp_slot[i++] = (uint16_t)w;
    }
    return slot;
}

static bool tab_accept(void *impl, const struct hd_cta_demand *d, struct hd_cta_grant *g)
{
    struct tab_state *s = impl;
    if (!fits(s, d, NULL))
        return false;
    const uint32_t slot = grant_slots(s, d, g);
    struct cta_info *in = &s->info[slot];
    *in = (struct cta_info){d->launch, d->priority, s->seq++, d->warps, d->threads, {0, 0}};
    for (int k = 0; k < NTAB; k++) {
        struct hd_alloc_table_in rq = request(HD_ATAB_ALLOC, need(d, k), s->cap[k], 0, 0, 0);
        struct hd_alloc_table_out out;
        exec(s, k, &rq, slot, &out); /* placed: fits() said so, an answer otherwise fails */
        in->entry[k] = (uint8_t)out.entry_o;
        if (k == RF)
            g->reg_base = (uint32_t)out.start_o * HD_ALLOC_TABLE_RF_UNIT;
        else
            g->smem_base = out.start_o * HD_ALLOC_TABLE_SMEM_UNIT;
    }
    g->regs = d->regs;
    g->smem = d->smem;
    g->launch = d->launch;
    g->priority = d->priority;
    s->cta_used[slot] = true;
    s->u.ctas++;
    s->u.warps += d->warps;
    s->u.threads += d->threads;
    s->u.regs += d->regs;
    s->u.smem += d->smem;
    return true;
}

static void tab_release(void *impl, const struct hd_cta_grant *g)
{
    struct tab_state *s = impl;
    const uint32_t c = g->cta_slot;
    if (c >= s->p->max_ctas || !s->cta_used[c])
        return;
    for (uint32_t i = 0; i < g->nwarps; i++)
        if (g->warp_slot[i] != HD_ALLOC_NO_SLOT)
            s->warp_used[g->warp_slot[i] / 64] &= ~(1ull << (g->warp_slot[i] % 64));
    for (int k = 0; k < NTAB; k++) {
        struct hd_alloc_table_in rq = request(HD_ATAB_FREE, 0, s->cap[k], s->info[c].entry[k], 0, 0);
        struct hd_alloc_table_out out;
        exec(s, k, &rq, c, &out);
    }
    s->cta_used[c] = false;
    s->u.ctas--;
    s->u.warps -= s->info[c].warps;
    s->u.threads -= g->threads;
    s->u.regs -= g->regs;
    s->u.smem -= g->smem;
}

static bool tab_acquire(void *impl, struct hd_cta_grant *g, const struct hd_alloc_part *pt)
{
    (void)impl;
    (void)g;
    (void)pt;
    return false; /* a table entry is a TB's whole block */
}

static void tab_release_part(void *impl, struct hd_cta_grant *g, const struct hd_alloc_part *pt)
{
    struct tab_state *s = impl;
    const uint32_t c = g->cta_slot;
    if (c >= s->p->max_ctas || !s->cta_used[c] || pt->warp >= g->nwarps ||
        g->warp_slot[pt->warp] == HD_ALLOC_NO_SLOT)
        return;
    uint32_t w = g->warp_slot[pt->warp];
    s->warp_used[w / 64] &= ~(1ull << (w % 64));
    g->warp_slot[pt->warp] = HD_ALLOC_NO_SLOT;
    s->info[c].warps--;
    s->u.warps--;
}
/* }==== */

/* {==== Victim planning (Lin's spill query) ==== */
/* Table k's spill query for d with the CTAs of `gone` counted as free; adds the victims it
 * names to gone/victims. false: no window fits. */
static bool spill(struct tab_state *s, int k, const struct hd_cta_demand *d, bool *gone,
                  uint32_t *victims, uint32_t *n)
{
    const uint32_t nctas = s->p->max_ctas;
    uint32_t cand = 0, drop = 0;
    for (uint32_t c = 0; c < nctas; c++) {
        if (!s->cta_used[c])
            continue;
        const struct cta_info *in = &s->info[c];
        if (gone[c])
            drop |= 1u << in->entry[k];
        else if (in->launch != d->launch && in->priority < d->priority)
            cand |= 1u << in->entry[k];
    }
    struct hd_alloc_table_in rq = request(HD_ATAB_SPILL, need(d, k), s->cap[k], 0, cand, drop);
    struct hd_alloc_table_out out;
    exec(s, k, &rq, d->launch, &out);
    if (!(out.ok_o & 1u))
        return false;
    for (uint32_t c = 0; c < nctas; c++)
        if (s->cta_used[c] && !gone[c] && (out.victims_o >> s->info[c].entry[k] & 1u)) {
            gone[c] = true;
            victims[(*n)++] = c;
        }
    return true;
}

struct plan {
    struct tab_state *s;
    bool *gone;
};

static bool v_key(const void *ctx, uint32_t c, struct hd_victim_key *k)
{
    const struct plan *pl = ctx;
    if (!pl->s->cta_used[c])
        return false;
    const struct cta_info *in = &pl->s->info[c];
    *k = (struct hd_victim_key){in->launch, in->priority, in->seq};
    return true;
}

static void v_mark(void *ctx, uint32_t c, bool gone)
{
    ((struct plan *)ctx)->gone[c] = gone;
}

static bool v_fits(const void *ctx, const struct hd_cta_demand *d)
{
    const struct plan *pl = ctx;
    return fits(pl->s, d, pl->gone);
}

static int tab_plan_victims(void *impl, const struct hd_cta_demand *d, uint32_t *victims)
{
    struct tab_state *s = impl;
    const uint32_t nctas = s->p->max_ctas;
    if (fits(s, d, NULL))
        return 0;
    bool gone[64] = {false};
    if (nctas > 64 || need(d, RF) > HD_ALLOC_TABLE_UNIT_MAX || need(d, SMEM) > HD_ALLOC_TABLE_UNIT_MAX)
        return -1;
    uint32_t n = 0;
    if (!spill(s, RF, d, gone, victims, &n) || !spill(s, SMEM, d, gone, victims, &n))
        return -1;
    /* slots, warps, threads or a table entry may still be short: the baseline order; then
     * minimal */
    struct plan pl = {s, gone};
    const struct hd_victim_ops o = {&pl, v_key, v_mark, v_fits};
    return hd_alloc_victims_complete(nctas, d, &o, s->cand, victims, n);
}
/* }==== */

/* {==== Registers out, shared memory in place (Lin Fig 2.4, [context] inplace_split) ==== */
/* May CTA slot c be a victim for d (another launch of lower priority)? */
static bool allowed(const struct tab_state *s, uint32_t c, const struct hd_cta_demand *d)
{
    return s->cta_used[c] && s->info[c].launch != d->launch && s->info[c].priority < d->priority;
}

/* Room for n CTAs of d in one plan, on copies of the two tables (the C reference's answers,
 * hd_alloc_table_eval: a plan is a what-if, the blocks see only the allocations and frees that
 * follow it). For each newcomer in turn and each table: its block placed first-fit if it fits;
 * else the table's spill query (the window of its size that overlaps the fewest allowed CTAs
 * whose part in that table has not left yet) names victims whose part in that table leaves,
 * and the block takes the window. A victim named by the register-file table alone keeps its
 * shared memory in place; one the shared-memory table names leaves whole (a TB cannot run
 * without its shared memory, and keeping registers of a TB off the SM is not modelled). Before
 * each newcomer's blocks, slots, warps or threads short for it take victims first (lowest
 * priority, latest placed first), registers only. When a newcomer's block does not fit in a copy, the earlier newcomers are first
 * re-placed first-fit around the victims chosen so far (repack: the victims' room may have been
 * split by the earlier what-if placements), and the spill query asks only if it still does not. */
/* The copies t rebuilt from the allocator's tables without the victims' parts (part) and with
 * the first k newcomers placed first-fit in order, as the real placement will place them once
 * the victims are gone (earlier placements in the copies may have split the room the victims
 * free). false: they do not fit so. */
static bool repack(const struct tab_state *s, struct hd_alloc_table_state *t, const uint8_t *part,
                   uint32_t k, const struct hd_cta_demand *d)
{
    for (int x = 0; x < NTAB; x++) {
        t[x] = s->t[x];
        const uint8_t bit = x == RF ? HD_ALLOC_PART_REGS : HD_ALLOC_PART_SMEM;
        for (uint32_t c = 0; c < s->p->max_ctas; c++)
            if (s->cta_used[c] && (part[c] & bit))
                t[x].e[s->info[c].entry[x]].valid = false;
        for (uint32_t j = 0; j < k; j++) {
            struct hd_alloc_table_in in = request(HD_ATAB_ALLOC, need(d, x), s->cap[x], 0, 0, 0);
            struct hd_alloc_table_out out;
            hd_alloc_table_eval(&t[x], &in, &out);
            if (!(out.ok_o & 1u))
                return false;
            hd_alloc_table_write(&t[x], &in, &out);
        }
    }
    return true;
}

static int tab_plan_room(void *impl, const struct hd_cta_demand *d, uint32_t n, uint32_t *victims,
                         uint8_t *parts)
{
    struct tab_state *s = impl;
    const struct hd_sm_params *p = s->p;
    const uint32_t nctas = p->max_ctas;
    const bool stop = n & HD_ALLOC_ROOM_STOP; /* Lin 2.5.5: every allowed CTA leaves its slots */
    n &= ~HD_ALLOC_ROOM_STOP;
    if (nctas > 64 || need(d, RF) > HD_ALLOC_TABLE_UNIT_MAX ||
        need(d, SMEM) > HD_ALLOC_TABLE_UNIT_MAX || d->warps > HD_ALLOC_MAX_WARPS)
        return -1;
    struct hd_alloc_table_state t[NTAB] = {s->t[RF], s->t[SMEM]};
    uint8_t part[64] = {0};
    uint32_t ctas = s->u.ctas, warps = s->u.warps, threads = s->u.threads;
    for (uint32_t c = 0; stop && c < nctas; c++)
        if (allowed(s, c, d)) { /* it stops: its slots, warps and threads are free */
            ctas--;
            warps -= s->info[c].warps;
            threads -= s->info[c].threads;
        }
    for (uint32_t k = 0; k < n; k++) {
        while (ctas >= nctas || warps + d->warps > p->max_warps ||
               threads + d->threads > p->max_threads) {
            if (stop)
                return -1; /* short of what no allowed CTA holds */
            uint32_t best = UINT32_MAX;
            for (uint32_t c = 0; c < nctas; c++)
                if (allowed(s, c, d) && !part[c] &&
                    (best == UINT32_MAX || s->info[c].priority < s->info[best].priority ||
                     (s->info[c].priority == s->info[best].priority &&
                      s->info[c].seq > s->info[best].seq)))
                    best = c;
            if (best == UINT32_MAX)
                return -1;
            part[best] = HD_ALLOC_PART_REGS;
            t[RF].e[s->info[best].entry[RF]].valid = false;
            ctas--;
            warps -= s->info[best].warps;
            threads -= s->info[best].threads;
        }
        for (int tb = 0; tb < NTAB; tb++) {
            const uint8_t bit = tb == RF ? HD_ALLOC_PART_REGS : HD_ALLOC_PART_SMEM;
            struct hd_alloc_table_in in = request(HD_ATAB_ALLOC, need(d, tb), s->cap[tb], 0, 0, 0);
            struct hd_alloc_table_out out;
            hd_alloc_table_eval(&t[tb], &in, &out);
            bool spilled = false;
            while (!(out.ok_o & 1u)) {
                /* the newcomers so far re-placed around the victims chosen so far (the copies'
                 * what-if placements may have split the room they free), then this one again */
                struct hd_alloc_table_state r[NTAB];
                bool ok = repack(s, r, part, k, d);
                for (int x = 0; x < tb && ok; x++) { /* this newcomer's blocks in earlier tables */
                    struct hd_alloc_table_in q = request(HD_ATAB_ALLOC, need(d, x), s->cap[x], 0,
                                                         0, 0);
                    hd_alloc_table_eval(&r[x], &q, &out);
                    ok = out.ok_o & 1u;
                    if (ok)
                        hd_alloc_table_write(&r[x], &q, &out);
                }
                if (ok) {
                    t[RF] = r[RF];
                    t[SMEM] = r[SMEM];
                    hd_alloc_table_eval(&t[tb], &in, &out);
                    if (out.ok_o & 1u)
                        break;
                }
                uint32_t cand = 0;
                for (uint32_t c = 0; c < nctas; c++)
                    if (allowed(s, c, d) && !(part[c] & bit))
                        cand |= 1u << s->info[c].entry[tb];
                struct hd_alloc_table_in q = request(HD_ATAB_SPILL, need(d, tb), s->cap[tb], 0,
                                                     cand, 0);
                hd_alloc_table_eval(&t[tb], &q, &out);
                uint32_t named = 0; /* the spill query's victims; else the baseline order's next */
                for (uint32_t c = 0; c < nctas && !spilled && (out.ok_o & 1u); c++)
                    named += allowed(s, c, d) && !(part[c] & bit) &&
                             (out.victims_o >> s->info[c].entry[tb] & 1u);
                uint32_t best = UINT32_MAX;
                if (!named)
                    for (uint32_t c = 0; c < nctas; c++)
                        if (allowed(s, c, d) && !(part[c] & bit) &&
                            (best == UINT32_MAX || s->info[c].priority < s->info[best].priority ||
                             (s->info[c].priority == s->info[best].priority &&
                              s->info[c].seq > s->info[best].seq)))
                            best = c;
                if (!named && best == UINT32_MAX)
                    return -1;
                spilled = named > 0; /* (the query once; then the baseline order) */
                for (uint32_t c = 0; c < nctas; c++) {
                    if (!allowed(s, c, d) || (part[c] & bit) ||
                        (named ? !(out.victims_o >> s->info[c].entry[tb] & 1u) : c != best))
                        continue;
                    if (!part[c] && !stop) { /* its slot and warps leave with its registers */
                        ctas--;
                        warps -= s->info[c].warps;
                        threads -= s->info[c].threads;
                    }
                    part[c] |= bit | HD_ALLOC_PART_REGS;
                    for (int x = 0; x < NTAB; x++)
                        if (part[c] & (x == RF ? HD_ALLOC_PART_REGS : HD_ALLOC_PART_SMEM))
                            t[x].e[s->info[c].entry[x]].valid = false;
                }
                hd_alloc_table_eval(&t[tb], &in, &out);
            }
            hd_alloc_table_write(&t[tb], &in, &out); /* the newcomer's block, in the copy */
        }
        ctas++;
        warps += d->warps;
        threads += d->threads;
    }
    uint32_t m = 0;
    for (uint32_t c = 0; c < nctas; c++)
        if (part[c]) {
            victims[m] = c;
            parts[m++] = part[c];
        }
    return (int)m;
}

static uint32_t tab_park(void *impl, const struct hd_cta_grant *g)
{
    struct tab_state *s = impl;
    const uint32_t c = g->cta_slot;
    if (c >= s->p->max_ctas || !s->cta_used[c] || g->smem == 0)
        return UINT32_MAX;
    for (uint32_t i = 0; i < g->nwarps; i++)
        if (g->warp_slot[i] != HD_ALLOC_NO_SLOT)
            s->warp_used[g->warp_slot[i] / 64] &= ~(1ull << (g->warp_slot[i] % 64));
    struct hd_alloc_table_in rq = request(HD_ATAB_FREE, 0, s->cap[RF], s->info[c].entry[RF], 0, 0);
    struct hd_alloc_table_out out;
    exec(s, RF, &rq, c, &out); /* its registers go; its shared-memory entry stays valid */
    const uint8_t e = s->info[c].entry[SMEM];
    s->parked[e] = true;
    s->parked_smem[e] = g->smem;
    s->cta_used[c] = false;
    s->u.ctas--;
    s->u.warps -= s->info[c].warps;
    s->u.threads -= g->threads;
    s->u.regs -= g->regs;
    return e;
}

/* A park_all handle: both entries of the CTA stopped in place. */
#define PARK_ALL 0x10000u

static uint32_t tab_park_all(void *impl, const struct hd_cta_grant *g)
{
    struct tab_state *s = impl;
    const uint32_t c = g->cta_slot;
    if (c >= s->p->max_ctas || !s->cta_used[c])
        return UINT32_MAX;
    const uint8_t r = s->info[c].entry[RF], e = s->info[c].entry[SMEM];
    if (s->parked_rf[r] || s->parked[e])
        return UINT32_MAX;
    for (uint32_t i = 0; i < g->nwarps; i++)
        if (g->warp_slot[i] != HD_ALLOC_NO_SLOT)
            s->warp_used[g->warp_slot[i] / 64] &= ~(1ull << (g->warp_slot[i] % 64));
    s->parked_rf[r] = true; /* both entries stay valid: its registers stay allocated */
    s->parked_regs[r] = g->regs;
    s->parked[e] = true;
    s->parked_smem[e] = g->smem;
    s->cta_used[c] = false;
    s->u.ctas--;
    s->u.warps -= s->info[c].warps;
    s->u.threads -= g->threads;
    return PARK_ALL | (uint32_t)r << 8 | e;
}

/* Slots, warps and threads for a CTA of d (its blocks are parked). */
static bool slots_fit(const struct tab_state *s, const struct hd_cta_demand *d)
{
    const struct hd_sm_params *p = s->p;
    return d->warps <= HD_ALLOC_MAX_WARPS && s->u.ctas < p->max_ctas &&
           s->u.warps + d->warps <= p->max_warps && s->u.threads + d->threads <= p->max_threads;
}

static bool tab_can_unpark(const void *impl, const struct hd_cta_demand *d, uint32_t h)
{
    const struct tab_state *s = impl;
    if (h & PARK_ALL) {
        const uint32_t r = h >> 8 & 0xffu, e = h & 0xffu;
        return r < HD_ALLOC_TABLE_ENTRIES && e < HD_ALLOC_TABLE_ENTRIES && s->parked_rf[r] &&
               s->parked[e] && s->parked_regs[r] == d->regs && s->parked_smem[e] == d->smem &&
               slots_fit(s, d);
    }
    return h < HD_ALLOC_TABLE_ENTRIES && s->parked[h] && s->parked_smem[h] == d->smem &&
           fits_ex(s, d, NULL, true);
}

static bool tab_unpark(void *impl, const struct hd_cta_demand *d, uint32_t h,
                       struct hd_cta_grant *g)
{
    struct tab_state *s = impl;
    if (!tab_can_unpark(s, d, h))
        return false;
    if (h & PARK_ALL) { /* Lin 2.5.5: back on both of its blocks */
        const uint8_t r = (uint8_t)(h >> 8 & 0xffu), e = (uint8_t)(h & 0xffu);
        const uint32_t slot = grant_slots(s, d, g);
        s->info[slot] = (struct cta_info){d->launch, d->priority, s->seq++, d->warps, d->threads,
                                          {r, e}};
        g->reg_base = (uint32_t)s->t[RF].e[r].start * HD_ALLOC_TABLE_RF_UNIT;
        g->smem_base = (uint64_t)s->t[SMEM].e[e].start * HD_ALLOC_TABLE_SMEM_UNIT;
        g->regs = d->regs;
        g->smem = d->smem;
        g->launch = d->launch;
        g->priority = d->priority;
        s->parked_rf[r] = s->parked[e] = false;
        s->cta_used[slot] = true;
        s->u.ctas++;
        s->u.warps += d->warps;
        s->u.threads += d->threads;
        return true;
    }
    const uint32_t slot = grant_slots(s, d, g);
    struct cta_info *in = &s->info[slot];
    *in = (struct cta_info){d->launch, d->priority, s->seq++, d->warps, d->threads, {0, (uint8_t)h}};
    struct hd_alloc_table_in rq = request(HD_ATAB_ALLOC, need(d, RF), s->cap[RF], 0, 0, 0);
    struct hd_alloc_table_out out;
    exec(s, RF, &rq, slot, &out);
    in->entry[RF] = (uint8_t)out.entry_o;
    g->reg_base = (uint32_t)out.start_o * HD_ALLOC_TABLE_RF_UNIT;
    g->smem_base = (uint64_t)s->t[SMEM].e[h].start * HD_ALLOC_TABLE_SMEM_UNIT;
    g->regs = d->regs;
    g->smem = d->smem;
    g->launch = d->launch;
    g->priority = d->priority;
    s->parked[h] = false;
    s->cta_used[slot] = true;
    s->u.ctas++;
    s->u.warps += d->warps;
    s->u.threads += d->threads;
    s->u.regs += d->regs;
    return true;
}
/* }==== */

static bool tab_is_idle(const void *impl)
{
    const struct tab_state *s = impl;
    return s->u.ctas == 0;
}

static void tab_usage(const void *impl, struct hd_alloc_usage *u)
{
    const struct tab_state *s = impl;
    *u = s->u;
}

static void tab_destroy(void *impl)
{
    struct tab_state *s = impl;
    if (!s)
        return;
    for (int t = 0; t < NTAB; t++) {
        hd_hw_destroy(&s->il[t].x);
    }
    free(s->warp_used);
    free(s->cta_used);
    free(s->info);
    free(s->cand);
    free(s);
}

static const struct hd_alloc_ops tab_ops = {
    .name = "lin_tables",
    .can_accept = tab_can_accept,
    .accept = tab_accept,
    .release = tab_release,
    .acquire = tab_acquire,
    .release_part = tab_release_part,
    .plan_victims = tab_plan_victims,
    .tick = tab_tick,
    .next_event = tab_next_event,
    .is_idle = tab_is_idle,
    .usage = tab_usage,
    .destroy = tab_destroy,
    .attach = tab_attach,
    .fault = tab_fault,
    .plan_room = tab_plan_room,
    .park = tab_park,
    .can_unpark = tab_can_unpark,
    .unpark = tab_unpark,
    .park_all = tab_park_all,
};

int hd_sm_alloc_lin_tables(const struct hd_sm_params *p, struct hd_sm_alloc *out)
{
    if (p->registers / HD_ALLOC_TABLE_RF_UNIT > HD_ALLOC_TABLE_UNIT_MAX ||
        p->shared_bytes / HD_ALLOC_TABLE_SMEM_UNIT > HD_ALLOC_TABLE_UNIT_MAX)
        return -1; /* refused earlier with a message (timing_params.c) */
    struct tab_state *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->p = p;
    s->words = (p->max_warps + 63) / 64;
    s->warp_used = calloc(s->words, sizeof *s->warp_used);
    s->cta_used = calloc(p->max_ctas, sizeof *s->cta_used);
    s->info = calloc(p->max_ctas, sizeof *s->info);
    s->cand = calloc(p->max_ctas, sizeof *s->cand);
    if (!s->warp_used || !s->cta_used || !s->info || !s->cand) {
        tab_destroy(s);
        return -1;
    }
    s->cap[RF] = (uint32_t)(p->registers / HD_ALLOC_TABLE_RF_UNIT);
    s->cap[SMEM] = (uint32_t)(p->shared_bytes / HD_ALLOC_TABLE_SMEM_UNIT);
    for (int t = 0; t < NTAB; t++)
        hd_alloc_table_ref_reset(&s->t[t]);
    out->ops = &tab_ops;
    out->impl = s;
    return 0;
}
