/* SPDX-License-Identifier: MIT
 * hd_cover.h - functional coverage of a hardware block (issue 16 item 2): named bins declared
 * beside the block's port definition (rtl/<block>/<block>_cover.def, expanded by
 * hd_cover_table.h), counted cycle by cycle by the SystemC testbenches (testbenches/
 * tb_harness.h) and the co-simulation (cosim/cosim_inst.h), reported as a table, and checked
 * ("every bin hit at least once, or declared unreachable with a reason and never hit").
 *
 * Design: a bin is a predicate over one cycle of the block: the inputs presented and the outputs
 * during the cycle (the block's in/out structs, hd_block.h), the same of the previous sampled
 * cycle (transition bins: back-to-back, idle after busy), the C reference's state after the
 * cycle's edge (bins over what a stream built up: a TB that mixed dead and live warps) and
 * whether a reset came between the previous cycle and this one (reset mid-stream). The counter
 * set of one instance (struct hd_cover) keeps the previous cycle; sums over instances are per
 * block (struct hd_cover_sum). The bins themselves are immutable tables; counters live in the
 * caller's objects.
 */
#ifndef HD_COVER_H
#define HD_COVER_H

#include "hd_block.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct hd_cover_bin {
    const char *name;
    const char *doc;
    const char *unreachable; /* NULL, or why no stimulus can reach it (a hit fails the check) */
};

/* One cycle: in/out this cycle, pin/pout the previous sampled cycle (all-zero before the
 * first), state the C reference's after the edge, rst a reset came after the previous cycle;
 * n[k]++ for every bin k whose predicate holds. */
typedef void (*hd_cover_sample_fn)(const void *in, const void *out, const void *pin,
                                   const void *pout, const void *state, bool rst, uint64_t *n);

struct hd_cover_desc {
    const struct hd_block_desc *b;
    const struct hd_cover_bin *bins;
    unsigned nbins;
    hd_cover_sample_fn sample;
};

/* The counters of one instance (or a sum of several). */
struct hd_cover {
    const struct hd_cover_desc *d;
    uint64_t *n;              /* per bin */
    uint64_t cycles, resets;  /* sampled cycles, resets after a sampled cycle */
    unsigned instances;       /* 1, or the number summed */
    uint8_t *prev;            /* previous cycle's in | out */
    bool have_prev, rst;
};

/* 0, or -1 (no memory). */
int hd_cover_init(struct hd_cover *c, const struct hd_cover_desc *d);
void hd_cover_free(struct hd_cover *c);
/* One cycle of the block (in, out: its structs; state: the C reference's state, after the edge). */
void hd_cover_sample(struct hd_cover *c, const void *in, const void *out, const void *state);
/* The block was reset: the next sampled cycle sees rst (if any cycle was sampled before). */
void hd_cover_reset(struct hd_cover *c);

/* The table: a header naming `who`, then one row per bin (count, name, what it is). */
void hd_cover_print(const struct hd_cover *c, const char *who, FILE *f);
/* The check: every bin hit, or declared unreachable and never hit. Prints one line per failing
 * bin (naming `who`, the block and the bin); returns the number of failing bins. */
unsigned hd_cover_check(const struct hd_cover *c, const char *who, FILE *f);
/* Bins hit, and bins that count (declared reachable). */
unsigned hd_cover_hit(const struct hd_cover *c, unsigned *reachable);

/* Sums per block over instances (the co-simulation's report). */
struct hd_cover_sum;
struct hd_cover_sum *hd_cover_sum_create(void);
/* Add one instance's counters. 0, or -1 (no memory). */
int hd_cover_sum_add(struct hd_cover_sum *s, const struct hd_cover *x);
/* One table per block (in name order), bins not hit listed: reported, not an error. */
void hd_cover_sum_print(const struct hd_cover_sum *s, const char *who, FILE *f);
/* The count of bin `bin` of block `block` summed so far, or -1 if there is no such bin. */
int64_t hd_cover_sum_count(const struct hd_cover_sum *s, const char *block, const char *bin);
void hd_cover_sum_destroy(struct hd_cover_sum *s);

#endif
