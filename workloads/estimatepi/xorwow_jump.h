/* SPDX-License-Identifier: MIT
 * xorwow_jump.h - host side of the XORWOW generators of estimatepi and asianoption: the step,
 * the seeded start state, and the jump-ahead tables their initRNG kernels read.
 *
 * XORWOW (Marsaglia; curand's default generator): five words x0..x4 and a Weyl counter d; a step
 * is t = x0 ^ (x0 >> 2); x0..x3 = x1..x4; x4 = (x4 ^ (x4 << 4)) ^ (t ^ (t << 1)); d += 362437;
 * output x4 + d. The xorshift part is a linear map M on the 160-bit state over GF(2), so 2^k steps
 * are the matrix M^(2^k) (columns = images of the unit vectors; squaring doubles the jump).
 * Thread `tid`'s subsequence starts tid * 2^XW_SKIP_LOG2 steps after the seed state: the kernel
 * applies J_b = M^(2^(XW_SKIP_LOG2 + b)) for every set bit b of tid, each as 40 slices of 4 state
 * bits x 16 nibble values x 5 words (the XOR of the columns a nibble selects). d is unchanged by
 * such jumps (362437 * 2^k = 0 mod 2^32 for k >= 32).
 */
#ifndef HD_WL_XORWOW_JUMP_H
#define HD_WL_XORWOW_JUMP_H

#include <stdint.h>

#define XW_SKIP_LOG2 40                    /* must match the kernels' */
#define XW_SLICES 40                       /* 160 state bits / 4 */
#define XW_TABLE_WORDS (XW_SLICES * 16 * 5) /* words per jump matrix in the device table */
#define XW_WEYL 362437u

struct xw_state {
    uint32_t x[5], d;
};

/* The start state from a 64-bit seed (the same for every thread before its jump). */
void xw_seed(struct xw_state *s, uint64_t seed);
/* One step: advances s, returns its output. */
uint32_t xw_next(struct xw_state *s);

/* The jump matrices J_0 .. J_{bits-1} (host copy, for the reference) and their device table. */
struct xw_jumps {
    int bits;
    uint32_t (*mat)[160][5]; /* bits matrices, as columns */
    uint32_t *table;          /* bits * XW_TABLE_WORDS words */
};
/* Builds the jumps for thread indices below 2^bits. Before that it checks the squaring against
 * plain stepping (M^(2^k) applied to `check` equals 2^k steps, k = 0 .. 12). Returns 0, -1 when
 * out of memory, -2 when the check fails (a bug, with *bad_k set). */
int xw_jumps_build(struct xw_jumps *j, int bits, const struct xw_state *check, int *bad_k);
void xw_jumps_free(struct xw_jumps *j);
/* s jumped to thread tid's subsequence (tid < 2^bits), as the initRNG kernels compute it. */
void xw_jump_thread(const struct xw_jumps *j, struct xw_state *s, uint32_t tid);

#endif
