/* SPDX-License-Identifier: MIT
 * rt_module.c - loading PTX modules into a GPU and looking up their variables.
 *
 * Design: the public module handle is the parsed IR (struct hd_module from ptx_ir.h); the GPU
 * keeps, per handle, the loaded image (module variables placed in device memory, kernel images).
 * Modules live until the GPU is destroyed. Each module also keeps the registers per thread recorded
 * for its kernels (by ptxas, or given by hand: hd_module_set_ptxas, hd_kernel_set_regs), which
 * every later launch of the kernel carries to the timing model (model/config/regs_source.h).
 */
#include "rt_internal.h"
#include "rt_client.h"

#include "func_status.h"
#include "ptx_parse.h"
#include "ptxas_summary.h"
#include "regs_source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add_module(struct hd_gpu *gpu, struct hd_module *ir, const char *name,
                      struct hd_module **out)
{
    char msg[1024];
    struct hd_func_module *image;
    int st = hd_func_module_load(&gpu->mem, ir, gpu->cfg.gpu_const_mem_bytes, &image, msg,
                                 sizeof msg);
    if (st != HD_FUNC_OK) {
        hd_ptx_module_free(ir);
        return hd_rt_fail(gpu, st, "%s", msg);
    }
    if (gpu->nmods == gpu->cap_mods) {
        unsigned ncap = gpu->cap_mods ? gpu->cap_mods * 2 : 8;
        struct hd_rt_module *m = realloc(gpu->mods, ncap * sizeof *m);
        if (!m) {
            hd_func_module_unload(image);
            hd_ptx_module_free(ir);
            return hd_rt_fail(gpu, HD_ERR_MEMORY, "host out of memory loading %s", name);
        }
        gpu->mods = m;
        gpu->cap_mods = ncap;
    }
    struct hd_rt_module *m = &gpu->mods[gpu->nmods];
    m->regs_ptxas = calloc(image->nkernels + 1, sizeof *m->regs_ptxas);
    m->regs_given = calloc(image->nkernels + 1, sizeof *m->regs_given);
    if (!m->regs_ptxas || !m->regs_given) {
        free(m->regs_ptxas);
        free(m->regs_given);
        hd_func_module_unload(image);
        hd_ptx_module_free(ir);
        return hd_rt_fail(gpu, HD_ERR_MEMORY, "host out of memory loading %s", name);
    }
    gpu->nmods++;
    m->ir = ir;
    m->image = image;
    m->name = malloc(strlen(name) + 1);
    if (m->name)
        strcpy(m->name, name);
    *out = ir;
    return HD_OK;
}

int hd_module_load_text(struct hd_gpu *gpu, const char *text, size_t len, const char *name,
                        struct hd_module **out)
{
    char msg[1024];
    if (gpu->client)
        return hd_rt_client_module_load_text(gpu, text, len, name, out);
    if (!out)
        return hd_rt_fail(gpu, HD_ERR_ARGS, "hd_module_load_text: NULL result pointer");
    *out = NULL;
    if (!name)
        name = "<ptx>";
    if (!text)
        return hd_rt_fail(gpu, HD_ERR_PTX, "%s: no PTX text", name);
    struct hd_module *ir = hd_ptx_parse(text, len, name, msg, sizeof msg);
    if (!ir)
        return hd_rt_fail(gpu, HD_ERR_PTX, "%s", msg);
    return add_module(gpu, ir, name, out);
}

int hd_module_load_file(struct hd_gpu *gpu, const char *path, struct hd_module **out)
{
    char msg[1024];
    if (gpu->client)
        return hd_rt_client_module_load_file(gpu, path, out);
    if (!out)
        return hd_rt_fail(gpu, HD_ERR_ARGS, "hd_module_load_file: NULL result pointer");
    *out = NULL;
    struct hd_module *ir = hd_ptx_parse_file(path, msg, sizeof msg);
    if (!ir)
        return hd_rt_fail(gpu, HD_ERR_PTX, "%s", msg);
    return add_module(gpu, ir, path, out);
}

/* The loaded module of a handle, or NULL (with the error recorded). */
static struct hd_rt_module *find_module(struct hd_gpu *gpu, const struct hd_module *mod)
{
    for (unsigned i = 0; i < gpu->nmods; i++)
        if (gpu->mods[i].ir == mod)
            return &gpu->mods[i];
    hd_rt_fail(gpu, HD_ERR_NOT_FOUND, "module handle %p was not loaded into this GPU",
               (const void *)mod);
    return NULL;
}

int hd_module_symbol(struct hd_gpu *gpu, struct hd_module *mod, const char *name,
                     hd_devptr *addr, size_t *bytes)
{
    if (gpu->client)
        return hd_rt_client_module_symbol(gpu, mod, name, addr, bytes);
    struct hd_rt_module *m = find_module(gpu, mod);
    if (!m)
        return HD_ERR_NOT_FOUND;
    uint64_t a = 0, b = 0;
    if (!name || hd_func_module_symbol(m->image, name, &a, &b) != HD_FUNC_OK)
        return hd_rt_fail(gpu, HD_ERR_NOT_FOUND, "%s: no .global or .const variable named '%s'",
                          m->name ? m->name : "module", name ? name : "(null)");
    if (addr)
        *addr = a;
    if (bytes)
        *bytes = (size_t)b;
    return HD_OK;
}

