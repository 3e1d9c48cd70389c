/* SPDX-License-Identifier: MIT
 * gpuduet_bitmap.c - the unified-storage allocation bitmap's C reference (gpuduet_bitmap.h).
 *
 * Design: the FSM mirrors the RTL's (idle, scan one word per cycle in two pipeline stages - the
 * word's hit vector, then its lowest hit - and mark one word per cycle);
 * the map's words are an hd_bitmap (tables/hd_bitmap.h) and every bit read or written goes
 * through its test / set_range / clear_range / count on a one-word view.
 */
#include "gpuduet_bitmap.h"

#include <string.h>

#define HD_PORTS_DEF "gpuduet_bitmap_ports.def"
#define HD_PORTS_IN_T struct hd_gpuduet_bitmap_in
#define HD_PORTS_OUT_T struct hd_gpuduet_bitmap_out
#define HD_PORTS_BLOCK_VAR hd_gpuduet_bitmap_block
#include "hd_ports_table.h"

#define ADDR_MASK (((uint64_t)1 << GPUDUET_BITMAP_AW) - 1u)
#define N_MASK (((uint64_t)1 << (GPUDUET_BITMAP_AW + 1)) - 1u)

uint32_t hd_gpuduet_bitmap_region_lo(unsigned r)
{
    return r == HD_GBM_RF ? 0u : r == HD_GBM_SMEM ? GPUDUET_BITMAP_SmemLo : GPUDUET_BITMAP_L1Lo;
}

uint32_t hd_gpuduet_bitmap_region_units(unsigned r)
{
    return r == HD_GBM_RF     ? GPUDUET_BITMAP_SmemLo
           : r == HD_GBM_SMEM ? GPUDUET_BITMAP_L1Lo - GPUDUET_BITMAP_SmemLo
                              : GPUDUET_BITMAP_Units - GPUDUET_BITMAP_L1Lo;
}

/* The region a word belongs to. */
static unsigned region_of(uint32_t word)
{
    return word * 64u < GPUDUET_BITMAP_SmemLo ? HD_GBM_RF
           : word * 64u < GPUDUET_BITMAP_L1Lo ? HD_GBM_SMEM
                                              : HD_GBM_L1;
}

static struct hd_bitmap hd_gpuduet_bitmap_view(struct hd_gpuduet_bitmap_state *s)
{
    struct hd_bitmap m = {s->w, HD_GBM_UNITS};
    return m;
}

void hd_gpuduet_bitmap_ref_reset(struct hd_gpuduet_bitmap_state *s)
{
    memset(s, 0, sizeof *s);
    struct hd_bitmap m = hd_gpuduet_bitmap_view(s);
    hd_bitmap_clear_all(&m);
    for (unsigned r = 0; r < HD_GBM_NREGIONS; r++)
        s->freec[r] = hd_gpuduet_bitmap_region_units(r);
    hd_block_reset_values(&hd_gpuduet_bitmap_block, HD_DIR_OUT, &s->q);
}

static void done(struct hd_gpuduet_bitmap_state *s, bool ok, uint32_t base)
{
    s->q.done_v_o = 1;
    s->q.done_al_o = s->al;
    s->q.done_ok_o = ok;
    s->q.done_base_o = ok && s->al ? base : 0;
    s->fsm = HD_GBM_IDLE;
}

static void take(struct hd_gpuduet_bitmap_state *s, const struct hd_gpuduet_bitmap_in *in)
{
    if (in->fr_v_i & 1u) {
        uint32_t base = (uint32_t)(in->fr_base_i & ADDR_MASK), n = (uint32_t)(in->fr_n_i & N_MASK);
        s->al = 0;
        if (n == 0 || base + n > HD_GBM_UNITS) {
            done(s, false, 0);
            return;
        }
        s->lo = base;
        s->hi = base + n;
        s->word = base / 64u;
        s->fsm = HD_GBM_MARK;
    } else if (in->al_v_i & 1u) {
        unsigned r = (unsigned)(in->al_region_i & 3u);
        s->n = (uint32_t)(in->al_n_i & N_MASK);
        s->al = 1;
        if (r >= HD_GBM_NREGIONS || s->n == 0) {
            done(s, false, 0);
            return;
        }
        uint32_t lo = hd_gpuduet_bitmap_region_lo(r);
        s->word = lo / 64u;
        s->last = (lo + hd_gpuduet_bitmap_region_units(r)) / 64u - 1u;
        s->run = 0;
        s->fsm = HD_GBM_SCAN;
    }
}

