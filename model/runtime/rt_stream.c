/* SPDX-License-Identifier: MIT
 * rt_stream.c - streams, kernel launches and synchronization of heddle.h.
 *
 * Design: hd_launch checks everything that can be checked before running (kernel name,
 * argument count and sizes, dimensions, shared memory) and reports it at once; the launch then
 * waits in one queue in submission order, tagged with its stream. Synchronizing hands the
 * relevant prefix of the queue to the executor: everything for hd_synchronize, and for
 * hd_stream_synchronize everything up to the stream's last launch (running other streams' work
 * early is a legal interleaving). After an error the whole queue is dropped, as a faulted CUDA
 * context would be.
 */
#include "rt_internal.h"
#include "rt_client.h"

#include "func_status.h"

#include <stdio.h>
#include <stdlib.h>

int hd_stream_create(struct hd_gpu *gpu, int *stream)
{
    if (gpu->client)
        return hd_rt_client_stream_create(gpu, stream);
    if (!stream)
        return hd_rt_fail(gpu, HD_ERR_ARGS, "hd_stream_create: NULL result pointer");
    *stream = ++gpu->nstreams;
    return HD_OK;
}

void hd_rt_queue_clear(struct hd_gpu *gpu)
{
    for (unsigned i = 0; i < gpu->nqueue; i++) {
        hd_func_launch_destroy(gpu->queue[i].launch);
        free(gpu->queue[i].launch);
    }
    gpu->nqueue = 0;
}

void hd_set_launch_attr(struct hd_gpu *gpu, const struct hd_launch_attr *attr)
{
    static const struct hd_launch_attr none = {0, 0, 0, 0};
    gpu->attr = attr ? *attr : none;
}

int hd_launch(struct hd_gpu *gpu, struct hd_module *mod, const char *kernel, struct hd_dim3 grid,
              struct hd_dim3 block, uint32_t dynamic_shared_bytes, int stream,
              const struct hd_arg *args, unsigned nargs)
{
    char msg[1024];
    if (gpu->client)
        return hd_rt_client_launch(gpu, mod, kernel, grid, block, dynamic_shared_bytes, stream,
                                   args, nargs);
    if (stream < 0 || stream > gpu->nstreams)
        return hd_rt_fail(gpu, HD_ERR_ARGS, "%s: stream %d does not exist", kernel ? kernel : "launch",
                          stream);
    const struct hd_func_kernel *k = hd_rt_find_kernel(gpu, mod, kernel);
    if (!k)
        return HD_ERR_NOT_FOUND;
    if (nargs && !args)
        return hd_rt_fail(gpu, HD_ERR_ARGS, "%s: %u arguments but no argument array", kernel, nargs);
    struct hd_func_arg *fa = calloc(nargs + 1, sizeof *fa);
    struct hd_func_launch *l = calloc(1, sizeof *l);
    if (gpu->nqueue == gpu->cap_queue) {
        unsigned ncap = gpu->cap_queue ? gpu->cap_queue * 2 : 16;
        struct hd_rt_pending *q = realloc(gpu->queue, ncap * sizeof *q);
        if (q) {
            gpu->queue = q;
            gpu->cap_queue = ncap;
        }
    }
    if (!fa || !l || gpu->nqueue == gpu->cap_queue) {
        free(fa);
        free(l);
        return hd_rt_fail(gpu, HD_ERR_MEMORY, "%s: host out of memory queueing the launch", kernel);
    }
    for (unsigned i = 0; i < nargs; i++) {
        fa[i].value = args[i].value;
        fa[i].size = args[i].size;
    }
    const uint32_t g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    int st = hd_func_launch_init(l, k, &gpu->mem, &gpu->params, g, b, dynamic_shared_bytes, fa,
                                 nargs, gpu->launches + 1, msg, sizeof msg);
    free(fa);
    l->observer = gpu->func_observer;
    l->attr = (struct hd_func_launch_attr){gpu->attr.priority, gpu->attr.arrive_cycle,
                                           gpu->attr.latency_bound, gpu->attr.hint, 0, 0};
    hd_rt_kernel_regs(gpu, k, &l->attr.regs_ptxas, &l->attr.regs_given);
    if (st != HD_FUNC_OK) {
        hd_func_launch_destroy(l);
        free(l);
        return hd_rt_fail(gpu, st, "%s", msg);
    }
    gpu->launches++;
    gpu->queue[gpu->nqueue++] = (struct hd_rt_pending){l, stream, false};
    return HD_OK;
}

