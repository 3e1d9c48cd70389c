/* SPDX-License-Identifier: MIT
 * hd_cover_table.h - expands a block's coverage declaration (HD_COVER_DEF, a
 * rtl/<block>/<block>_cover.def) into its coverage descriptor (hd_cover.h) named HD_COVER_VAR,
 * over the block's structs. Included once, at file scope, by the file that model/hw/
 * hw_blocks.cmake generates per block:
 *     #include "regpat_comp.h"
 *     #define HD_COVER_DEF "regpat_comp_cover.def"
 *     #define HD_COVER_BLOCK hd_regpat_comp_block
 *     #define HD_COVER_IN_T struct hd_regpat_comp_in
 *     #define HD_COVER_OUT_T struct hd_regpat_comp_out
 *     #define HD_COVER_STATE_T struct hd_regpat_comp_state
 *     #define HD_COVER_VAR hd_regpat_comp_cover
 *     #include "hd_cover_table.h"
 *
 * Rows of a cover.def (C expressions, evaluated once per cycle):
 *     HD_BIN(name, "what it is", predicate)
 *     HD_BIN_NA(name, "why no stimulus can reach it", predicate)   (declared unreachable)
 * A predicate may read `in` and `out` (pointers to this cycle's in and out structs: the inputs
 * presented, the outputs during the cycle), `pin` and `pout` (the previous sampled cycle's;
 * all-zero before the first), `st` (the C reference's state after the cycle's edge) and `rst`
 * (bool: a reset came between the previous cycle and this one). A def may define helper
 * functions between `#ifdef HD_COVER_HELPERS` and `#endif` (expanded once, before the bins).
 * Bin names must be unique within a block (a duplicate is a compile error).
 */
#include "hd_cover.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_BIN(name, doc, ...)
#define HD_BIN_NA(name, why, ...)
#define HD_COVER_HELPERS
#include HD_COVER_DEF
#undef HD_COVER_HELPERS
#undef HD_BIN
#undef HD_BIN_NA

enum { /* a duplicate bin name is a duplicate enumerator */
#define HD_BIN(name, doc, ...) hd_cover_bin_##name,
#define HD_BIN_NA(name, why, ...) hd_cover_bin_##name,
#include HD_COVER_DEF
#undef HD_BIN
#undef HD_BIN_NA
    hd_cover_nbins_
};

static const struct hd_cover_bin hd_cover_bins_[] = {
#define HD_BIN(name, doc, ...) {#name, doc, NULL},
#define HD_BIN_NA(name, why, ...) {#name, "", why},
#include HD_COVER_DEF
#undef HD_BIN
#undef HD_BIN_NA
};

static void hd_cover_sample_(const void *in_, const void *out_, const void *pin_,
                             const void *pout_, const void *st_, bool rst, uint64_t *n)
{
    const HD_COVER_IN_T *in = in_, *pin = pin_;
    const HD_COVER_OUT_T *out = out_, *pout = pout_;
    const HD_COVER_STATE_T *st = st_;
    (void)in, (void)pin, (void)out, (void)pout, (void)st, (void)rst;
#define HD_BIN(name, doc, ...)                                                                     \
    if (__VA_ARGS__)                                                                               \
        n[hd_cover_bin_##name]++;
#define HD_BIN_NA(name, why, ...) HD_BIN(name, why, __VA_ARGS__)
#include HD_COVER_DEF
#undef HD_BIN
#undef HD_BIN_NA
}

const struct hd_cover_desc HD_COVER_VAR = {
    .b = &HD_COVER_BLOCK,
    .bins = hd_cover_bins_,
    .nbins = hd_cover_nbins_,
    .sample = hd_cover_sample_,
};
