/* SPDX-License-Identifier: MIT
 * cli_haws.h - `heddle ptx-info --haws`: print a kernel's HAWS hints (cli_haws.c).
 */
#ifndef HD_CLI_HAWS_H
#define HD_CLI_HAWS_H

#include "cli_kernel_view.h"
#include "config.h"

#include <stdint.h>

/* Print the HAWS hints of v's kernel ([haws] window and rcu_depth of cfg; renaming
 * budget max_regs_per_thread - regs_per_thread, 0 when regs_per_thread is 0: unknown). */
int hd_cli_print_haws(const struct hd_cli_kernel_view *v, const struct hd_config *cfg,
                      uint32_t regs_per_thread);

#endif
