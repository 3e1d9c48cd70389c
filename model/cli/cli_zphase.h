/* SPDX-License-Identifier: MIT
 * cli_zphase.h - Zorua's phases of a PTX kernel as `heddle ptx-info` lists them (Zorua Sec. 3.6;
 * model/compiler/zphase.h).
 */
#ifndef HD_CLI_ZPHASE_H
#define HD_CLI_ZPHASE_H

#include "config.h"
#include "ptx_ir.h"

/* Print kernel `f` of module m's phases to stdout. Returns 0, or -1 after printing why they
 * could not be computed (not fatal). */
int hd_cli_print_zphases(const struct hd_module *m, const struct hd_func *f,
                         const struct hd_config *cfg);

#endif