/* queue[0..n) as arrays of launches and streams (NULL: out of memory). */
static struct hd_func_launch **prefix_arrays(const struct hd_gpu *gpu, unsigned n, int **ss)
{
    struct hd_func_launch **ls = calloc(n, sizeof *ls);
    *ss = calloc(n, sizeof **ss);
    if (!ls || !*ss) {
        free(ls);
        free(*ss);
        return NULL;
    }
    for (unsigned i = 0; i < n; i++) {
        ls[i] = gpu->queue[i].launch;
        (*ss)[i] = gpu->queue[i].stream;
    }
    return ls;
}

/* Run queue[0..n) and remove it from the queue. Launches that open clients queue while it runs
 * join the batch (queue[n..nrun)) and are reported and removed with it. */
static int run_prefix(struct hd_gpu *gpu, unsigned n)
{
    if (n == 0)
        return HD_OK;
    int *ss;
    struct hd_func_launch **ls = prefix_arrays(gpu, n, &ss);
    if (!ls) {
        hd_rt_queue_clear(gpu);
        return hd_rt_fail(gpu, HD_ERR_MEMORY, "host out of memory running launches");
    }
    char msg[sizeof gpu->err];
    gpu->nrun = n;
    int st = gpu->exec->run(gpu->exec_impl, ls, ss, n, gpu->interrupt, msg, sizeof msg);
    if (gpu->nrun > n) { /* launches joined the batch */
        free(ls);
        free(ss);
        n = gpu->nrun;
        if (!(ls = prefix_arrays(gpu, n, &ss))) {
            gpu->nrun = 0;
            hd_rt_queue_clear(gpu);
            return hd_rt_fail(gpu, HD_ERR_MEMORY, "host out of memory running launches");
        }
    }
    gpu->nrun = 0;
    for (unsigned i = 0; i < n; i++)
        gpu->queue[i].finished = false;
    hd_rt_batch_done(gpu, ls, ss, n, st, msg);
    for (unsigned i = 0; i < n; i++) {
        gpu->totals.warp_instrs += ls[i]->warp_instrs;
        gpu->totals.thread_instrs += ls[i]->thread_instrs;
    }
    if (st == HD_FUNC_OK) {
        for (unsigned i = 0; i < n; i++) {
            gpu->totals.kernels++;
            gpu->totals.ctas += ls[i]->nctas;
            hd_func_launch_destroy(ls[i]);
            free(ls[i]);
        }
        for (unsigned i = n; i < gpu->nqueue; i++)
            gpu->queue[i - n] = gpu->queue[i];
        gpu->nqueue -= n;
    } else {
        hd_rt_queue_clear(gpu);
        hd_rt_fail(gpu, st, "%s", msg);
    }
    free(ls);
    free(ss);
    return st;
}

int hd_synchronize(struct hd_gpu *gpu)
{
    if (gpu->client)
        return hd_rt_client_synchronize(gpu);
    return run_prefix(gpu, gpu->nqueue);
}

int hd_stream_synchronize(struct hd_gpu *gpu, int stream)
{
    if (gpu->client)
        return hd_rt_client_stream_synchronize(gpu, stream);
    if (stream < 0 || stream > gpu->nstreams)
        return hd_rt_fail(gpu, HD_ERR_ARGS, "hd_stream_synchronize: stream %d does not exist",
                          stream);
    unsigned n = 0;
    for (unsigned i = 0; i < gpu->nqueue; i++)
        if (gpu->queue[i].stream == stream || stream == 0)
            n = i + 1;
    return run_prefix(gpu, n);
}
