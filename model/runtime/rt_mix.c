/* SPDX-License-Identifier: MIT
 * rt_mix.c - running several host programs concurrently on one GPU (heddle_mix.h): the
 * cooperative scheduler, the clients' coroutines, and the per-batch report of the GPU.
 *
 * Design: each client body runs on its own stack as a POSIX ucontext coroutine (makecontext /
 * swapcontext). The scheduler context loops: it resumes every ready client in index order, each
 * until it parks (hd_rt_mix_wait: it must wait for its queued launches on a stream, or on all
 * its streams) or returns; when no client is ready it synchronizes the GPU, which hands every
 * queued launch of every client to the executor. With the timing executor the GPU keeps running
 * while clients come and go (issue 24 item 1, the mix runtime's batch defect): the timing model
 * reports each finished launch (hd_rt_mix_launch_finished, from its finish hook at the end of
 * the cycle's SM ticks), and a parked client whose awaited launches have all finished resumes
 * there, in that cycle, while the other clients' launches stay resident; what it queues then
 * joins the running batch (a launch with a later arrival cycle arrives when due). So a client's
 * next launch is issued as soon as its own previous launch finished, never held back by another
 * client's work (before: a client waited for the whole batch, the preempter's late launch
 * included, so a multi-launch victim was never preempted). The functional executor has no time:
 * there every client waiting in a batch resumes after the whole batch, in index order. The GPU
 * reports each batch (hd_rt_batch_done) before freeing its launches, which attributes each
 * launch to its client by stream (totals, batches, a failed launch) and calls the kernel
 * observer; then every client still parked becomes ready with the batch's outcome.
 * Everything happens on one host thread in a fixed order, so a mix is as deterministic as a
 * single program. Stacks are 8 MiB of reserved (not committed) memory with a guard page below,
 * so a driver's deep recursion faults instead of corrupting the heap.
 */
#define _DEFAULT_SOURCE    /* MAP_ANONYMOUS, MAP_NORESERVE */
#define _XOPEN_SOURCE 700  /* ucontext, sysconf */

#include "rt_client.h"
#include "rt_internal.h"

#include "func_status.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#define MIX_STACK_BYTES (8u << 20)

enum mix_state { MIX_READY, MIX_WAITING, MIX_DONE, MIX_YIELDED };

struct mix_slot {
    struct hd_rt_mix *mix;
    unsigned index;
    struct hd_gpu *handle;       /* the client handle */
    ucontext_t ctx;
    unsigned char *stack_map;    /* guard page + stack */
    size_t map_bytes;
    enum mix_state state;
    int wake_status;             /* outcome of the batch it waited for */
    int wait_stream;             /* MIX_WAITING: the GPU stream it waits for (-1: all of its) */
    bool peers_busy;             /* hd_client_await_peers' answer when it resumes */
};

struct hd_rt_mix {
    struct hd_gpu *gpu;
    struct hd_client_task *tasks;
    struct mix_slot *slots;
    struct hd_gpu **handles;     /* [n], for hd_rt_client_owner */
    unsigned n;
    ucontext_t sched;
};

/* {==== Coroutines ==== */
static void mix_entry(unsigned hi, unsigned lo)
{
    uintptr_t p = (uintptr_t)lo;
#if UINTPTR_MAX > 0xffffffffu
    p |= (uintptr_t)hi << 32;
#else
    (void)hi;
#endif
    struct mix_slot *s = (struct mix_slot *)p;
    struct hd_client_task *t = &s->mix->tasks[s->index];
    t->status = t->body(s->handle, t->arg);
    s->state = MIX_DONE;
    /* returning resumes uc_link, the scheduler */
}

