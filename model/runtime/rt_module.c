/* SPDX-License-Identifier: MIT
 * rt_module.c - loading PTX modules into a GPU and looking up their variables.
 *
 * Design: the public module handle is the parsed IR (struct hd_module from ptx_ir.h); the GPU
 * keeps, per handle, the loaded image (module variables placed in device memory, kernel images).
 * Modules live until the GPU is destroyed.
 */
#include "rt_internal.h"
#include "rt_client.h"

#include "func_status.h"
#include "ptx_parse.h"

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
    struct hd_rt_module *m = &gpu->mods[gpu->nmods++];
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

void hd_rt_modules_free(struct hd_gpu *gpu)
{
    for (unsigned i = 0; i < gpu->nmods; i++) {
        hd_func_module_unload(gpu->mods[i].image);
        hd_ptx_module_free(gpu->mods[i].ir);
        free(gpu->mods[i].name);
    }
    free(gpu->mods);
    gpu->mods = NULL;
    gpu->nmods = gpu->cap_mods = 0;
}
