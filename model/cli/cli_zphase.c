/* SPDX-License-Identifier: MIT
 * cli_zphase.c - `heddle ptx-info`'s list of a kernel's Zorua phases (cli_zphase.h): per phase
 * its PCs and PTX lines, what begins it (kernel start, phase specifier, barrier), the live
 * registers at its start and its need (the most live at any instruction), in 32-bit words and in
 * Zorua's register sets of 4 per thread, and whether the scratchpad is live in it. The module is
 * loaded as the timing model loads it, so the PCs and the annotation store are the run's.
 */
#include "cli_zphase.h"

#include "devmem.h"
#include "module.h"
#include "tkernel.h"
#include "zphase.h"

#include <stdio.h>

static uint32_t line_at(const struct hd_func_kernel *k, uint32_t pc)
{
    return pc < k->ncode && k->code[pc].ir ? k->code[pc].ir->line : 0;
}

int hd_cli_print_zphases(const struct hd_module *m, const struct hd_func *f,
                         const struct hd_config *cfg)
{
    char err[512] = "";
    struct hd_devmem mem;
    if (hd_devmem_init(&mem, 1ull << 30) != 0) {
        printf("  Zorua phases: (host out of memory)\n");
        return -1;
    }
    struct hd_func_module *fm = NULL;
    int rc = -1;
    if (hd_func_module_load(&mem, m, cfg->gpu_const_mem_bytes, &fm, err, sizeof err) != 0) {
        printf("  Zorua phases: (the module does not load: %s)\n", err);
        goto out;
    }
    const struct hd_func_kernel *k = hd_func_module_kernel(fm, f->name);
    if (!k || k->unsupported[0]) {
        printf("  Zorua phases: (the kernel cannot run: %s)\n", k ? k->unsupported : "no image");
        goto out;
    }
    struct hd_annot *a = hd_tkernel_annot_build(k, cfg->sm_max_regs_per_thread, err, sizeof err);
    struct hd_zphases *z = NULL;
    if (!a || hd_zphase_build(a, &z, err, sizeof err) != 0) {
        printf("  Zorua phases: (%s)\n", err);
        hd_annot_free(a);
        goto out;
    }
    const uint32_t set = cfg->zorua_reg_set ? cfg->zorua_reg_set : 4;
    printf("  Zorua phases (Sec. 3.6: >= %.0f %% live-register change, >= %u instructions, no "
           "divergence; barriers): %u, %u phase specifier%s\n",
           z->change * 100, z->min_instrs, z->n, z->specifiers, z->specifiers == 1 ? "" : "s");
    for (uint32_t i = 0; i < z->n; i++) {
        const struct hd_zphase *p = &z->ph[i];
        printf("    phase %u: PC %u-%u (lines %u-%u), %s; live %u at start, needs %u "
               "registers (%u sets); scratchpad %s\n",
               i, p->start, p->end - 1, line_at(k, p->start), line_at(k, p->end - 1),
               i == 0 ? "kernel start" : p->barrier ? "barrier" : "phase specifier",
               p->live_start, p->live_max, (p->live_max + set - 1) / set,
               p->smem ? "live" : "none");
    }
    hd_zphase_free(z);
    hd_annot_free(a);
    rc = 0;
out:
    if (fm)
        hd_func_module_unload(fm);
    hd_devmem_destroy(&mem);
    return rc;
}