static int slot_init(struct hd_rt_mix *mix, struct mix_slot *s)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t guard = page > 0 ? (size_t)page : 4096u;
    s->map_bytes = guard + MIX_STACK_BYTES;
    void *m = mmap(NULL, s->map_bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
        s->stack_map = NULL;
        return hd_rt_fail(mix->gpu, HD_ERR_MEMORY, "no memory for the stack of client %u (%s)",
                          s->index, mix->tasks[s->index].name ? mix->tasks[s->index].name : "");
    }
    s->stack_map = m;
    mprotect(s->stack_map, guard, PROT_NONE);
    if (getcontext(&s->ctx) != 0)
        return hd_rt_fail(mix->gpu, HD_ERR_INTERNAL, "getcontext failed for client %u", s->index);
    s->ctx.uc_stack.ss_sp = s->stack_map + guard;
    s->ctx.uc_stack.ss_size = MIX_STACK_BYTES;
    s->ctx.uc_link = &mix->sched;
    uintptr_t p = (uintptr_t)s;
    unsigned lo = (unsigned)(p & 0xffffffffu), hi = 0;
#if UINTPTR_MAX > 0xffffffffu
    hi = (unsigned)(p >> 32);
#endif
    makecontext(&s->ctx, (void (*)(void))mix_entry, 2, hi, lo);
    s->state = MIX_READY;
    return HD_OK;
}

static void slot_free(struct mix_slot *s)
{
    if (s->stack_map)
        munmap(s->stack_map, s->map_bytes);
    hd_rt_client_release(s->handle);
}

int hd_rt_mix_wait(struct hd_gpu *c, int gstream)
{
    struct hd_rt_mix *mix = c->client->mix;
    struct mix_slot *s = &mix->slots[c->client->index];
    s->state = MIX_WAITING;
    s->wait_stream = gstream;
    swapcontext(&s->ctx, &mix->sched);
    return s->wake_status; /* the scheduler wrote the message into c->err */
}
/* Has a client other than c launches queued that have not finished? */
static bool others_busy(const struct hd_rt_mix *mix, unsigned c)
{
    for (unsigned i = 0; i < mix->n; i++)
        if (i != c && hd_rt_client_pending(mix->handles[i], -1))
            return true;
    return false;
}

bool hd_client_await_peers(struct hd_gpu *c)
{
    if (!c->client || !c->client->mix)
        return false;
    struct hd_rt_mix *mix = c->client->mix;
    const unsigned me = c->client->index;
    if (others_busy(mix, me))
        return true;
    bool alive = false; /* another client will run host code or wait for launches */
    for (unsigned i = 0; i < mix->n; i++)
        alive = alive || (i != me && (mix->slots[i].state == MIX_READY ||
                                      mix->slots[i].state == MIX_WAITING));
    if (!alive)
        return false;
    struct mix_slot *s = &mix->slots[me];
    s->state = MIX_YIELDED;
    swapcontext(&s->ctx, &mix->sched);
    return s->peers_busy;
}

/* Every other client waits or returned: resume the parked ones of hd_client_await_peers with
 * their answer. Returns whether there were any. */
static bool wake_yielded(struct hd_rt_mix *mix)
{
    bool any = false;
    for (unsigned i = 0; i < mix->n; i++)
        if (mix->slots[i].state == MIX_YIELDED) {
            mix->slots[i].peers_busy = others_busy(mix, i);
            mix->slots[i].state = MIX_READY;
            any = true;
        }
    return any;
}
/* }==== */

