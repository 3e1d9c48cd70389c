/* SPDX-License-Identifier: MIT
 * hw_ref.h - the registry of every hardware block's C reference (compressors/, tables/) and the
 * default block factory (hw_inst.h) that builds C-reference instances from it.
 *
 * Design: the registry is generated at configure time from the blocks found as
 * rtl/<block>/<block>_ports.def (model/hw/hw_blocks.cmake): each block's C reference is the
 * header <block>.h in compressors/ or tables/ declaring hd_<block>_block, struct
 * hd_<block>_state and hd_<block>_ref_{reset,step,idle}. Nothing here lists block names; the
 * co-simulation (cosim/), the port check and the testbenches read the same registry, so adding
 * a block touches only its own files. Immutable tables only.
 */
#ifndef HD_HW_REF_H
#define HD_HW_REF_H

#include "hd_cover.h"
#include "hw_inst.h"

#include <stdbool.h>
#include <stddef.h>

/* A block's C reference, through untyped pointers (the state and I/O structs of its header). */
struct hd_hw_ref_block {
    const struct hd_block_desc *b;
    size_t state_size;
    void (*reset)(void *state);
    void (*step)(void *state, const void *in, void *out);
    bool (*idle)(const void *state, const void *in);
    const struct hd_cover_desc *cover; /* its coverage bins (rtl/<b>/<b>_cover.def), or NULL */
    /* NULL: the block itself (b->name); "BLOCK:CONFIG": the block in another named
     * configuration of configs/rtl/<b>.ini ([block] loop_configs), b its port widths */
    const char *name;
};

/* Number of registered blocks and the i-th (in name order). */
unsigned hd_hw_ref_count(void);
const struct hd_hw_ref_block *hd_hw_ref_at(unsigned i);
/* The block called `name`, or NULL; "BLOCK:CONFIG" finds a [block] loop_configs instance kind
 * (not counted by hd_hw_ref_count: it is no block of its own). */
const struct hd_hw_ref_block *hd_hw_ref_find(const char *name);
/* "regpat_comp, regpat_decomp, ..." (for usage messages). */
void hd_hw_ref_names(char *buf, size_t len);

/* The default factory: C-reference instances (ctx unused). */
const struct hd_hw_factory *hd_hw_ref_factory(void);

#endif
