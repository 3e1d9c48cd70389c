/* SPDX-License-Identifier: MIT
 * rt_client.c - the calls of heddle.h on a client handle (heddle_mix.h): one host program's
 * view of a GPU that other clients share.
 *
 * Design (see rt_client.h): every call forwards to the real GPU. Streams are mapped: client
 * stream k is GPU stream streams[k] (k = 0 is a GPU stream of its own, never the GPU's stream 0,
 * so launches of different clients may overlap). Calls that must see the results of the
 * client's queued launches (synchronize, blocking copies, memset, free) first wait for them:
 * the coroutine is parked in the mix scheduler (hd_rt_mix_wait) until the GPU ran them, instead
 * of running the GPU's queue itself, which would run other clients' work out of turn. A client
 * with nothing queued never waits. Errors are recorded in the client handle (its own
 * hd_last_error); the messages are those of the real calls.
 */
#include "rt_client.h"
#include "rt_internal.h"

#include "func_status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {==== Handles ==== */
struct hd_gpu *hd_rt_client_create(struct hd_gpu *gpu, struct hd_rt_mix *mix, unsigned index)
{
    struct hd_gpu *c = calloc(1, sizeof *c);
    struct hd_rt_client *cl = calloc(1, sizeof *cl);
    int *streams = malloc(4 * sizeof *streams);
    if (!c || !cl || !streams) {
        free(c);
        free(cl);
        free(streams);
        hd_rt_fail(gpu, HD_ERR_MEMORY, "host out of memory creating client %u", index);
        return NULL;
    }
    int gs = 0;
    hd_stream_create(gpu, &gs);
    streams[0] = gs;
    *cl = (struct hd_rt_client){.gpu = gpu, .mix = mix, .index = index, .streams = streams,
                                .nstreams = 1, .cap_streams = 4};
    c->client = cl;
    c->cfg = gpu->cfg;
    c->params = gpu->params;
    return c;
}

void hd_rt_client_release(struct hd_gpu *c)
{
    if (!c)
        return;
    if (c->client)
        free(c->client->streams);
    free(c->client);
    free(c);
}

void hd_rt_client_destroy(struct hd_gpu *c)
{
    (void)c; /* the mix owns client handles; a driver's hd_gpu_destroy on one does nothing */
}

void hd_rt_client_totals(const struct hd_gpu *c, struct hd_run_totals *out)
{
    *out = c->client->totals;
}

int hd_rt_client_owner(struct hd_gpu *const *clients, unsigned n, int gstream)
{
    for (unsigned i = 0; i < n; i++) {
        const struct hd_rt_client *cl = clients[i] ? clients[i]->client : NULL;
        for (unsigned k = 0; cl && k < cl->nstreams; k++)
            if (cl->streams[k] == gstream)
                return (int)i;
    }
    return -1;
}

static bool owns_stream(const struct hd_rt_client *cl, int gstream)
{
    for (unsigned k = 0; k < cl->nstreams; k++)
        if (cl->streams[k] == gstream)
            return true;
    return false;
}

bool hd_rt_client_pending(const struct hd_gpu *c, int gstream)
{
    const struct hd_rt_client *cl = c->client;
    const struct hd_gpu *gpu = cl->gpu;
    for (unsigned i = 0; i < gpu->nqueue; i++) {
        if (gpu->queue[i].finished)
            continue; /* ran in the batch that is running (an open client resumed early) */
        int s = gpu->queue[i].stream;
        if (gstream >= 0 ? s == gstream : owns_stream(cl, s))
            return true;
    }
    return false;
}
/* }==== */

/* Copy the real GPU's message into the client after a forwarded call failed. */
static int forward(struct hd_gpu *c, int status)
{
    if (status != HD_OK)
        snprintf(c->err, sizeof c->err, "%s", c->client->gpu->err);
    return status;
}

/* Wait until none of the client's launches on GPU stream gstream (-1: any) is queued. */
static int wait_own(struct hd_gpu *c, int gstream)
{
    if (!hd_rt_client_pending(c, gstream))
        return HD_OK;
    return hd_rt_mix_wait(c, gstream);
}

static int map_stream(struct hd_gpu *c, int stream, const char *what, int *gstream)
{
    const struct hd_rt_client *cl = c->client;
    if (stream < 0 || (unsigned)stream >= cl->nstreams)
        return hd_rt_fail(c, HD_ERR_ARGS, "%s: stream %d does not exist", what, stream);
    *gstream = cl->streams[stream];
    return HD_OK;
}

/* {==== Device memory ==== */
int hd_rt_client_malloc(struct hd_gpu *c, hd_devptr *out, size_t bytes)
{
    return forward(c, hd_malloc(c->client->gpu, out, bytes));
}

int hd_rt_client_free(struct hd_gpu *c, hd_devptr ptr)
{
    char msg[256];
    if (ptr == 0)
        return HD_OK;
    int st = wait_own(c, -1);
    if (st != HD_OK)
        return st;
    st = hd_devmem_free(&c->client->gpu->mem, ptr, HD_DEVMEM_USER, msg, sizeof msg);
    if (st != HD_FUNC_OK)
        return hd_rt_fail(c, st, "hd_free: %s", msg);
    return HD_OK;
}

