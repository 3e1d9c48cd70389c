/* SPDX-License-Identifier: MIT
 * runtime.c - GPU creation from a configuration, errors, totals, and device memory calls of
 * heddle.h.
 *
 * Design: see rt_internal.h. Memory copies and memsets are blocking in the CUDA sense: they
 * first run everything queued on every stream (so they see its results), then copy with the
 * range checked against the allocation it targets.
 */
#include "rt_internal.h"
#include "rt_client.h"

#include "func_status.h"
#include "rt_config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert((int)HD_FUNC_OK == (int)HD_OK &&
                   (int)HD_FUNC_ERR_CONFIG == (int)HD_ERR_CONFIG &&
                   (int)HD_FUNC_ERR_PTX == (int)HD_ERR_PTX &&
                   (int)HD_FUNC_ERR_NOT_FOUND == (int)HD_ERR_NOT_FOUND &&
                   (int)HD_FUNC_ERR_ARGS == (int)HD_ERR_ARGS &&
                   (int)HD_FUNC_ERR_MEMORY == (int)HD_ERR_MEMORY &&
                   (int)HD_FUNC_ERR_FAULT == (int)HD_ERR_FAULT &&
                   (int)HD_FUNC_ERR_UNSUPPORTED == (int)HD_ERR_UNSUPPORTED &&
                   (int)HD_FUNC_ERR_INTERRUPTED == (int)HD_ERR_INTERRUPTED &&
                   (int)HD_FUNC_ERR_INTERNAL == (int)HD_ERR_INTERNAL,
               "functional status codes must equal the runtime's");

int hd_rt_fail(struct hd_gpu *gpu, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(gpu->err, sizeof gpu->err, fmt, ap);
    va_end(ap);
    return status;
}

/* {==== GPU ==== */
struct hd_gpu *hd_gpu_create(const char *config_path, char *err, size_t errlen)
{
    struct hd_gpu *gpu = calloc(1, sizeof *gpu);
    if (!gpu) {
        snprintf(err, errlen, "host out of memory creating a GPU");
        return NULL;
    }
    if (config_path) {
        if (hd_config_load(config_path, &gpu->cfg, err, errlen) != 0) {
            free(gpu);
            return NULL;
        }
    } else {
        hd_config_defaults(&gpu->cfg);
    }
    const struct hd_config *c = &gpu->cfg;
    if (hd_rt_config_check(c, config_path, err, errlen) != 0) { /* as `heddle config` does */
        free(gpu);
        return NULL;
    }
    gpu->params.num_sms = c->gpu_num_sms;
    gpu->params.max_warps_per_sm = c->sm_max_threads / c->gpu_warp_size;
    gpu->params.shared_per_sm = c->sm_shared_mem_bytes;
    if (hd_devmem_init(&gpu->mem, (uint64_t)c->gpu_global_mem_mb << 20) != HD_FUNC_OK) {
        snprintf(err, errlen, "host out of memory creating device memory");
        free(gpu);
        return NULL;
    }
    hd_gpu_set_exec_mode(gpu, c->timing_mode == HD_TMODE_FUNCTIONAL ? HD_EXEC_FUNCTIONAL
                                                                    : HD_EXEC_CYCLE);
    return gpu;
}

void hd_gpu_destroy(struct hd_gpu *gpu)
{
    if (!gpu)
        return;
    if (gpu->client) {
        hd_rt_client_destroy(gpu);
        return;
    }
    hd_rt_queue_clear(gpu);
    free(gpu->queue);
    hd_rt_modules_free(gpu);
    if (gpu->exec && gpu->exec->destroy)
        gpu->exec->destroy(gpu->exec_impl);
    hd_rt_timing_free(gpu);
    hd_devmem_destroy(&gpu->mem);
    free(gpu);
}

const char *hd_last_error(const struct hd_gpu *gpu)
{
    return gpu ? gpu->err : "no GPU";
}

