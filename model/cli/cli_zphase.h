/* SPDX-License-Identifier: MIT
 * cli_zphase.h - Zorua's phases of a PTX kernel as `heddle ptx-info` lists them (Zorua Sec. 3.6;
 * model/compiler/zphase.h).
 */
#ifndef HD_CLI_ZPHASE_H
#define HD_CLI_ZPHASE_H

#include "cli_kernel_view.h"
#include "config.h"

/* Print the phases of v's kernel to stdout. Returns 0, or -1 after printing why they
 * could not be computed (not fatal). */
int hd_cli_print_zphases(const struct hd_cli_kernel_view *v, const struct hd_config *cfg);

#endif
