/* SPDX-License-Identifier: MIT
 * kernel_annot.c - the annotation store of a kernel image (kernel_annot.h): its functions as
 * hd_annot_func rows (IR, module index, first kernel-wide PC and register), the entry marked.
 */
#include "kernel_annot.h"

#include <stdio.h>
#include <stdlib.h>

struct hd_annot *hd_func_kernel_annot(const struct hd_func_kernel *k, uint32_t max_regs,
                                      char *err, size_t errlen)
{
    struct hd_annot_func *fn = calloc(k->nfuncs + 1, sizeof *fn);
    if (!fn) {
        snprintf(err, errlen, "host out of memory");
        return NULL;
    }
    for (uint32_t i = 0; i < k->nfuncs; i++)
        fn[i] = (struct hd_annot_func){k->funcs[i].ir, k->funcs[i].index, k->funcs[i].pc_base,
                                       k->funcs[i].reg_base};
    uint32_t entry = 0;
    for (uint32_t i = 0; i < k->nfuncs; i++)
        if (k->funcs[i].index == k->entry_index)
            entry = i;
    struct hd_annot_params ap = {max_regs};
    struct hd_annot *a = NULL;
    hd_annot_build(k->mod->ir, fn, k->nfuncs, entry, k->ncode, k->nregs, &ap, &a, err, errlen);
    free(fn);
    return a;
}