void hd_gpu_totals(const struct hd_gpu *gpu, struct hd_run_totals *out)
{
    if (gpu->client) {
        hd_rt_client_totals(gpu, out);
        return;
    }
    *out = gpu->totals;
}

void hd_gpu_set_interrupt(struct hd_gpu *gpu, volatile sig_atomic_t *flag)
{
    if (gpu->client)
        return; /* the GPU's flag interrupts every client */
    gpu->interrupt = flag;
}
/* }==== */

/* {==== Device memory ==== */
int hd_malloc(struct hd_gpu *gpu, hd_devptr *out, size_t bytes)
{
    char msg[256];
    if (gpu->client)
        return hd_rt_client_malloc(gpu, out, bytes);
    if (!out)
        return hd_rt_fail(gpu, HD_ERR_MEMORY, "hd_malloc: NULL result pointer");
    *out = 0;
    int st = hd_devmem_alloc(&gpu->mem, bytes, HD_DEVMEM_USER, NULL, out, msg, sizeof msg);
    if (st != HD_FUNC_OK)
        return hd_rt_fail(gpu, st, "hd_malloc: %s", msg);
    return HD_OK;
}

int hd_free(struct hd_gpu *gpu, hd_devptr ptr)
{
    char msg[256];
    if (gpu->client)
        return hd_rt_client_free(gpu, ptr);
    if (ptr == 0)
        return HD_OK;
    int st = hd_synchronize(gpu);
    if (st != HD_OK)
        return st;
    st = hd_devmem_free(&gpu->mem, ptr, HD_DEVMEM_USER, msg, sizeof msg);
    if (st != HD_FUNC_OK)
        return hd_rt_fail(gpu, st, "hd_free: %s", msg);
    return HD_OK;
}

int hd_memset(struct hd_gpu *gpu, hd_devptr dst, int value, size_t bytes)
{
    char msg[256];
    if (gpu->client)
        return hd_rt_client_memset(gpu, dst, value, bytes);
    int st = hd_synchronize(gpu);
    if (st != HD_OK)
        return st;
    st = hd_devmem_fill(&gpu->mem, dst, (uint8_t)value, bytes, msg, sizeof msg);
    if (st != HD_FUNC_OK)
        return hd_rt_fail(gpu, st, "hd_memset: %s", msg);
    return HD_OK;
}

int hd_memcpy_h2d(struct hd_gpu *gpu, hd_devptr dst, const void *src, size_t bytes)
{
    char msg[256];
    if (gpu->client)
        return hd_rt_client_memcpy_h2d(gpu, dst, src, bytes);
    if (!src && bytes)
        return hd_rt_fail(gpu, HD_ERR_MEMORY, "hd_memcpy_h2d: NULL host source");
    int st = hd_synchronize(gpu);
    if (st != HD_OK)
        return st;
    st = hd_devmem_write(&gpu->mem, dst, src, bytes, msg, sizeof msg);
    if (st != HD_FUNC_OK)
        return hd_rt_fail(gpu, st, "hd_memcpy_h2d: %s", msg);
    return hd_rt_timing_copied_h2d(gpu, dst, bytes);
}

int hd_memcpy_d2h(struct hd_gpu *gpu, void *dst, hd_devptr src, size_t bytes)
{
    char msg[256];
    if (gpu->client)
        return hd_rt_client_memcpy_d2h(gpu, dst, src, bytes);
    if (!dst && bytes)
        return hd_rt_fail(gpu, HD_ERR_MEMORY, "hd_memcpy_d2h: NULL host destination");
    int st = hd_synchronize(gpu);
    if (st != HD_OK)
        return st;
    st = hd_devmem_read(&gpu->mem, src, dst, bytes, msg, sizeof msg);
    if (st != HD_FUNC_OK)
        return hd_rt_fail(gpu, st, "hd_memcpy_d2h: %s", msg);
    return hd_rt_timing_copied_d2h(gpu, src, bytes);
}
/* }==== */