/* {==== Batches ==== */
void hd_rt_batch_done(struct hd_gpu *gpu, struct hd_func_launch *const *ls, const int *ss,
                      unsigned n, int status, const char *msg)
{
    (void)msg;
    gpu->batches++;
    struct hd_rt_mix *mix = gpu->mix;
    if (mix) {
        for (unsigned c = 0; c < mix->n; c++) {
            mix->handles[c]->client->in_batch = false;
            mix->handles[c]->client->culprit = false;
            mix->handles[c]->client->unfinished = false;
        }
        for (unsigned i = 0; i < n; i++) {
            int owner = hd_rt_client_owner(mix->handles, mix->n, ss[i]);
            if (owner < 0)
                continue;
            struct hd_rt_client *cl = mix->handles[owner]->client;
            cl->in_batch = true;
            cl->totals.warp_instrs += ls[i]->warp_instrs;
            cl->totals.thread_instrs += ls[i]->thread_instrs;
            if (status == HD_FUNC_OK || ls[i]->finished) {
                cl->totals.kernels++;
                cl->totals.ctas += ls[i]->nctas;
            } else {
                cl->unfinished = true;
                cl->culprit |= ls[i]->err[0] != '\0';
            }
        }
        unsigned in = 0;
        for (unsigned c = 0; c < mix->n; c++)
            in += mix->handles[c]->client->in_batch;
        for (unsigned c = 0; c < mix->n; c++) {
            struct hd_rt_client *cl = mix->handles[c]->client;
            cl->batches += cl->in_batch;
            cl->shared_batches += cl->in_batch && in > 1;
        }
    }
    if (status != HD_FUNC_OK || !gpu->observer)
        return;
    for (unsigned i = 0; i < n; i++) {
        const struct hd_func_launch *l = ls[i];
        struct hd_kernel_record r = {
            .kernel = l->k->entry->name,
            .client = mix ? hd_rt_client_owner(mix->handles, mix->n, ss[i]) : -1,
            .stream = ss[i],
            .batch = gpu->batches,
            .gridid = l->gridid,
            .grid = {l->grid[0], l->grid[1], l->grid[2]},
            .block = {l->block[0], l->block[1], l->block[2]},
            .dynamic_shared_bytes = l->dyn_shared,
            .ctas = l->nctas,
            .warp_instrs = l->warp_instrs,
            .thread_instrs = l->thread_instrs,
        };
        gpu->observer(gpu->observer_arg, &r);
    }
}

/* The outcome of the batch just run for client c: HD_OK, or `status` with a message. A client
 * whose launches of the batch all finished has its results, whatever happened to the others
 * (issue 34 item 1: a finished workload stays verified). */
static int batch_outcome(struct hd_rt_mix *mix, unsigned c, int status, int culprit)
{
    struct hd_gpu *h = mix->handles[c];
    if (status == HD_OK || !h->client->unfinished)
        return HD_OK;
    if (culprit < 0 || (unsigned)culprit == c) {
        snprintf(h->err, sizeof h->err, "%s", mix->gpu->err);
    } else {
        const char *who = mix->tasks[culprit].name ? mix->tasks[culprit].name : "another client";
        snprintf(h->err, sizeof h->err, "batch abandoned: a launch of client %d (%s) failed: %.1800s",
                 culprit, who, mix->gpu->err);
    }
    return status;
}

bool hd_rt_mix_live(const struct hd_gpu *gpu)
{
    const struct hd_rt_mix *mix = gpu->mix;
    for (unsigned c = 0; mix && c < mix->n; c++)
        if (mix->slots[c].state != MIX_DONE)
            return true;
    return false;
}

void hd_rt_mix_launch_finished(struct hd_gpu *gpu, const struct hd_func_launch *l, int gstream)
{
    for (unsigned i = 0; i < gpu->nrun; i++)
        if (gpu->queue[i].launch == l)
            gpu->queue[i].finished = true;
    struct hd_rt_mix *mix = gpu->mix;
    if (!mix)
        return;
    const int c = hd_rt_client_owner(mix->handles, mix->n, gstream);
    if (c < 0)
        return;
    struct mix_slot *s = &mix->slots[c];
    if (s->state != MIX_WAITING || hd_rt_client_pending(s->handle, s->wait_stream))
        return; /* it waits for more of its launches */
    s->wake_status = HD_OK;
    s->state = MIX_READY;
    swapcontext(&mix->sched, &s->ctx); /* until it waits again or returns */
}

/* Run every queued launch as one batch (with the timing executor, clients resume inside it as
 * their own launches finish, and their new launches join it) and wake the clients still waiting
 * with its outcome. */
