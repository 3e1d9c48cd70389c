/* SPDX-License-Identifier: MIT
 * rtl_none.c - the RTL backend registry of a build without Verilator: no block has RTL, so
 * co-simulation runs the C references only (heddle regpat-stats) and `heddle cosim` says why.
 */
#include "cosim_inst.h"

#include <stddef.h>

const struct hd_cosim_rtl_ops *hd_cosim_rtl_find(const char *block)
{
    (void)block;
    return NULL;
}

const char *hd_cosim_rtl_kind(void)
{
    return "none";
}

const struct hd_cosim_rtl_ops *hd_cosim_rtl_find_internal(const char *block)
{
    (void)block;
    return NULL;
}