/* The two-stage scan (one word per cycle). Stage 2 first: the hits of the word stage 1 read
 * last cycle; the lowest ends the first-fit run. Else stage 1 reads word `word`: bit j hits
 * when the free run ending at j (from the run carried in from the previous word's top) reaches
 * n; the word's top run is carried to the next word. */
static void scan(struct hd_gpuduet_bitmap_state *s)
{
    if (s->hv && s->hit) {
        const uint32_t j = (uint32_t)__builtin_ctzll(s->hit);
        s->lo = s->hword * 64u + j + 1u - s->n;
        s->hi = s->lo + s->n;
        s->word = s->lo / 64u;
        s->fsm = HD_GBM_MARK;
        s->hv = 0;
        s->hit = 0;
        return;
    }
    if (s->hv && s->hword == s->last) {
        done(s, false, 0);
        s->hv = 0;
        return;
    }
    struct hd_bitmap v = {&s->w[s->word], 64u};
    uint64_t hit = 0;
    uint32_t run = s->run;
    for (uint32_t i = 0; i < 64u; i++) {
        run = hd_bitmap_test(&v, i) ? 0 : run + 1u;
        if (run >= s->n)
            hit |= 1ull << i;
    }
    s->hv = 1;
    s->hit = hit;
    s->hword = s->word;
    s->run = run;
    if (s->word != s->last)
        s->word++;
}

static void mark(struct hd_gpuduet_bitmap_state *s)
{
    struct hd_bitmap v = {&s->w[s->word], 64u};
    uint32_t w0 = s->word * 64u;
    uint32_t first = s->lo > w0 ? s->lo - w0 : 0;
    uint32_t end = s->hi < w0 + 64u ? s->hi - w0 : 64u;
    uint32_t before = hd_bitmap_count(&v);
    if (s->al)
        hd_bitmap_set_range(&v, first, end - first);
    else
        hd_bitmap_clear_range(&v, first, end - first);
    uint32_t after = hd_bitmap_count(&v);
    s->freec[region_of(s->word)] += before - after; /* modulo 2^32: - on a set */
    if (s->hi <= w0 + 64u)
        done(s, true, s->lo);
    else
        s->word++;
}

void hd_gpuduet_bitmap_ref_step(struct hd_gpuduet_bitmap_state *s,
                                const struct hd_gpuduet_bitmap_in *in,
                                struct hd_gpuduet_bitmap_out *out)
{
    *out = s->q;
    out->busy_o = s->fsm != HD_GBM_IDLE;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    if (s->fsm == HD_GBM_IDLE)
        take(s, in);
    else if (s->fsm == HD_GBM_SCAN)
        scan(s);
    else
        mark(s);
    if (!(in->rd_v_i & 1u))
        return;
    s->q.rd_v_o = 1;
    s->q.rd_free_rf_o = s->freec[HD_GBM_RF];
    s->q.rd_free_smem_o = s->freec[HD_GBM_SMEM];
    s->q.rd_free_l1_o = s->freec[HD_GBM_L1];
}

bool hd_gpuduet_bitmap_ref_idle(const struct hd_gpuduet_bitmap_state *s,
                                const struct hd_gpuduet_bitmap_in *in)
{
    return !((in->al_v_i | in->fr_v_i | in->rd_v_i) & 1u) && s->fsm == HD_GBM_IDLE &&
           !(s->q.done_v_o & 1u) && !(s->q.rd_v_o & 1u);
}
