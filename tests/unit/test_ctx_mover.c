/* SPDX-License-Identifier: MIT
 * test_ctx_mover.c - the on-chip context mover, its unified space and the L1D ways reserved
 * for contexts (issue 25 item 3; model/ctx/ctx_mover.h, ctx_uspace.h, model/mem/l1_reserve.h;
 * docs/mover.md), against hand-worked cases:
 *   - one warp's 40 registers (40 x 128 B = 5120 B) from the register file to the L1D region:
 *     40 cycles at 128 B per cycle, 20 at 256, 80 at 64; 5000 B take 40 cycles too (a partial
 *     last beat); with the pipeline on the register file every third cycle (0, 3, 6, ...) the
 *     move waits 20 cycles and its last beat is in cycle 59; a busy L1D does not
 *     delay a register-file to shared-memory move; jobs complete in submission order;
 *   - the unified space: the address format, first fit in 128-byte units, capacity changes;
 *   - a 32-set, 4-way tag array cycling over 128 lines hits every access after warm-up; with
 *     2 ways reserved it hits none (64 lines of capacity under LRU), lookups never find and
 *     replacement never picks a reserved way, the dirty lines displaced are written back (one
 *     call each), and given back the cache hits again.
 */
#include "cache_tags.h"
#include "ctx_mover.h"
#include "ctx_uspace.h"
#include "l1_reserve.h"
#include "testutil.h"

#include <stdint.h>

struct done_log {
    uint64_t tag[8], at[8];
    unsigned n;
};

static void on_done(void *arg, uint64_t tag, uint64_t now)
{
    struct done_log *d = arg;
    if (d->n < 8) {
        d->tag[d->n] = tag;
        d->at[d->n] = now;
    }
    d->n++;
}

/* Run the mover from cycle 0 until idle; the register file is busy in cycles c with
 * c % rf_every == 0 (0: never). Returns the cycles stepped. */
static uint64_t run(struct hd_ctx_mover *mv, unsigned rf_every, unsigned other_busy)
{
    uint64_t c = 0;
    while (hd_ctx_mover_busy(mv) && c < 100000) {
        unsigned busy = other_busy;
        if (rf_every && c % rf_every == 0)
            busy |= 1u << HD_UA_RF;
        hd_ctx_mover_step(mv, busy, c);
        c++;
    }
    return c;
}

static unsigned fwd_hits(struct hd_tags *t, unsigned rounds)
{
    unsigned hits = 0;
    for (unsigned r = 0; r < rounds; r++)
        for (uint64_t line = 0; line < 128; line++) {
            const uint64_t a = line * 128;
            uint32_t e = hd_tags_find(t, a);
            if (e != HD_TAGS_NONE) {
                hits++;
                hd_tags_touch(t, e);
                continue;
            }
            e = hd_tags_victim(t, a);
            hd_tags_install(t, e, a);
            t->valid[e] = hd_tags_all(t);
        }
    return hits;
}

static void count_wb(void *arg, uint32_t e)
{
    (void)e;
    (*(unsigned *)arg)++;
}

