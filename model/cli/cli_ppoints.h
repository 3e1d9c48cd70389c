/* SPDX-License-Identifier: MIT
 * cli_ppoints.h - the selective preemption points of a PTX kernel as `heddle ptx-info` lists
 * them (Lin thesis §2.5; model/compiler/ppoints.h).
 *
 * Design: the module is loaded into a scratch device memory to get the same kernel image (PCs,
 * functions, registers) as the timing model, whose annotation store the pass runs over with the
 * configuration's register budget and [context] pp_k, so the points listed are the ones a run
 * with [context] points = selective uses.
 */
#ifndef HD_CLI_PPOINTS_H
#define HD_CLI_PPOINTS_H

#include "cli_kernel_view.h"
#include "config.h"

/* Print the points of v's kernel, their live sets and their instruction words to stdout.
 * Returns 0, or -1 after printing why the points could not be computed (not fatal). */
int hd_cli_print_ppoints(const struct hd_cli_kernel_view *v, const struct hd_config *cfg);

#endif
