/* SPDX-License-Identifier: MIT
 * kernel_annot.h - the annotation store (model/compiler/annot.h: CFG, liveness, register
 * allocation and per-PC facts) of one kernel image, built from the image's layout.
 *
 * Design: the image flattens its functions into one code array and one register numbering; this
 * describes that layout to hd_annot_build. The timing model builds each image's store once, with
 * the SM's register budget, and hands it to whoever else reads a launch of that image through the
 * launch (hd_func_launch.annot: the co-simulation's context samples); an executor that has no
 * store (the functional one) leaves that NULL, and the reader builds one with this call.
 */
#ifndef HD_FUNC_KERNEL_ANNOT_H
#define HD_FUNC_KERNEL_ANNOT_H

#include "annot.h"
#include "module.h"

#include <stddef.h>
#include <stdint.h>

/* The annotation store of kernel image k with register budget max_regs (0: the allocator's
 * default). NULL with a message on host memory failure (a failed analysis is recorded in the
 * store's note, not fatal). Free with hd_annot_free. */
struct hd_annot *hd_func_kernel_annot(const struct hd_func_kernel *k, uint32_t max_regs,
                                      char *err, size_t errlen);

#endif
