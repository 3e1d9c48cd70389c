/* SPDX-License-Identifier: MIT
 * cli_expars.h - `heddle ptx-info`'s EXPARS section (issue 33; docs/expars.md): the maximum-CTA
 * calculator's plan for the kernel on the configured SM (CTA_RF, CTA_Mix, Start_Reg, Max_Reg,
 * register regions and SBRs) and the compiler pass's register ordering, bundles and PREF vectors.
 */
#ifndef HD_CLI_EXPARS_H
#define HD_CLI_EXPARS_H

#include "cli_kernel_view.h"
#include "config.h"

#include <stdint.h>

/* Print the EXPARS plan of v's kernel (regs registers per thread, threads per CTA, smem
 * bytes of shared memory per CTA) and bundles. Returns 0, or -1 after printing why not. */
int hd_cli_print_expars(const struct hd_cli_kernel_view *v, const struct hd_config *cfg,
                        uint32_t regs, uint32_t threads, uint64_t smem);

#endif