const struct hd_func_kernel *hd_rt_find_kernel(struct hd_gpu *gpu, struct hd_module *mod,
                                               const char *kernel)
{
    struct hd_rt_module *m = find_module(gpu, mod);
    if (!m)
        return NULL;
    const struct hd_func_kernel *k = kernel ? hd_func_module_kernel(m->image, kernel) : NULL;
    if (!k) {
        char list[512] = "";
        size_t at = 0;
        for (uint32_t i = 0; i < m->image->nkernels && at < sizeof list; i++)
            at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", i ? ", " : "",
                                   m->image->kernels[i].entry->name);
        hd_rt_fail(gpu, HD_ERR_NOT_FOUND, "%s: no kernel named '%s' (kernels: %s)",
                   m->name ? m->name : "module", kernel ? kernel : "(null)",
                   list[0] ? list : "none");
    }
    return k;
}

/* {==== Registers per thread recorded for kernels ==== */
/* Index of kernel `name` in m's image, or -1. */
static int kernel_index(const struct hd_rt_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->image->nkernels; i++)
        if (strcmp(m->image->kernels[i].entry->name, name) == 0)
            return (int)i;
    return -1;
}

int hd_module_set_ptxas(struct hd_gpu *gpu, struct hd_module *mod, const char *summary,
                        size_t len, const char *name)
{
    if (gpu->client)
        return hd_rt_client_module_set_ptxas(gpu, mod, summary, len, name);
    struct hd_rt_module *m = find_module(gpu, mod);
    if (!m)
        return HD_ERR_NOT_FOUND;
    char msg[512];
    struct hd_ptxas_kernel *k;
    unsigned n;
    if (!name)
        name = "(ptxas summary)";
    if (hd_ptxas_parse(summary, len, name, &k, &n, msg, sizeof msg) != 0)
        return hd_rt_fail(gpu, HD_ERR_ARGS, "%s", msg);
    for (unsigned i = 0; i < n; i++) /* all or nothing: check every name first */
        if (kernel_index(m, k[i].name) < 0) {
            int st = hd_rt_fail(gpu, HD_ERR_NOT_FOUND, "%s: kernel %s is not in %s", name,
                                k[i].name, m->name ? m->name : "the module");
            free(k);
            return st;
        }
    for (unsigned i = 0; i < n; i++)
        m->regs_ptxas[kernel_index(m, k[i].name)] = k[i].registers;
    free(k);
    return HD_OK;
}

int hd_kernel_set_regs(struct hd_gpu *gpu, struct hd_module *mod, const char *kernel,
                       uint32_t regs)
{
    if (gpu->client)
        return hd_rt_client_kernel_set_regs(gpu, mod, kernel, regs);
    const struct hd_func_kernel *k = hd_rt_find_kernel(gpu, mod, kernel);
    if (!k)
        return HD_ERR_NOT_FOUND;
    char what[160], msg[512];
    snprintf(what, sizeof what, "%s: registers per thread", kernel);
    if (hd_regs_check_count(regs, gpu->cfg.sm_max_regs_per_thread, gpu->cfg.gpu_name.s, what, msg,
                            sizeof msg) != 0)
        return hd_rt_fail(gpu, HD_ERR_ARGS, "%s", msg);
    struct hd_rt_module *m = find_module(gpu, mod);
    m->regs_given[k - m->image->kernels] = regs;
    return HD_OK;
}

void hd_rt_kernel_regs(const struct hd_gpu *gpu, const struct hd_func_kernel *k, uint32_t *ptxas,
                       uint32_t *given)
{
    *ptxas = *given = 0;
    for (unsigned i = 0; i < gpu->nmods; i++) {
        const struct hd_rt_module *m = &gpu->mods[i];
        if (m->image == k->mod && k >= m->image->kernels &&
            k < m->image->kernels + m->image->nkernels) {
            *ptxas = m->regs_ptxas[k - m->image->kernels];
            *given = m->regs_given[k - m->image->kernels];
            return;
        }
    }
}
/* }==== */

void hd_rt_modules_free(struct hd_gpu *gpu)
{
    for (unsigned i = 0; i < gpu->nmods; i++) {
        hd_func_module_unload(gpu->mods[i].image);
        hd_ptx_module_free(gpu->mods[i].ir);
        free(gpu->mods[i].name);
        free(gpu->mods[i].regs_ptxas);
        free(gpu->mods[i].regs_given);
    }
    free(gpu->mods);
    gpu->mods = NULL;
    gpu->nmods = gpu->cap_mods = 0;
}
