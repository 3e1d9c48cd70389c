/* SPDX-License-Identifier: MIT
 * cli_haws.c - `heddle ptx-info --haws`: the HAWS hint pass's result for a kernel (Gong thesis
 * ch. 5 §5.2; docs/blocks/haws.md §3): per stall point with a chain, the PCs that may run ahead
 * (b: a branch, r: a renamed destination), and the hint encoding's size, with the window and
 * RCU depth of the configuration ([haws]) and the renaming budget left by the kernel's
 * registers per thread.
 */
#include "cli_haws.h"

#include "haws_hints.h"

#include <stdio.h>

int hd_cli_print_haws(const struct hd_cli_kernel_view *v, const struct hd_config *cfg,
                      uint32_t regs_per_thread)
{
    if (!hd_cli_kernel_view_ready(v, "HAWS hints", false))
        return -1;
    const uint32_t max = cfg->sm_max_regs_per_thread;
    const struct hd_haws_hint_params p = {
        cfg->haws_window, cfg->haws_rcu_depth,
        regs_per_thread && max > regs_per_thread ? max - regs_per_thread : 0, cfg->haws_loads,
        cfg->haws_back_edges};
    struct hd_haws_kernel_hints *kh = hd_haws_hints_build(v->k, &p);
    if (!kh) {
        printf("  HAWS hints: (host out of memory)\n");
        return -1;
    }
    hd_haws_hints_print(kh, stdout);
    hd_haws_hints_free(kh);
    return 0;
}
