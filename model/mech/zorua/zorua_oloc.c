/* SPDX-License-Identifier: MIT
 * zorua_oloc.c - Zorua's mapping tables in the operand and shared-memory paths (Zorua Sec. 4.2,
 * Sec. 4.4 "a 2-cycle penalty per mapping-table access"; sm_oloc.h, docs/oloc.md): every
 * register operand word is looked up in the RMT (mt_latency cycles of a pipelined stage ahead of
 * the reads, once per instruction: its result comes that much later, its collector is not held;
 * session 21, docs/zorua.md "Session 21: the best point"); a word whose
 * register set is mapped to the swap space is read from there, a 128-byte SWAP-class load of
 * (logical warp, register set, register) in the SM's swap window through the memory system;
 * every ld/st.shared looks up the sets its lanes touch in the SMT (+mt_latency; the
 * substrate's smem_access hook, mech.h): the lanes of a set mapped to the swap space are read or
 * written there, a SWAP-class access of (SM, logical CTA, set, offset) in the SM's swap window
 * through the memory system, which the access waits for (Sec. 4.3; issue 32, docs/zorua.md
 * "Scratchpad in the loop").
 *
 * Design: the policy's state is the allocator's (zorua_alloc.h): the warp slot of a query names
 * the logical warp (slot_wid), its register set = register / reg_set. A swapped word's fill
 * lands, filled() marks (slot, register), the retry finds the mark and reads the word (then the
 * mark is cleared: the next read goes to memory again: the paper describes no migration back,
 * digest Sec. 2.8). A destination word in a swapped set is counted, not timed (the policy
 * interface has no store path for writebacks). No ports of its own.
 */
#include "zorua_alloc.h"

#include "addr_map.h"
#include "mech.h"

/* Event (ii): the warp in `slot` reached phase `ph` (1-based) of kernel k, an event when its
 * group differs from its last event's. Returns true when it must wait for the coordinator (its
 * new phase needs sets it cannot have yet). */
static bool phase_event(struct zalloc *a, uint32_t slot, const struct zph_kernel *k, uint32_t ph)
{
    const uint32_t w = a->slot_wid[slot];
    /* a phase a barrier begins is in its specifier's group: no specifier, no event (L314) */
    const uint16_t g = (uint16_t)(ph <= k->nph ? 1u + k->group[ph - 1] : 0x8000u | ph);
    if (a->cur_phase[slot] != ph && a->wgrp[w] == g)
        a->cur_phase[slot] = (uint16_t)ph;
    if (a->cur_phase[slot] != ph) {
        a->cur_phase[slot] = (uint16_t)ph;
        a->wgrp[w] = g;
        uint32_t need = ph <= k->nph ? k->need[ph - 1] : a->spec[w];
        need = need < a->spec[w] ? need : a->spec[w]; /* never beyond the specification */
        need = need ? need : 1;
        uint32_t ssets = a->z.c[a->z.w[w].cta].smem_sets;
        /* in the loop the event is the decoder block's (zorua_decloop.h): a phase specifier of
         * the phase's live registers and scratchpad bytes, in its sets */
        if (a->dec && !zdl_phase(a->dec, a->sm, w, need * a->p->z_reg_set,
                                 ssets * a->p->z_smem_set, &need, &ssets))
            return false; /* (no event: sizes checked at zdl_add_sm, so never) */
        if (a->bd) { /* the coordinator block's event: it releases and readmits */
            a->z.w[w].reg_sets = need;
            a->z.phase_changes++;
            zbd_phase(a, w, need, ssets);
        } else {
            zc_phase(&a->z, w, need, ssets, false);
            a->dirty = true;
        }
        if (a->st)
            a->st->zorua_phase_events++;
    }
    if (a->bd) /* (the warp waits at issue: hd_zorua_issue_phase) */
        return false;
    if (a->z.w[w].where != ZC_SCHED)
        hd_zorua_run(a);
    if (a->z.w[w].where == ZC_SCHED) {
        a->waiting[slot] = 0;
        return false;
    }
    /* A running warp waits at most 16 retries (64 cycles), then the coordinator oversubscribes
     * for it regardless (deadlock rule 3: its CTA-mates may wait for it at a barrier while
     * holding the registers it needs). */
    if (++a->waiting[slot] > 16 && zc_admit(&a->z, w, true)) {
        a->waiting[slot] = 0; /* (counted in the coordinator's `forced`) */
        return false;
    }
    return true;
}

void hd_zorua_issue_phase(struct zalloc *a, uint32_t slot, const struct hd_annot *an, uint32_t pc)
{
    if (!a->bd || !a->ph || !an || slot >= a->p->max_warps)
        return;
    const struct zph_kernel *k = an == a->ph_an ? a->ph_k : NULL;
    for (uint32_t i = 0; i < a->ph->nk && !k; i++)
        if (a->ph->k[i].an == an) {
            k = &a->ph->k[i];
            a->ph_an = an;
            a->ph_k = k;
        }
    const uint32_t ph = k ? hd_annot_get(k->an, k->col, pc) : 0;
    if (ph)
        (void)phase_event(a, slot, k, ph);
}

