/* SPDX-License-Identifier: MIT
 * heddle_mix.h - several host programs sharing one GPU concurrently (multi-kernel mixes), and a
 * per-launch observer. Additive to heddle.h, for tools (the CLI's `heddle run --mix`) and tests;
 * a workload's host driver still includes heddle.h only: it runs unchanged as a client.
 *
 * hd_gpu_run_clients runs n host programs ("clients") against one GPU for concurrent-kernel and
 * preemption studies. Each body gets its own client handle, a struct hd_gpu * usable with every
 * call of heddle.h: its stream 0 and the streams it creates are distinct streams of the GPU (so
 * launches of different clients may overlap, and none of them is the GPU's stream 0, which
 * would serialize everything), it shares the GPU's device memory, its errors are its own
 * (hd_last_error), hd_gpu_totals counts its own launches, and hd_synchronize, a blocking copy,
 * memset or free waits only for its own work (as if each client were its own CUDA context on
 * one GPU, MPS-style).
 *
 * Deterministic scheduling: each body is a cooperative coroutine with its own stack. A body that
 * must wait for its queued launches yields; when every client is waiting or finished, the GPU
 * runs every queued launch of every client as one batch (the timing executor overlaps launches
 * of different streams on the SMs; the functional one runs them in submission order). With the
 * timing executor a waiting client resumes in the cycle the launches it waits for have finished
 * (all of its launches, or those of the one stream it synchronizes), while the other clients'
 * launches stay resident, and the launches it queues then join the running batch: a client's
 * next launch is issued as soon as its own previous one finished, as on a GPU whose contexts
 * each have their own host thread (issue 24 item 1; before, a client waited for the whole
 * batch, so a multi-launch victim's next launch waited for a preempter that had not arrived).
 * Launches with an arrival cycle (hd_set_launch_attr) still arrive when due. A client can so
 * relaunch its kernel over and over while another kernel runs, as GPUDuet's and CCBP's
 * co-running experiments do (issue 11). With the functional executor, which has no time, the
 * waiting clients resume after the whole batch, in index order. Host code takes no simulated
 * time.
 *
 * Errors: if a batch fails, the client whose launch failed gets the report, every other client
 * with launches in that batch gets the same status with a note naming the failed one, and the
 * batch is dropped (as a faulted context would be). Ctrl-C (hd_gpu_set_interrupt on the GPU)
 * interrupts every client.
 */
#ifndef HEDDLE_MIX_H
#define HEDDLE_MIX_H

#include "heddle.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hd_client_task {
    const char *name;                              /* for messages (e.g. the workload's name) */
    int (*body)(struct hd_gpu *client, void *arg); /* the host program */
    void *arg;
    bool open;                   /* kept for source compatibility: every client now resumes as
                                    soon as its own launches finished (see above) */
    /* results, filled by hd_gpu_run_clients */
    int status;                  /* what body returned (or the error of work it left queued) */
    struct hd_run_totals totals; /* this client's launches */
    unsigned batches;            /* batches that ran at least one launch of this client */
    unsigned shared_batches;     /* of those, batches that also ran another client's launch */
};

/* One completed launch, as reported to a kernel observer. */
struct hd_kernel_record {
    const char *kernel;          /* kernel name (valid during the call) */
    int client;                  /* index of the client task, -1 for the GPU's own launches */
    int stream;                  /* the GPU stream it ran on */
    unsigned batch;              /* 1, 2, ...: which synchronization of this GPU ran it */
    uint64_t gridid;             /* %gridid */
    struct hd_dim3 grid, block;
    uint32_t dynamic_shared_bytes;
    uint64_t ctas, warp_instrs, thread_instrs;
};
typedef void (*hd_kernel_observer)(void *arg, const struct hd_kernel_record *r);

/* Run tasks[0..n) as clients of `gpu` until every body returned and every launch they queued
 * ran. Returns HD_OK when the clients could be run (each task's own outcome is in its status),
 * or an error with hd_last_error(gpu) set: n == 0, no memory for the stacks, `gpu` is a client
 * handle or already running clients. */
int hd_gpu_run_clients(struct hd_gpu *gpu, struct hd_client_task *tasks, unsigned n);

/* Call `fn` for every launch that completes on `gpu`, client launches included (after each
 * successful batch, in submission order); fn NULL stops it. On a client handle: no-op. */
void hd_gpu_set_kernel_observer(struct hd_gpu *gpu, hd_kernel_observer fn, void *arg);

/* For a client that repeats its work while others run (an open client): park until every other
 * client waits for the GPU or has returned, then say whether another client has launches queued
 * or running (true: co-running continues) or not (false: the others returned, or wait only for
 * this client). Returns at once when the answer is already known (another client's launches are
 * still running, or no other client will run host code or wait for launches); false on a handle
 * that is not a client. */
bool hd_client_await_peers(struct hd_gpu *client);

/* Batches (synchronizations that ran at least one launch) so far on `gpu`. */
unsigned hd_gpu_batches(const struct hd_gpu *gpu);

#ifdef __cplusplus
}
#endif
#endif
