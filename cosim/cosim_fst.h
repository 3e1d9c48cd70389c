/* SPDX-License-Identifier: MIT
 * cosim_fst.h - FST waveforms of co-simulated block instances, with a GTKWave save file.
 *
 * Design: the variables come from the block's port table (hd_block.h, i.e. its ports.def), so a
 * C-only run and an RTL run give the same names. Each instance is a scope holding `clk_i`, the
 * inputs (`in.*`), the C reference's outputs (`ref.*`, the model's view), the RTL's outputs
 * (`rtl.*`, equal to ref.* when no RTL is built) and the model's tag (`model.now` and the
 * block's HD_TAG fields, e.g. `model.cta/warp/reg/word` for regpat). Every instance added is
 * dumped (no limit on their number; -1 from hd_cosim_fst_add only when out of memory). Time is the session's global block cycle: cycle c has clk_i high at 10c and low at
 * 10c+5 (timescale 1 ns), so cycles of different instances interleave in one file. Callers emit
 * cycles in increasing global order. Writing uses fstapi.c from the Verilator package.
 * The FST and the .gtkw are written atomically (model/hw/hd_outfile.h): fstapi writes a
 * temporary file beside the target, renamed over it at the close, so a killed run leaves the old
 * file or the complete new one (issue 17).
 */
#ifndef HD_COSIM_FST_H
#define HD_COSIM_FST_H

#include "cosim_inst.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hd_cosim_fst;

/* NULL if the file cannot be created. */
struct hd_cosim_fst *hd_cosim_fst_open(const char *path);
/* Register instance x; returns its index or -1. An instance may come after cycles were emitted
 * (a codec made at the first save): it is declared then, with no value before its first cycle. */
int hd_cosim_fst_add(struct hd_cosim_fst *f, const struct hd_cosim_inst *x);
/* As hd_cosim_fst_add, plus the RTL-internal signals of x's backend when it has them (the
 * --public-flat-rw variant, hd_cosim_rtl_find_internal) in the sub-scope `int` beside the ports,
 * and a group per instance in the .gtkw (issue 16 item 5). Each hd_cosim_fst_cycle of it then
 * reads their values from the live RTL (sampled in its last step): emit its cycles right after
 * stepping, while the instance exists (never from its history). */
int hd_cosim_fst_add_internal(struct hd_cosim_fst *f, const struct hd_cosim_inst *x);
/* Emit one cycle of instance `idx`. */
void hd_cosim_fst_cycle(struct hd_cosim_fst *f, int idx, uint64_t gcycle, const void *in,
                        const void *ref_out, const void *rtl_out, const struct hd_cosim_tag *tag);
/* Close; if gtkw_path is not NULL also write a GTKWave save file showing every variable, with
 * a marker at `marker_gcycle` (UINT64_MAX: none). Returns 0 or -1 (write error). */
int hd_cosim_fst_close(struct hd_cosim_fst *f, const char *gtkw_path, uint64_t marker_gcycle);

/* Whether `list` (--fst-internal: "all" or block names separated by commas; NULL: none)
 * names block `block`. */
bool hd_cosim_fst_names(const char *list, const char *block);
/* 0 if every name of `list` is a hardware block (hw_ref.h) this build has an internal-signal
 * RTL model of; else -1 with a usage message naming the block (and the known blocks). */
int hd_cosim_fst_internal_check(const char *list, char *err, size_t errlen);

/* Write instance x's history (the last `before` cycles, all it keeps if fewer) to a new FST
 * file plus `path` with .gtkw instead of .fst; marker at gcycle `marker`. Returns 0 or -1. */
int hd_cosim_fst_dump_history(const char *path, struct hd_cosim_inst *const *xs, unsigned n,
                              unsigned before, uint64_t marker);

#endif