static void locate(void *impl, const struct hd_oloc_query *q, struct hd_oloc *out)
{
    struct zalloc *a = impl;
    out->stage = (uint16_t)a->p->z_mt_latency; /* the RMT: a pipelined stage ahead of the reads */
    if (q->warp >= a->p->max_warps)
        return;
    const struct zph_kernel *k = a->ph && !a->bd ? zph_of(a->ph, q->launch) : NULL;
    const uint32_t ph = k ? hd_annot_get(k->an, k->col, q->pc) : 0;
    if (ph && phase_event(a, q->warp, k, ph)) { /* wait for the coordinator: retry */
        if (a->st)
            a->st->zorua_phase_waits++;
        out->miss = HD_OLOC_FILL_PORT;
        out->fill_port = (uint16_t)(a->p->reg_banks);
        out->fill_latency = 4;
        return;
    }
    const uint32_t w = a->slot_wid[q->warp], set = q->reg / a->p->z_reg_set;
    if (a->st)
        a->st->zorua_rf_reads++;
    uint16_t *u = &a->use[(size_t)w * a->reg_sets_max + (set < a->reg_sets_max ? set : 0)];
    *u += *u < UINT16_MAX;
    if (zmt_translate(&a->z.rmt, w, set) != ZMT_SWAP) /* (the block's lookup port) */
        return;
    uint64_t *m = &a->landed[q->warp][(q->reg >> 6) & 3];
    const uint64_t bit = 1ull << (q->reg & 63);
    if (*m & bit) { /* its fill landed: read it now */
        *m &= ~bit;
        return;
    }
    if (a->st)
        a->st->zorua_rf_swap_reads++;
    out->kind = HD_OLOC_SWAPPED;
    out->miss = HD_OLOC_FILL_MEM;
    out->fill_bytes = 128;
    out->fill_cached = a->p->z_swap_l1; /* L308: a global load, "typically found in L1/L2" */
    out->fill_addr = HD_WIN_SWAP_BASE + (uint64_t)a->sm * HD_WIN_SWAP_STRIDE +
                     ((uint64_t)w * a->reg_sets_max * a->p->z_reg_set + q->reg) * 128u;
}

static void filled(void *impl, const struct hd_oloc_query *q)
{
    struct zalloc *a = impl;
    if (q->warp < a->p->max_warps && !a->waiting[q->warp])
        a->landed[q->warp][(q->reg >> 6) & 3] |= 1ull << (q->reg & 63);
}

static void locate_dst(void *impl, const struct hd_oloc_query *q, struct hd_oloc *out)
{
    (void)out;
    struct zalloc *a = impl;
    if (q->warp < a->p->max_warps && a->st &&
        zmt_lookup(&a->z.rmt, a->slot_wid[q->warp], q->reg / a->p->z_reg_set) == ZMT_SWAP)
        a->st->zorua_rf_swap_writes++;
}

void hd_zorua_smem_access(struct zalloc *a, const struct hd_hook_smem *acc,
                          struct hd_hook_smem_ans *ans)
{
    if (!a->zorua)
        return; /* (WLM: no mapping tables) */
    ans->extra += a->p->z_mt_latency;
    if (a->st)
        a->st->zorua_smem_accesses++;
    struct zmt *m = &a->z.smt;
    const uint32_t blk = acc->cta_slot, sz = a->p->z_smem_set;
    if (blk >= m->nids)
        return;
    /* each distinct set the lanes touch is looked up once (the SMT's lookup port) */
    uint32_t sets[64], where[64], n = 0;
    for (uint32_t l = 0; l < 32; l++) {
        if (!(acc->exec >> l & 1u))
            continue;
        const uint32_t set = acc->addr[l] / sz;
        uint32_t k = 0;
        while (k < n && sets[k] != set)
            k++;
        if (k == n) {
            if (n == sizeof sets / sizeof sets[0] || set >= m->nsets)
                continue; /* (beyond the table: the functional model refused it already) */
            sets[n] = set;
            where[n] = zmt_translate(m, blk, set);
            uint16_t *u = &a->suse[(size_t)blk * m->nsets + set];
            *u += *u < UINT16_MAX;
            if (a->st) {
                a->st->zorua_smem_lookups++;
                a->st->zorua_smem_swap_lookups += where[n] == ZMT_SWAP;
            }
            n++;
        }
        if (where[k] != ZMT_SWAP)
            continue;
        ans->swap |= 1u << l;
        ans->swap_cached = a->p->z_swap_l1;
        ans->swap_addr[l] = HD_WIN_SWAP_BASE + (uint64_t)a->sm * HD_WIN_SWAP_STRIDE +
                            HD_WIN_SWAP_STRIDE / 2 + ((uint64_t)blk * m->nsets + set) * sz +
                            acc->addr[l] % sz;
    }
}

static const uint8_t coord_port_reads[1] = {255}; /* the coordinator's retry: no contention */

const struct hd_oloc_ops hd_zorua_oloc_ops = {
    .name = "zorua", .nports = 1, .port_reads = coord_port_reads, .locate = locate,
    .locate_dst = locate_dst, .filled = filled,
};