int main(void)
{
    struct hd_test_state t = {0};
    struct hd_ctx_mover mv;
    struct done_log d = {0};
    const uint32_t rf = hd_uaddr_make(HD_UA_RF, 100), l1 = hd_uaddr_make(HD_UA_L1D, 0);
    const uint32_t sm = hd_uaddr_make(HD_UA_SMEM, 3);

    hd_test_begin(&t, "one warp's 40 registers at 64, 128, 256 bytes per cycle");
    const uint32_t widths[3] = {64, 128, 256};
    const uint64_t want[3] = {80, 40, 20};
    for (unsigned i = 0; i < 3; i++) {
        HD_CHECK(&t, hd_ctx_mover_init(&mv, widths[i], on_done, &d) == 0);
        HD_CHECK(&t, hd_ctx_mover_submit(&mv, rf, l1, 40 * 128, 7, 0) == 0);
        HD_CHECK_U64(&t, want[i], hd_ctx_mover_cycles(&mv, 40 * 128));
        HD_CHECK_U64(&t, want[i], run(&mv, 0, 0));
        HD_CHECK_U64(&t, want[i], mv.st.move_cycles);
        HD_CHECK_U64(&t, 0, mv.st.wait_cycles);
        HD_CHECK_U64(&t, 5120, mv.st.bytes);
        hd_ctx_mover_free(&mv);
    }
    HD_CHECK(&t, hd_ctx_mover_init(&mv, 128, on_done, &d) == 0);
    HD_CHECK(&t, hd_ctx_mover_submit(&mv, rf, l1, 5000, 1, 0) == 0);
    HD_CHECK_U64(&t, 40, run(&mv, 0, 0));
    hd_ctx_mover_free(&mv);

    hd_test_begin(&t, "the pipeline on the register file every third cycle");
    d.n = 0;
    HD_CHECK(&t, hd_ctx_mover_init(&mv, 128, on_done, &d) == 0);
    HD_CHECK(&t, hd_ctx_mover_submit(&mv, rf, l1, 40 * 128, 42, 0) == 0);
    HD_CHECK_U64(&t, 60, run(&mv, 3, 0));
    HD_CHECK_U64(&t, 40, mv.st.move_cycles);
    HD_CHECK_U64(&t, 20, mv.st.wait_cycles);
    HD_CHECK_U64(&t, 20, mv.st.wait_by[HD_UA_RF]);
    HD_CHECK_U64(&t, 0, mv.st.wait_by[HD_UA_L1D]);
    HD_CHECK_U64(&t, 1, d.n);
    HD_CHECK_U64(&t, 42, d.tag[0]);
    HD_CHECK_U64(&t, 59, d.at[0]);
    HD_CHECK_U64(&t, 59, mv.st.latency); /* submitted in cycle 0, stepped from it */
    hd_ctx_mover_free(&mv);

    hd_test_begin(&t, "a busy L1D does not delay a register-file to shared-memory move; order");
    d.n = 0;
    HD_CHECK(&t, hd_ctx_mover_init(&mv, 128, on_done, &d) == 0);
    for (unsigned j = 0; j < 12; j++) /* more than the ring's first capacity */
        HD_CHECK(&t, hd_ctx_mover_submit(&mv, rf, sm, 256, j, 0) == 0);
    HD_CHECK_U64(&t, 24, run(&mv, 0, 1u << HD_UA_L1D));
    HD_CHECK_U64(&t, 0, mv.st.wait_cycles);
    HD_CHECK_U64(&t, 12, d.n);
    for (unsigned j = 0; j < 8; j++) {
        HD_CHECK_U64(&t, j, d.tag[j]);
        HD_CHECK_U64(&t, 2 * j + 1, d.at[j]);
    }
    hd_test_begin(&t, "refused moves");
    HD_CHECK(&t, hd_ctx_mover_submit(&mv, rf, hd_uaddr_make(HD_UA_RF, 5), 128, 0, 0) != 0);
    HD_CHECK(&t, hd_ctx_mover_submit(&mv, HD_UADDR_NONE, l1, 128, 0, 0) != 0);
    HD_CHECK(&t, hd_ctx_mover_submit(&mv, rf, l1, 0, 0, 0) != 0);
    HD_CHECK(&t, !hd_ctx_mover_busy(&mv));
    hd_ctx_mover_free(&mv);

    hd_test_begin(&t, "unified space: format and first fit");
    HD_CHECK_U64(&t, 0x40000005u, hd_uaddr_make(HD_UA_L1D, 5));
    HD_CHECK_U64(&t, HD_UA_SMEM, hd_uaddr_array(hd_uaddr_make(HD_UA_SMEM, 77)));
    HD_CHECK_U64(&t, 77, hd_uaddr_unit(hd_uaddr_make(HD_UA_SMEM, 77)));
    HD_CHECK(&t, !hd_uaddr_valid(HD_UADDR_NONE));
    struct hd_uspace us;
    const uint32_t max[HD_UA_COUNT] = {100, 10, 64};
    HD_CHECK(&t, hd_uspace_init(&us, max) == 0);
    const uint32_t a = hd_uspace_alloc(&us, HD_UA_RF, 1000); /* 8 units */
    HD_CHECK_U64(&t, hd_uaddr_make(HD_UA_RF, 0), a);
    HD_CHECK_U64(&t, hd_uaddr_make(HD_UA_RF, 8), hd_uspace_alloc(&us, HD_UA_RF, 128));
    HD_CHECK_U64(&t, 9, us.used[HD_UA_RF]);
    HD_CHECK(&t, hd_uspace_release(&us, a, 1000) == 0);
    HD_CHECK(&t, hd_uspace_release(&us, a, 1000) != 0); /* not allocated any more */
    HD_CHECK_U64(&t, hd_uaddr_make(HD_UA_RF, 0), hd_uspace_alloc(&us, HD_UA_RF, 256));
    HD_CHECK_U64(&t, HD_UADDR_NONE, hd_uspace_alloc(&us, HD_UA_SMEM, 11 * 128));
    HD_CHECK(&t, hd_uspace_set_cap(&us, HD_UA_RF, 5) != 0); /* unit 8 is in use */
    HD_CHECK(&t, hd_uspace_set_cap(&us, HD_UA_L1D, 0) == 0);
    HD_CHECK_U64(&t, HD_UADDR_NONE, hd_uspace_alloc(&us, HD_UA_L1D, 128));
    HD_CHECK(&t, hd_uspace_set_cap(&us, HD_UA_L1D, 64) == 0);
    HD_CHECK_U64(&t, hd_uaddr_make(HD_UA_L1D, 0), hd_uspace_alloc(&us, HD_UA_L1D, 64 * 128));
    hd_uspace_free(&us);

    hd_test_begin(&t, "L1D ways reserved: capacity, write-backs, given back");
    struct hd_tags tg;
    HD_CHECK(&t, hd_tags_init(&tg, 32, 4, 128, false) == 0);
    fwd_hits(&tg, 1);                                /* warm */
    HD_CHECK_U64(&t, 3 * 128, fwd_hits(&tg, 3));     /* 128 lines fit 4 x 32 */
    unsigned dirty = 0;
    for (uint32_t e = 0; e < 32 * 4; e++)            /* every odd line dirty */
        if ((hd_tags_addr(&tg, e) / 128) % 2) {
            tg.dirty[e] = hd_tags_all(&tg);
            dirty += e % 4 >= 2;                     /* in the ways to reserve */
        }
    unsigned wb = 0;
    HD_CHECK_U64(&t, 2, hd_tags_reserve(&tg, 2, count_wb, &wb));
    HD_CHECK_U64(&t, dirty, wb);
    HD_CHECK(&t, dirty > 0);
    HD_CHECK_U64(&t, 2, hd_tags_reserved(&tg));
    HD_CHECK_U64(&t, 64, fwd_hits(&tg, 1)); /* the 2 lines per set left in ways 0-1 hit once */
    HD_CHECK_U64(&t, 0, fwd_hits(&tg, 3));  /* then 64 lines of capacity, LRU cycling: none */
    for (uint32_t e = 0; e < 32 * 4; e++)
        if (e % 4 >= 2)
            HD_CHECK(&t, hd_tags_pinned(&tg, e));
    for (uint64_t line = 0; line < 256; line++)     /* never picked, never found */
        HD_CHECK(&t, hd_tags_victim(&tg, line * 128) % 4 < 2 &&
                         (hd_tags_find(&tg, line * 128) == HD_TAGS_NONE ||
                          hd_tags_find(&tg, line * 128) % 4 < 2));
    HD_CHECK_U64(&t, 3, hd_tags_reserve(&tg, 9, NULL, NULL)); /* one way always stays */
    HD_CHECK_U64(&t, 0, hd_tags_reserve(&tg, 0, NULL, NULL));
    HD_CHECK_U64(&t, 0, hd_tags_reserved(&tg));
    fwd_hits(&tg, 1);
    HD_CHECK_U64(&t, 3 * 128, fwd_hits(&tg, 3));
    hd_tags_free(&tg);
    return hd_test_finish(&t);
}
