/* SPDX-License-Identifier: MIT
 * cli_kernel_view.h - one kernel of a PTX module, loaded once for the per-kernel analyses that
 * `heddle ptx-info` prints (Lin's preemption points, HAWS hints, Zorua phases, EXPARS bundles):
 * the functional image, as the timing model loads it, and its timing annotation (liveness,
 * register allocation; model/timing/tkernel.h), built once and shared by every printer.
 */
#ifndef HD_CLI_KERNEL_VIEW_H
#define HD_CLI_KERNEL_VIEW_H

#include "annot.h"
#include "config.h"
#include "devmem.h"
#include "module.h"
#include "ptx_ir.h"

#include <stdbool.h>
#include <stdint.h>

struct hd_cli_kernel_view {
    struct hd_devmem mem;
    bool mem_ok;                   /* mem initialised (destroyed by close) */
    struct hd_func_module *fm;     /* the loaded module, or NULL */
    const struct hd_func_kernel *k; /* the kernel's image; NULL: why is in err */
    struct hd_annot *a;            /* its annotation; NULL: why is in err (k may still be set) */
    char err[512];
};

/* Load kernel f of module m with cfg's constant memory and annotate it with cfg's registers per
 * thread. Never fails as a whole: what could not be built is NULL, with the reason in v->err. */
void hd_cli_kernel_view_open(struct hd_cli_kernel_view *v, const struct hd_module *m,
                             const struct hd_func *f, const struct hd_config *cfg);
void hd_cli_kernel_view_close(struct hd_cli_kernel_view *v);

/* True when v has the kernel's image (and its annotation, with need_annot); otherwise prints
 * "  TITLE: (why)" and returns false. */
bool hd_cli_kernel_view_ready(const struct hd_cli_kernel_view *v, const char *title,
                              bool need_annot);

/* The PTX line of instruction pc of k, 0 when unknown. */
uint32_t hd_cli_kernel_line(const struct hd_func_kernel *k, uint32_t pc);

#endif
