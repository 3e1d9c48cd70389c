/* SPDX-License-Identifier: MIT
 * sm_fetch.c - instruction fetch: the L1 instruction cache and decode into the per-warp
 * instruction buffers.
 *
 * Design: a warp fetches when its instruction buffer is empty (as in GPGPU-Sim), up to
 * fetch_per_cycle warps per cycle in round-robin order. Its next PC maps to the address
 * code_base + PC x inst_bytes (each kernel image has its own code window). A hit delivers up to
 * ibuffer_entries consecutive instructions of that line after decode_cycles; a miss sends one
 * line request through the memory interface (the same path as data) and the warp waits for the
 * fill; warps missing on a line already being filled wait for the same fill. Set-associative
 * with LRU replacement; deterministic (stamps are cycle-ordered counters).
 */
#include "mem_tags.h"
#include "sm_impl.h"

#include <stdlib.h>


int hd_sm_icache_init(struct hd_sm *sm)
{
    const struct hd_sm_params *p = sm->p;
    size_t n = (size_t)p->ic_sets * p->ic_ways;
    sm->ic_tag = malloc(n * sizeof *sm->ic_tag);
    sm->ic_lru = calloc(n, sizeof *sm->ic_lru);
    sm->fills = calloc(p->max_warps, sizeof *sm->fills);
    if (!sm->ic_tag || !sm->ic_lru || !sm->fills)
        return -1;
    for (size_t i = 0; i < n; i++)
        sm->ic_tag[i] = UINT64_MAX;
    return 0;
}

static bool ic_lookup(struct hd_sm *sm, uint64_t line)
{
    const struct hd_sm_params *p = sm->p;
    size_t base = (size_t)(line % p->ic_sets) * p->ic_ways;
    for (uint32_t i = 0; i < p->ic_ways; i++)
        if (sm->ic_tag[base + i] == line) {
            sm->ic_lru[base + i] = ++sm->ic_stamp;
            return true;
        }
    return false;
}

static void ic_insert(struct hd_sm *sm, uint64_t line)
{
    const struct hd_sm_params *p = sm->p;
    size_t base = (size_t)(line % p->ic_sets) * p->ic_ways, victim = base;
    for (uint32_t i = 0; i < p->ic_ways; i++) {
        if (sm->ic_tag[base + i] == line)
            return;
        if (sm->ic_tag[base + i] == UINT64_MAX) {
            victim = base + i;
            break;
        }
        if (sm->ic_lru[base + i] < sm->ic_lru[victim])
            victim = base + i;
    }
    sm->ic_tag[victim] = line;
    sm->ic_lru[victim] = ++sm->ic_stamp;
}

void hd_sm_fetch_reset(struct hd_sm *sm, struct hd_twarp *w, uint32_t pc)
{
    w->fetch_pc = pc;
    w->ib_pc = pc;
    w->ib_n = 0;
    hd_bit_set(sm->need_fetch, w->slot, !w->fetch_busy && !w->done && !w->susp);
}

/* Start the fill of `line` (or join the one under way). Returns its index, or HD_SM_NONE if the
 * memory interface cannot take the request this cycle. */
static uint32_t start_fill(struct hd_sm *sm, uint64_t line, uint32_t kernel, uint64_t now)
{
    uint32_t free_slot = HD_SM_NONE;
    for (uint32_t f = 0; f < sm->p->max_warps; f++) {
        if (sm->fills[f].busy && sm->fills[f].line == line)
            return f;
        if (!sm->fills[f].busy && free_slot == HD_SM_NONE)
            free_slot = f;
    }
    if (free_slot == HD_SM_NONE)
        return HD_SM_NONE;
    struct hd_mem_req r = {0};
    r.addr = line * sm->p->ic_line;
    r.bytes = sm->p->ic_line;
    r.kind = HD_MEM_IFETCH;
    r.space = 0;
    r.sm = (uint16_t)sm->id;
    r.kernel = kernel;
    r.tag = hd_tag_make(HD_TAG_IFETCH, free_slot);
    if (!sm->mem->ops->send(sm->mem->impl, &r, now))
        return HD_SM_NONE;
    sm->fills[free_slot].busy = true;
    sm->fills[free_slot].line = line;
    sm->nfills++;
    sm->st->icache_misses++;
    return free_slot;
}

