/* SPDX-License-Identifier: MIT
 * shieh_cands.h - Shieh's allocation alignment and candidate victim sets, as the block
 * scheduler's processor computes them (Shieh thesis §2.2, §3.2, §3.3.1, Fig 3.2/3.3/3.7/3.8;
 * digest §2.2, §2.3, §2.6 and Appendix A). Pure functions, no state.
 *
 * Positions (allocation alignment, §2.2): a TB of the preempting kernel may only be placed at a
 * predetermined position p, whose register range is [p*r_p, (p+1)*r_p) and whose shared-memory
 * range is [p*s_p, (p+1)*s_p) (one index for both, a column of Fig 3.7). K = min(floor(RF/r_p),
 * floor(SMEM/s_p) when s_p > 0, kmax): the geometric capacity; thread and CTA limits are checked
 * when a TB is placed (digest §2.2 recommendation), and kmax is the number of candidate rows the
 * hardware has (configs/rtl/shieh_victim_sets.ini CandMax), so positions past it are not used.
 *
 * Candidates (§2.3, L228): the running TBs whose register range or shared-memory range overlaps
 * position p's form candidate p (the union of the register and the shared-memory sets of the
 * same position); candidates may overlap (a TB straddling a boundary is in both). A position
 * that holds a preempting TB has no candidate (invalid). An empty valid candidate is a position
 * that no running TB occupies. Bit j of a bitset = running-TB slot j; as text (Fig 3.8) slot 0
 * is the leftmost character.
 *
 * Placement (§2.6): the lowest position whose candidate is valid and empty, that holds no
 * preempting TB and whose ranges the SM's allocator reports free (a drained victim leaves its
 * candidate's bits at once but its space only when it finishes); the caller checks the thread
 * and CTA-slot limits.
 */
#ifndef HD_SHIEH_CANDS_H
#define HD_SHIEH_CANDS_H

#include <stdbool.h>
#include <stdint.h>

#define HD_SHIEH_MAX_TBS 64 /* running-TB slots (bits of a candidate) */
#define HD_SHIEH_MAX_POS 64 /* positions */

/* What one running-TB slot holds (a slot without a TB has valid = false). */
struct hd_shieh_range {
    bool valid;
    uint32_t reg_base, regs;
    uint64_t smem_base, smem;
};

/* The preempting kernel's footprint per TB. */
struct hd_shieh_footprint {
    uint32_t regs;
    uint64_t smem;
};

/* K: positions for footprint f on an SM of rf_cap registers and smem_cap bytes, at most kmax
 * (0 when the footprint is all zero or does not fit once). */
uint32_t hd_shieh_positions(const struct hd_shieh_footprint *f, uint32_t rf_cap, uint64_t smem_cap,
                            uint32_t kmax);

/* Candidate bitsets of positions 0..k-1 into cand[0..k) over the ntbs (<= HD_SHIEH_MAX_TBS)
 * slots of tbs; *valid gets bit p for each position that does not hold a preempting TB
 * (issued bit p clear); invalid candidates are 0. */
void hd_shieh_candidates(const struct hd_shieh_footprint *f, uint32_t k,
                         const struct hd_shieh_range *tbs, uint32_t ntbs, uint64_t issued,
                         uint64_t *cand, uint64_t *valid);

/* The position to place a preempting TB at: the lowest p < k with valid bit p set, cand[p] == 0,
 * issued bit p clear and free bit p set; -1 if none. */
int hd_shieh_place(const uint64_t *cand, uint64_t valid, uint64_t issued, uint64_t free_pos,
                   uint32_t k);

/* Bitset as Fig 3.8 text: n characters, slot 0 leftmost ('1' member, '0' not). buf has n + 1. */
void hd_shieh_bits_str(uint64_t bits, unsigned n, char *buf);

#endif