int hd_rt_client_memset(struct hd_gpu *c, hd_devptr dst, int value, size_t bytes)
{
    char msg[256];
    int st = wait_own(c, -1);
    if (st != HD_OK)
        return st;
    st = hd_devmem_fill(&c->client->gpu->mem, dst, (uint8_t)value, bytes, msg, sizeof msg);
    if (st != HD_FUNC_OK)
        return hd_rt_fail(c, st, "hd_memset: %s", msg);
    return HD_OK;
}

int hd_rt_client_memcpy_h2d(struct hd_gpu *c, hd_devptr dst, const void *src, size_t bytes)
{
    char msg[256];
    if (!src && bytes)
        return hd_rt_fail(c, HD_ERR_MEMORY, "hd_memcpy_h2d: NULL host source");
    int st = wait_own(c, -1);
    if (st != HD_OK)
        return st;
    st = hd_devmem_write(&c->client->gpu->mem, dst, src, bytes, msg, sizeof msg);
    if (st != HD_FUNC_OK)
        return hd_rt_fail(c, st, "hd_memcpy_h2d: %s", msg);
    st = hd_rt_timing_copied_h2d(c->client->gpu, dst, bytes);
    return st == HD_OK ? HD_OK : hd_rt_fail(c, st, "hd_memcpy_h2d: %s", c->client->gpu->err);
}

int hd_rt_client_memcpy_d2h(struct hd_gpu *c, void *dst, hd_devptr src, size_t bytes)
{
    char msg[256];
    if (!dst && bytes)
        return hd_rt_fail(c, HD_ERR_MEMORY, "hd_memcpy_d2h: NULL host destination");
    int st = wait_own(c, -1);
    if (st != HD_OK)
        return st;
    st = hd_devmem_read(&c->client->gpu->mem, src, dst, bytes, msg, sizeof msg);
    if (st != HD_FUNC_OK)
        return hd_rt_fail(c, st, "hd_memcpy_d2h: %s", msg);
    st = hd_rt_timing_copied_d2h(c->client->gpu, src, bytes);
    return st == HD_OK ? HD_OK : hd_rt_fail(c, st, "hd_memcpy_d2h: %s", c->client->gpu->err);
}
/* }==== */

/* {==== Modules ==== */
int hd_rt_client_module_load_text(struct hd_gpu *c, const char *text, size_t len,
                                  const char *name, struct hd_module **out)
{
    return forward(c, hd_module_load_text(c->client->gpu, text, len, name, out));
}

int hd_rt_client_module_load_file(struct hd_gpu *c, const char *path, struct hd_module **out)
{
    return forward(c, hd_module_load_file(c->client->gpu, path, out));
}

int hd_rt_client_module_symbol(struct hd_gpu *c, struct hd_module *mod, const char *name,
                               hd_devptr *addr, size_t *bytes)
{
    return forward(c, hd_module_symbol(c->client->gpu, mod, name, addr, bytes));
}

int hd_rt_client_module_set_ptxas(struct hd_gpu *c, struct hd_module *mod, const char *summary,
                                  size_t len, const char *name)
{
    return forward(c, hd_module_set_ptxas(c->client->gpu, mod, summary, len, name));
}

int hd_rt_client_kernel_set_regs(struct hd_gpu *c, struct hd_module *mod, const char *kernel,
                                 uint32_t regs)
{
    return forward(c, hd_kernel_set_regs(c->client->gpu, mod, kernel, regs));
}
/* }==== */

/* {==== Streams, launches, synchronization ==== */
int hd_rt_client_stream_create(struct hd_gpu *c, int *stream)
{
    struct hd_rt_client *cl = c->client;
    if (!stream)
        return hd_rt_fail(c, HD_ERR_ARGS, "hd_stream_create: NULL result pointer");
    if (cl->nstreams == cl->cap_streams) {
        int *s = realloc(cl->streams, 2 * cl->cap_streams * sizeof *s);
        if (!s)
            return hd_rt_fail(c, HD_ERR_MEMORY, "hd_stream_create: host out of memory");
        cl->streams = s;
        cl->cap_streams *= 2;
    }
    int gs = 0;
    int st = hd_stream_create(cl->gpu, &gs);
    if (st != HD_OK)
        return forward(c, st);
    cl->streams[cl->nstreams] = gs;
    *stream = (int)cl->nstreams++;
    return HD_OK;
}

int hd_rt_client_launch(struct hd_gpu *c, struct hd_module *mod, const char *kernel,
                        struct hd_dim3 grid, struct hd_dim3 block, uint32_t dynamic_shared_bytes,
                        int stream, const struct hd_arg *args, unsigned nargs)
{
    int gs = 0;
    int st = map_stream(c, stream, kernel ? kernel : "launch", &gs);
    if (st != HD_OK)
        return st;
    struct hd_gpu *g = c->client->gpu;
    const struct hd_launch_attr own = g->attr; /* the client's attributes for this launch */
    g->attr = c->attr;
    st = hd_launch(g, mod, kernel, grid, block, dynamic_shared_bytes, gs, args, nargs);
    g->attr = own;
    return forward(c, st);
}

int hd_rt_client_synchronize(struct hd_gpu *c)
{
    return wait_own(c, -1);
}

int hd_rt_client_stream_synchronize(struct hd_gpu *c, int stream)
{
    int gs = 0;
    int st = map_stream(c, stream, "hd_stream_synchronize", &gs);
    if (st != HD_OK)
        return st;
    /* Stream 0 waits for every stream of the client, as the GPU's stream 0 does for the GPU. */
    return wait_own(c, stream == 0 ? -1 : gs);
}
/* }==== */
