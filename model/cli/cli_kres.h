/* SPDX-License-Identifier: MIT
 * cli_kres.h - the resources of a PTX module's kernels as `heddle ptx-info` and `heddle list`
 * show them: registers per thread from our register allocator beside ptxas's recorded count,
 * static shared memory, and the occupancy a launch shape gives on a configuration.
 *
 * Design: registers come from the same passes the timing model runs (CFG, liveness, register
 * allocation of every function with a body, calls linked, the budget capped at the
 * configuration's max_regs_per_thread), so the count shown is the one the CTA scheduler uses.
 * Static shared memory is every module-scope .shared variable the kernel or a function it calls
 * names, plus its own; an extern (unsized) .shared marks dynamic shared memory, sized at launch.
 * Occupancy is model/timing/occupancy.h's, so all three agree by construction.
 */
#ifndef HD_CLI_KRES_H
#define HD_CLI_KRES_H

#include "config.h"
#include "occupancy.h"
#include "ptx_ir.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hd_cli_kres {
    uint32_t fi;               /* function index in the module */
    const char *name;          /* points into the module */
    bool is_entry;
    uint32_t regs_ours;        /* register allocator, callees included; 0 if it failed */
    char ra_err[192];          /* why it failed, or "" */
    int32_t regs_ptxas;        /* ptxas -v (NAME.ptxas.txt), or -1 when not recorded */
    uint64_t smem_static;      /* bytes */
    unsigned smem_vars;        /* sized .shared variables counted in smem_static */
    const char *smem_dynamic;  /* name of the extern .shared variable, or NULL */
    uint64_t local_bytes;      /* local memory per thread: the frames of the function and its
                                  callees as the kernel image lays them out
                                  (hd_func_local_bytes: the timing model's figure) */
    uint32_t spill_words;      /* 32-bit words the allocator could not fit (above the budget) */
    uint64_t spill_bytes;      /* 4 bytes of local memory per spilled word, per thread */
};

/* Resources of every function with a body of m (entries and device functions, in module
 * order); registers with budget max_regs. ptxas is the workload's ptxas summary ("kernel=K
 * registers=R ..." lines) or NULL. Returns a malloc'd array (count in *n) or NULL when out of
 * memory. */
struct hd_cli_kres *hd_cli_kres_collect(const struct hd_module *m, uint32_t max_regs,
                                        const char *ptxas, size_t ptxas_len, unsigned *n);

/* NAME.ptxas.txt beside DIR/NAME.ptx, read whole (malloc'd; NULL if there is none); its path is
 * written to path[pathlen]. */
char *hd_cli_ptxas_beside(const char *ptx_path, size_t *len, char *path, size_t pathlen);

/* Occupancy of kernel k launched with `threads` threads per CTA and `dyn_smem` bytes of
 * dynamic shared memory on configuration cfg, counting `regs` registers per thread. */
int hd_cli_kres_occupancy(const struct hd_config *cfg, const struct hd_cli_kres *k,
                          uint32_t threads, uint64_t dyn_smem, uint32_t regs,
                          struct hd_occupancy *out);

/* "6 CTAs, 48/48 warps (100%), limited by threads" or "does not fit: ..." */
void hd_cli_occupancy_text(const struct hd_occupancy *o, uint32_t max_warps, char *buf,
                           size_t len);

#endif
