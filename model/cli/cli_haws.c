/* SPDX-License-Identifier: MIT
 * cli_haws.c - `heddle ptx-info --haws`: the HAWS hint pass's result for a kernel (Gong thesis
 * ch. 5 §5.2; docs/blocks/haws.md §3): per stall point with a chain, the PCs that may run ahead
 * (b: a branch, r: a renamed destination), and the hint encoding's size, with the window and
 * RCU depth of the configuration ([haws]) and the renaming budget left by the kernel's
 * registers per thread.
 */
#include "cli_haws.h"

#include "devmem.h"
#include "haws_hints.h"
#include "module.h"

#include <stdio.h>

int hd_cli_print_haws(const struct hd_module *m, const struct hd_func *f,
                      const struct hd_config *cfg, uint32_t regs_per_thread)
{
    char err[512] = "";
    struct hd_devmem mem;
    if (hd_devmem_init(&mem, 1ull << 30) != 0) {
        printf("  HAWS hints: (host out of memory)\n");
        return -1;
    }
    struct hd_func_module *fm = NULL;
    int rc = -1;
    if (hd_func_module_load(&mem, m, cfg->gpu_const_mem_bytes, &fm, err, sizeof err) != 0) {
        printf("  HAWS hints: (the module does not load: %s)\n", err);
        goto out;
    }
    const struct hd_func_kernel *k = hd_func_module_kernel(fm, f->name);
    if (!k || k->unsupported[0]) {
        printf("  HAWS hints: (the kernel cannot run: %s)\n", k ? k->unsupported : "no image");
        goto out;
    }
    const uint32_t max = cfg->sm_max_regs_per_thread;
    const struct hd_haws_hint_params p = {
        cfg->haws_window, cfg->haws_rcu_depth,
        regs_per_thread && max > regs_per_thread ? max - regs_per_thread : 0, cfg->haws_loads};
    struct hd_haws_kernel_hints *kh = hd_haws_hints_build(k, &p);
    if (!kh) {
        printf("  HAWS hints: (host out of memory)\n");
        goto out;
    }
    hd_haws_hints_print(kh, stdout);
    hd_haws_hints_free(kh);
    rc = 0;
out:
    if (fm)
        hd_func_module_unload(fm);
    hd_devmem_destroy(&mem);
    return rc;
}