/* One fetch for warp w. Returns true if it started. */
static bool fetch_warp(struct hd_sm *sm, struct hd_twarp *w, uint64_t now)
{
    const struct hd_sm_params *p = sm->p;
    const struct hd_sm_launch *la = sm->cta[w->cta].la;
    const uint32_t ncode = la->l->k->ncode;
    const uint32_t pc = w->fetch_pc;
    if (pc >= ncode) { /* nothing to fetch: the warp ends at its current instruction */
        hd_bit_set(sm->need_fetch, w->slot, false);
        return false;
    }
    const uint64_t addr = la->tk->code_base + (uint64_t)pc * p->inst_bytes;
    const uint64_t line = addr / p->ic_line;
    if (!ic_lookup(sm, line)) {
        uint32_t f = start_fill(sm, line, la->id, now);
        if (f == HD_SM_NONE)
            return false;
        sm->st->fetches++;
        la->info->c.fetches++; /* energy model (model/power) */
        w->fetch_busy = true;
        w->fetch_line = f;
        hd_bit_set(sm->need_fetch, w->slot, false);
        sm->sched[w->sched].ops->long_wait(sm->sched[w->sched].impl, w->slot);
        return true;
    }
    sm->st->fetches++;
    la->info->c.fetches++; /* energy model (model/power) */
    uint32_t in_line = (uint32_t)(((line + 1) * p->ic_line - addr) / p->inst_bytes);
    uint32_t n = p->ibuffer;
    n = in_line < n ? in_line : n;
    n = ncode - pc < n ? ncode - pc : n;
    /* a virtual instruction (annot.h fetch_extra) holds the fetch slot longer */
    const uint32_t extra = hd_annot_fetch_extra_range(la->tk->an, pc, n);
    uint32_t delay = p->decode_cycles + extra;
    if (la->tk->pp && !hd_sm_pp_fetch(sm, w, la->tk, pc, n)) /* pp / bar.pp to the decoder */
        return false;
    if (!hd_sm_event(sm, now, delay, HD_EV_DECODE, w->slot, pc, n))
        return false;
    sm->st->fetch_extra_cycles += extra;
    w->fetch_busy = true;
    w->fetch_line = HD_SM_NONE;
    hd_bit_set(sm->need_fetch, w->slot, false);
    return true;
}

/* The first set bit of b at or after `from` and before `n`, or n. */
static uint32_t next_set(const uint64_t *b, uint32_t from, uint32_t n)
{
    while (from < n) {
        uint64_t word = b[from / 64] >> (from % 64);
        if (word) {
            uint32_t at = from + (uint32_t)__builtin_ctzll(word);
            return at < n ? at : n;
        }
        from = (from / 64 + 1) * 64;
    }
    return n;
}

bool hd_sm_fetch(struct hd_sm *sm, uint64_t now)
{
    const struct hd_sm_params *p = sm->p;
    const uint32_t nw = p->max_warps, start = sm->fetch_rr;
    uint32_t done = 0;
    /* slots start..nw-1, then 0..start-1 */
    for (int pass = 0; pass < 2 && done < p->fetch_per_cycle; pass++) {
        uint32_t lo = pass == 0 ? start : 0, hi = pass == 0 ? nw : start;
        for (uint32_t slot = next_set(sm->need_fetch, lo, hi); slot < hi; /* next below */
             slot = next_set(sm->need_fetch, slot + 1, hi)) {
            if (done >= p->fetch_per_cycle)
                break;
            struct hd_twarp *w = &sm->w[slot];
            if (w->fetch_after > now)
                continue;
            if (fetch_warp(sm, w, now)) {
                done++;
                sm->fetch_rr = (slot + 1) % nw;
            }
        }
    }
    return done > 0;
}

void hd_sm_icache_fill(struct hd_sm *sm, uint32_t f, uint64_t now)
{
    if (f >= sm->p->max_warps || !sm->fills[f].busy)
        return;
    ic_insert(sm, sm->fills[f].line);
    sm->fills[f].busy = false;
    sm->nfills--;
    for (uint32_t i = 0; i < sm->p->max_warps; i++) {
        struct hd_twarp *w = &sm->w[i];
        if (w->state != HD_WS_EMPTY && w->fetch_busy && w->fetch_line == f && w->ib_n == 0) {
            w->fetch_busy = false;
            w->fetch_line = HD_SM_NONE;
            hd_bit_set(sm->need_fetch, w->slot, !w->done && !w->susp);
        }
    }
    (void)now;
}
