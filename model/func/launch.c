/* SPDX-License-Identifier: MIT
 * launch.c - building a kernel launch: argument checking against the PTX .param declarations,
 * the parameter buffer, grid/block limits, shared-memory sizing.
 *
 * Design: see launch.h. Every check names the kernel; argument errors also name the parameter
 * (index and PTX name) and both sizes, since they are the most common host-driver mistake.
 */
#include "launch.h"

#include "func_status.h"
#include "ptx_parse.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_dims(const struct hd_func_kernel *k, const uint32_t grid[3],
                      const uint32_t block[3], char *err, size_t errlen)
{
    static const uint32_t block_max[3] = {1024, 1024, 64};
    static const uint32_t grid_max[3] = {2147483647u, 65535u, 65535u};
    static const char dim[3] = {'x', 'y', 'z'};
    const char *name = k->entry->name;
    for (int i = 0; i < 3; i++) {
        if (block[i] == 0 || block[i] > block_max[i]) {
            snprintf(err, errlen, "%s: block.%c = %u is outside 1..%u", name, dim[i], block[i],
                     block_max[i]);
            return HD_FUNC_ERR_ARGS;
        }
        if (grid[i] == 0 || grid[i] > grid_max[i]) {
            snprintf(err, errlen, "%s: grid.%c = %u is outside 1..%u", name, dim[i], grid[i],
                     grid_max[i]);
            return HD_FUNC_ERR_ARGS;
        }
    }
    uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
    if (threads > 1024) {
        snprintf(err, errlen, "%s: a block of %ux%ux%u = %" PRIu64 " threads exceeds 1024", name,
                 block[0], block[1], block[2], threads);
        return HD_FUNC_ERR_ARGS;
    }
    const struct hd_func *f = k->entry;
    if (f->reqntid[0] && (f->reqntid[0] != block[0] || f->reqntid[1] != block[1] ||
                          f->reqntid[2] != block[2])) {
        snprintf(err, errlen, "%s: launched with block %ux%ux%u but the kernel requires .reqntid %u, %u, %u",
                 name, block[0], block[1], block[2], f->reqntid[0], f->reqntid[1], f->reqntid[2]);
        return HD_FUNC_ERR_ARGS;
    }
    if (f->maxntid[0]) {
        uint64_t maxt = (uint64_t)f->maxntid[0] * (f->maxntid[1] ? f->maxntid[1] : 1) *
                        (f->maxntid[2] ? f->maxntid[2] : 1);
        if (threads > maxt) {
            snprintf(err, errlen, "%s: block of %" PRIu64 " threads exceeds the kernel's .maxntid (%" PRIu64 ")",
                     name, threads, maxt);
            return HD_FUNC_ERR_ARGS;
        }
    }
    return HD_FUNC_OK;
}

static int build_params(struct hd_func_launch *l, const struct hd_func_arg *args, unsigned nargs,
                        char *err, size_t errlen)
{
    const struct hd_func_kernel *k = l->k;
    const struct hd_func *f = k->entry;
    if (nargs != f->nparams) {
        snprintf(err, errlen, "%s: expects %u argument%s, got %u", f->name, f->nparams,
                 f->nparams == 1 ? "" : "s", nargs);
        return HD_FUNC_ERR_ARGS;
    }
    l->params = calloc(k->param_bytes ? k->param_bytes : 1, 1);
    if (!l->params) {
        snprintf(err, errlen, "%s: host out of memory for the parameter buffer", f->name);
        return HD_FUNC_ERR_MEMORY;
    }
    for (unsigned i = 0; i < nargs; i++) {
        const struct hd_var *p = &f->params[i];
        if (args[i].size != p->size) {
            snprintf(err, errlen,
                     "%s: argument %u (%s) is %zu bytes but the PTX parameter is %" PRIu64
                     " bytes (.%s)",
                     f->name, i, p->name, args[i].size, p->size,
                     hd_type_name((enum hd_type)p->type));
            return HD_FUNC_ERR_ARGS;
        }
        if (!args[i].value && args[i].size) {
            snprintf(err, errlen, "%s: argument %u (%s) has no value", f->name, i, p->name);
            return HD_FUNC_ERR_ARGS;
        }
        uint64_t off = hd_ptx_param_offset(f, i);
        if (off + p->size > k->param_bytes) {
            snprintf(err, errlen, "%s: internal: parameter %u lies outside the buffer", f->name, i);
            return HD_FUNC_ERR_INTERNAL;
        }
        if (args[i].size)
            memcpy(l->params + off, args[i].value, args[i].size);
    }
    return HD_FUNC_OK;
}

int hd_func_launch_init(struct hd_func_launch *l, const struct hd_func_kernel *k,
                        struct hd_devmem *mem, const struct hd_func_gpu_params *gpu,
                        const uint32_t grid[3], const uint32_t block[3], uint32_t dyn_shared,
                        const struct hd_func_arg *args, unsigned nargs, uint64_t gridid,
                        char *err, size_t errlen)
{
    memset(l, 0, sizeof *l);
    l->k = k;
    l->mem = mem;
    l->gpu = *gpu;
    l->dyn_shared = dyn_shared;
    l->gridid = gridid;
    memcpy(l->grid, grid, sizeof l->grid);
    memcpy(l->block, block, sizeof l->block);
    if (k->unsupported[0]) {
        snprintf(err, errlen, "%s", k->unsupported);
        return HD_FUNC_ERR_UNSUPPORTED;
    }
    int st = check_dims(k, grid, block, err, errlen);
    if (st != HD_FUNC_OK)
        return st;
    l->threads_per_cta = block[0] * block[1] * block[2];
    l->warps_per_cta = (l->threads_per_cta + 31) / 32;
    l->nctas = (uint64_t)grid[0] * grid[1] * grid[2];
    l->smem_bytes = (dyn_shared ? k->dyn_shared_base : k->shared_static_bytes) + dyn_shared;
    if (gpu->shared_per_sm && l->smem_bytes > gpu->shared_per_sm) {
        snprintf(err, errlen,
                 "%s: needs %" PRIu64 " bytes of shared memory per block (%" PRIu64
                 " static + %u dynamic), the SM has %" PRIu64,
                 k->entry->name, l->smem_bytes, k->shared_static_bytes, dyn_shared,
                 gpu->shared_per_sm);
        return HD_FUNC_ERR_ARGS;
    }
    st = build_params(l, args, nargs, err, errlen);
    if (st != HD_FUNC_OK) {
        hd_func_launch_destroy(l);
        return st;
    }
    return HD_FUNC_OK;
}

void hd_func_launch_destroy(struct hd_func_launch *l)
{
    free(l->params);
    l->params = NULL;
}

void hd_func_launch_cta_coords(const struct hd_func_launch *l, uint64_t linear, uint32_t out[3])
{
    out[0] = (uint32_t)(linear % l->grid[0]);
    out[1] = (uint32_t)((linear / l->grid[0]) % l->grid[1]);
    out[2] = (uint32_t)(linear / ((uint64_t)l->grid[0] * l->grid[1]));
}
