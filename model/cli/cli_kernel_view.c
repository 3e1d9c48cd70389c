/* SPDX-License-Identifier: MIT
 * cli_kernel_view.c - one kernel loaded and annotated once for `heddle ptx-info`'s per-kernel
 * analyses (cli_kernel_view.h).
 */
#include "cli_kernel_view.h"

#include "tkernel.h"

#include <stdio.h>
#include <string.h>

void hd_cli_kernel_view_open(struct hd_cli_kernel_view *v, const struct hd_module *m,
                             const struct hd_func *f, const struct hd_config *cfg)
{
    memset(v, 0, sizeof *v);
    if (hd_devmem_init(&v->mem, 1ull << 30) != 0) {
        snprintf(v->err, sizeof v->err, "host out of memory");
        return;
    }
    v->mem_ok = true;
    char why[sizeof v->err - 64] = "";
    if (hd_func_module_load(&v->mem, m, cfg->gpu_const_mem_bytes, &v->fm, why, sizeof why) != 0) {
        v->fm = NULL;
        snprintf(v->err, sizeof v->err, "the module does not load: %s", why);
        return;
    }
    const struct hd_func_kernel *k = hd_func_module_kernel(v->fm, f->name);
    if (!k || k->unsupported[0]) {
        snprintf(v->err, sizeof v->err, "the kernel cannot run: %s",
                 k ? k->unsupported : "no image");
        return;
    }
    v->k = k;
    v->a = hd_tkernel_annot_build(k, cfg->sm_max_regs_per_thread, v->err, sizeof v->err);
}

void hd_cli_kernel_view_close(struct hd_cli_kernel_view *v)
{
    hd_annot_free(v->a);
    if (v->fm)
        hd_func_module_unload(v->fm);
    if (v->mem_ok)
        hd_devmem_destroy(&v->mem);
    memset(v, 0, sizeof *v);
}

bool hd_cli_kernel_view_ready(const struct hd_cli_kernel_view *v, const char *title,
                              bool need_annot)
{
    if (v->k && (v->a || !need_annot))
        return true;
    printf("  %s: (%s)\n", title, v->err);
    return false;
}

uint32_t hd_cli_kernel_line(const struct hd_func_kernel *k, uint32_t pc)
{
    return pc < k->ncode && k->code[pc].ir ? k->code[pc].ir->line : 0;
}
