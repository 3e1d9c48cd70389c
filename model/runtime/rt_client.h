/* SPDX-License-Identifier: MIT
 * rt_client.h - client views of one GPU (heddle_mix.h), internal to model/runtime.
 *
 * Design: a client handle is a struct hd_gpu of its own (so hd_last_error and the handle type
 * work unchanged) whose `client` field points here; every public call of heddle.h starts with
 * `if (gpu->client) return hd_rt_client_<call>(...)`, which forwards to the real GPU with the
 * client's streams mapped to GPU streams, and, where the call must wait for the client's queued
 * launches, parks the client's coroutine in the mix scheduler (rt_mix.c) until a batch ran them.
 * After every batch the GPU reports it here (hd_rt_batch_done), which attributes the launches to
 * their clients and calls the kernel observer.
 */
#ifndef HD_RT_CLIENT_H
#define HD_RT_CLIENT_H

#include "heddle_mix.h"
#include "launch.h"

#include <stdbool.h>
#include <stddef.h>

struct hd_rt_mix;

struct hd_rt_client {
    struct hd_gpu *gpu;          /* the real GPU */
    struct hd_rt_mix *mix;
    unsigned index;              /* in the task array */
    int *streams;                /* client stream id -> GPU stream id; [0] is its stream 0 */
    unsigned nstreams, cap_streams;
    struct hd_run_totals totals;
    unsigned batches, shared_batches;
    /* set by hd_rt_batch_done for the batch being run */
    bool in_batch;               /* had a launch in it */
    bool culprit;                /* one of its launches failed */
    bool unfinished;             /* one of its launches did not finish */
};

/* {==== The calls of heddle.h on a client handle (rt_client.c) ==== */
void hd_rt_client_destroy(struct hd_gpu *c);
void hd_rt_client_totals(const struct hd_gpu *c, struct hd_run_totals *out);
int hd_rt_client_malloc(struct hd_gpu *c, hd_devptr *out, size_t bytes);
int hd_rt_client_free(struct hd_gpu *c, hd_devptr ptr);
int hd_rt_client_memset(struct hd_gpu *c, hd_devptr dst, int value, size_t bytes);
int hd_rt_client_memcpy_h2d(struct hd_gpu *c, hd_devptr dst, const void *src, size_t bytes);
int hd_rt_client_memcpy_d2h(struct hd_gpu *c, void *dst, hd_devptr src, size_t bytes);
int hd_rt_client_module_load_text(struct hd_gpu *c, const char *text, size_t len,
                                  const char *name, struct hd_module **out);
int hd_rt_client_module_load_file(struct hd_gpu *c, const char *path, struct hd_module **out);
int hd_rt_client_module_symbol(struct hd_gpu *c, struct hd_module *mod, const char *name,
                               hd_devptr *addr, size_t *bytes);
int hd_rt_client_module_set_ptxas(struct hd_gpu *c, struct hd_module *mod, const char *summary,
                                  size_t len, const char *name);
int hd_rt_client_kernel_set_regs(struct hd_gpu *c, struct hd_module *mod, const char *kernel,
                                 uint32_t regs);
int hd_rt_client_stream_create(struct hd_gpu *c, int *stream);
int hd_rt_client_launch(struct hd_gpu *c, struct hd_module *mod, const char *kernel,
                        struct hd_dim3 grid, struct hd_dim3 block, uint32_t dynamic_shared_bytes,
                        int stream, const struct hd_arg *args, unsigned nargs);
int hd_rt_client_synchronize(struct hd_gpu *c);
int hd_rt_client_stream_synchronize(struct hd_gpu *c, int stream);
/* }==== */

/* Create the client handle of task `index` on `gpu` (its stream 0 is a new GPU stream), or NULL
 * with the error recorded in gpu. */
struct hd_gpu *hd_rt_client_create(struct hd_gpu *gpu, struct hd_rt_mix *mix, unsigned index);
/* Free a client handle (at the end of hd_gpu_run_clients). */
void hd_rt_client_release(struct hd_gpu *c);
/* The client that owns GPU stream `gstream` among clients[0..n), or -1. */
int hd_rt_client_owner(struct hd_gpu *const *clients, unsigned n, int gstream);
/* Does the client have launches queued on GPU stream `gstream` (-1: on any of its streams)? */
bool hd_rt_client_pending(const struct hd_gpu *c, int gstream);

/* Park the running client (rt_mix.c) until its queued launches on GPU stream `gstream` (-1: on
 * any of its streams) have run; returns HD_OK or the batch's error (message copied into c->err). */
int hd_rt_mix_wait(struct hd_gpu *c, int gstream);

/* The timing executor's launch l (GPU stream `gstream`) finished while its batch runs (rt_mix.c):
 * if its client waits and waits for nothing else, resume it until it waits again or returns.
 * The launches it queued meanwhile are queue[gpu->nrun..nqueue), for the executor to add. */
void hd_rt_mix_launch_finished(struct hd_gpu *gpu, const struct hd_func_launch *l, int gstream);
/* Has the running mix a client that has not returned (one that may resume inside a batch)? */
bool hd_rt_mix_live(const struct hd_gpu *gpu);

/* Called by the GPU after the executor ran launches ls[0..n) (streams ss) as one batch, with the
 * executor's status and message, before the launches are freed (rt_mix.c). */
void hd_rt_batch_done(struct hd_gpu *gpu, struct hd_func_launch *const *ls, const int *ss,
                      unsigned n, int status, const char *msg);

#endif