static void mix_batch(struct hd_rt_mix *mix)
{
    int st = hd_synchronize(mix->gpu);
    int culprit = -1;
    for (unsigned c = 0; c < mix->n && st != HD_OK; c++)
        if (mix->handles[c]->client->culprit) {
            culprit = (int)c;
            break;
        }
    for (unsigned c = 0; c < mix->n; c++) {
        struct mix_slot *s = &mix->slots[c];
        if (s->state == MIX_WAITING) {
            s->wake_status = batch_outcome(mix, c, st, culprit);
            s->state = MIX_READY;
        } else if (s->state == MIX_DONE && st != HD_OK && mix->handles[c]->client->in_batch &&
                   mix->tasks[c].status == HD_OK) {
            /* it returned without synchronizing, and its work failed */
            mix->tasks[c].status = batch_outcome(mix, c, st, culprit);
        }
    }
}
/* }==== */

int hd_gpu_run_clients(struct hd_gpu *gpu, struct hd_client_task *tasks, unsigned n)
{
    if (gpu->client)
        return hd_rt_fail(gpu->client->gpu, HD_ERR_ARGS,
                          "hd_gpu_run_clients: called on a client handle");
    if (gpu->mix)
        return hd_rt_fail(gpu, HD_ERR_ARGS, "hd_gpu_run_clients: clients already run on this GPU");
    if (n == 0 || !tasks)
        return hd_rt_fail(gpu, HD_ERR_ARGS, "hd_gpu_run_clients: no clients");
    for (unsigned i = 0; i < n; i++)
        if (!tasks[i].body)
            return hd_rt_fail(gpu, HD_ERR_ARGS, "hd_gpu_run_clients: client %u has no body", i);

    struct hd_rt_mix *mix = calloc(1, sizeof *mix);
    struct mix_slot *slots = calloc(n, sizeof *slots);
    struct hd_gpu **handles = calloc(n, sizeof *handles);
    if (!mix || !slots || !handles) {
        free(mix);
        free(slots);
        free(handles);
        return hd_rt_fail(gpu, HD_ERR_MEMORY, "host out of memory starting %u clients", n);
    }
    *mix = (struct hd_rt_mix){.gpu = gpu, .tasks = tasks, .slots = slots, .handles = handles,
                              .n = n};
    int st = HD_OK;
    for (unsigned i = 0; i < n && st == HD_OK; i++) {
        tasks[i].status = HD_OK;
        memset(&tasks[i].totals, 0, sizeof tasks[i].totals);
        tasks[i].batches = tasks[i].shared_batches = 0;
        slots[i].mix = mix;
        slots[i].index = i;
        slots[i].handle = handles[i] = hd_rt_client_create(gpu, mix, i);
        st = handles[i] ? slot_init(mix, &slots[i]) : HD_ERR_MEMORY;
    }

    if (st == HD_OK) {
        gpu->mix = mix;
        for (;;) {
            for (unsigned i = 0; i < n; i++)
                if (slots[i].state == MIX_READY)
                    swapcontext(&mix->sched, &slots[i].ctx);
            if (wake_yielded(mix))
                continue; /* they queue their next work before the batch runs, or return */
            bool waiting = false;
            for (unsigned i = 0; i < n; i++)
                waiting = waiting || slots[i].state == MIX_WAITING;
            if (!waiting && gpu->nqueue == 0)
                break;
            mix_batch(mix);
        }
        gpu->mix = NULL;
        for (unsigned i = 0; i < n; i++) {
            const struct hd_rt_client *cl = handles[i]->client;
            tasks[i].totals = cl->totals;
            tasks[i].batches = cl->batches;
            tasks[i].shared_batches = cl->shared_batches;
        }
    }
    for (unsigned i = 0; i < n; i++)
        slot_free(&slots[i]);
    free(slots);
    free(handles);
    free(mix);
    return st;
}

void hd_gpu_set_kernel_observer(struct hd_gpu *gpu, hd_kernel_observer fn, void *arg)
{
    if (gpu->client)
        return;
    gpu->observer = fn;
    gpu->observer_arg = arg;
}

unsigned hd_gpu_batches(const struct hd_gpu *gpu)
{
    return gpu->client ? gpu->client->batches : gpu->batches;
}
