/* SPDX-License-Identifier: MIT
 * cli_fill.h - contents of `heddle launch` buffers from a fill pattern, and typed printing of
 * buffer contents.
 *
 * Patterns: zero | seq-u32 | seq-f32 | rand-u32:SEED | rand-f32:SEED | const-u32:V |
 * const-f32:V | file:PATH. The sequences and constants are little-endian 32-bit elements (BYTES
 * must be a multiple of 4); rand-* use the workloads' xorshift64* generator (rand-f32 is uniform
 * in [0, 1)), so a seed always gives the same bytes; file:PATH copies the file and zero-fills the
 * rest (the file must not be larger than the buffer).
 */
#ifndef HD_CLI_FILL_H
#define HD_CLI_FILL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "workload.h" /* struct hd_wl_rng */

/* Check a pattern's syntax and its fit to `bytes` (no I/O). Returns 0 or -1 with err. */
int hd_cli_fill_check(const char *fill, uint64_t bytes, char *err, size_t errlen);

/* The same bytes in pieces, so that a large buffer is checked or written without a copy of its
 * own size: open, then next() for consecutive pieces (each a multiple of 4 bytes but the last),
 * then close. */
struct hd_cli_filler {
    int kind;
    uint32_t u;           /* const-* value bits */
    uint64_t i, left;     /* next element index; bytes still to produce */
    uint64_t bytes;       /* in all */
    struct hd_wl_rng rng;
    FILE *fp;             /* file: */
    const char *path;
};
int hd_cli_filler_open(struct hd_cli_filler *z, const char *fill, uint64_t bytes, char *err,
                       size_t errlen);
int hd_cli_filler_next(struct hd_cli_filler *z, uint8_t *dst, uint64_t n, char *err,
                       size_t errlen);
void hd_cli_filler_close(struct hd_cli_filler *z);

/* Element types for printing: u8 s8 u16 s16 u32 s32 u64 s64 f32 f64 x8 x16 x32 x64 (hex).
 * Returns the element size, or 0 for an unknown type. */
unsigned hd_cli_elem_size(const char *type);
/* Print n elements of `type` from data, 8 per line with the index of the first. */
void hd_cli_print_elems(FILE *out, const char *type, const uint8_t *data, uint64_t n);

#endif
