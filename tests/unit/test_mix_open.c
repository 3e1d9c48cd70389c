/* SPDX-License-Identifier: MIT
 * test_mix_open.c - open-ended co-running (heddle_mix.h: open clients, hd_client_await_peers;
 * model/timing/gpu_launch.c: launches added while the GPU runs). A long client runs three
 * host-synchronized rounds of a pointer chase; an open client runs a one-CTA vecadd again and again
 * while the other's kernels are on the GPU, checking every result. With the timing executor its
 * relaunches (and the long client's rounds: every client resumes as soon as its own launches
 * finished, issue 24 item 1) join the running batch (one shared batch, many instances, cycles
 * the same twice); with the functional one it co-runs once per batch. Also: a client that awaits
 * peers that have all returned is answered at once, and the call on a plain GPU says false. The
 * kernels are the real nvcc vecadd of workloads/vecadd and the one-thread pointer chase of
 * workloads/chase (long: every hop waits for the previous load).
 */
#include "heddle_mix.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VA_PTX "workloads/vecadd/vecadd.ptx"
#define CHASE_PTX "workloads/chase/chase.ptx"
#define CHASE_NODES 64
#define CHASE_HOPS 1500

/* One client: `rounds` rounds of c = a + b over n elements (rounds 0: open client, until its
 * peers are done), each round launched, synchronized and checked. */
struct va_client {
    unsigned n, rounds;
    bool open;
    unsigned instances, verified;
    int status;
};

static int va_round(struct hd_gpu *c, struct hd_module *mod, struct va_client *v, unsigned r)
{
    float *ha = malloc(v->n * sizeof *ha), *hb = malloc(v->n * sizeof *hb);
    float *hc = malloc(v->n * sizeof *hc);
    hd_devptr a = 0, b = 0, out = 0;
    int st = ha && hb && hc ? HD_OK : HD_ERR_MEMORY;
    for (unsigned i = 0; st == HD_OK && i < v->n; i++) {
        ha[i] = (float)i + (float)r;
        hb[i] = 0.5f * (float)(i % 5);
    }
    if (st == HD_OK)
        st = hd_malloc(c, &a, v->n * 4);
    if (st == HD_OK)
        st = hd_malloc(c, &b, v->n * 4);
    if (st == HD_OK)
        st = hd_malloc(c, &out, v->n * 4);
    if (st == HD_OK)
        st = hd_memcpy_h2d(c, a, ha, v->n * 4);
    if (st == HD_OK)
        st = hd_memcpy_h2d(c, b, hb, v->n * 4);
    unsigned n = v->n;
    struct hd_arg args[4] = {HD_ARG(a), HD_ARG(b), HD_ARG(out), HD_ARG(n)};
    struct hd_dim3 grid = {(n + 127) / 128, 1, 1}, block = {128, 1, 1};
    if (st == HD_OK)
        st = hd_launch(c, mod, "vecadd", grid, block, 0, 0, args, 4);
    if (st == HD_OK)
        st = hd_synchronize(c);
    if (st == HD_OK)
        st = hd_memcpy_d2h(c, hc, out, v->n * 4);
    bool ok = st == HD_OK;
    for (unsigned i = 0; ok && i < v->n; i++)
        ok = hc[i] == ha[i] + hb[i];
    v->verified += ok;
    hd_free(c, a);
    hd_free(c, b);
    hd_free(c, out);
    free(ha);
    free(hb);
    free(hc);
    return st;
}

static int va_body(struct hd_gpu *c, void *arg)
{
    struct va_client *v = arg;
    struct hd_module *mod = NULL;
    int st = hd_module_load_file(c, VA_PTX, &mod);
    for (unsigned r = 0; st == HD_OK; r++) {
        if (!v->open && r == v->rounds)
            break;
        st = va_round(c, mod, v, r);
        v->instances++;
        if (st == HD_OK && v->open && !hd_client_await_peers(c))
            break;
    }
    v->status = st;
    return st;
}

/* The long client: `rounds` launches of a one-thread chase over a cycle of CHASE_NODES pointers,
 * each synchronized and checked against the same walk on the host. */
struct chase_client {
    unsigned rounds, verified;
    int status;
};

static int chase_body(struct hd_gpu *c, void *arg)
{
    struct chase_client *v = arg;
    struct hd_module *mod = NULL;
    hd_devptr chain = 0, result = 0;
    uint64_t host[CHASE_NODES];
    int st = hd_module_load_file(c, CHASE_PTX, &mod);
    if (st == HD_OK)
        st = hd_malloc(c, &chain, sizeof host);
    if (st == HD_OK)
        st = hd_malloc(c, &result, 8);
    for (unsigned i = 0; i < CHASE_NODES; i++) /* node i -> node (i * 5 + 3) mod 64: one cycle */
        host[i] = chain + 8u * ((i * 5u + 3u) % CHASE_NODES);
    if (st == HD_OK)
        st = hd_memcpy_h2d(c, chain, host, sizeof host);
    for (unsigned r = 0; st == HD_OK && r < v->rounds; r++) {
        int hops = CHASE_HOPS + (int)r;
        struct hd_arg args[3] = {HD_ARG(chain), HD_ARG(result), HD_ARG(hops)};
        struct hd_dim3 one = {1, 1, 1};
        uint64_t got = 0, p = chain;
        st = hd_launch(c, mod, "chase", one, one, 0, 0, args, 3);
        if (st == HD_OK)
            st = hd_synchronize(c);
        if (st == HD_OK)
            st = hd_memcpy_d2h(c, &got, result, 8);
        for (int h = 0; h < hops; h++)
            p = host[(p - chain) / 8];
        v->verified += st == HD_OK && got == p;
    }
    v->status = st;
    return st;
}

/* Run the long client and the open one; returns the GPU's cycles (0 in functional mode). */
static uint64_t run_pair(struct hd_test_state *t, enum hd_exec_mode mode,
                         struct chase_client *lng, struct va_client *opn,
                         struct hd_client_task tasks[2])
{
    char err[256];
    struct hd_gpu *gpu = hd_gpu_create(NULL, err, sizeof err);
    if (!HD_CHECK(t, gpu != NULL))
        return 0;
    hd_gpu_set_exec_mode(gpu, mode);
    *lng = (struct chase_client){.rounds = 3};
    *opn = (struct va_client){.n = 128, .open = true};
    tasks[0] = (struct hd_client_task){.name = "long", .body = chase_body, .arg = lng};
    tasks[1] = (struct hd_client_task){.name = "open", .body = va_body, .arg = opn, .open = true};
    HD_CHECK_U64(t, HD_OK, hd_gpu_run_clients(gpu, tasks, 2));
    HD_CHECK(t, !hd_client_await_peers(gpu)); /* not a client */
    struct hd_timing_totals tt;
    hd_gpu_timing_totals(gpu, &tt);
    hd_gpu_destroy(gpu);
    return tt.cycles;
}

static void test_open(struct hd_test_state *t, enum hd_exec_mode mode)
{
    hd_test_begin(t, "an open client relaunches while the other client's kernels run");
    struct chase_client lng;
    struct va_client opn;
    struct hd_client_task tasks[2];
    const uint64_t cycles = run_pair(t, mode, &lng, &opn, tasks);
    HD_CHECK_U64(t, HD_OK, tasks[0].status);
    HD_CHECK_U64(t, HD_OK, tasks[1].status);
    HD_CHECK_U64(t, 3, lng.verified);
    HD_CHECK_U64(t, opn.instances, opn.verified); /* every relaunch checked its output */
    HD_CHECK_U64(t, opn.instances, tasks[1].totals.kernels);
    /* timing: the long client's rounds also resume inside the running batch (issue 24 item 1),
     * so everything runs as one batch; functional: one batch per round */
    const unsigned batches = mode == HD_EXEC_CYCLE ? 1 : 3;
    HD_CHECK_U64(t, batches, tasks[0].batches);
    HD_CHECK_U64(t, batches, tasks[1].batches); /* it co-ran with each of the long client's rounds */
    HD_CHECK_U64(t, batches, tasks[1].shared_batches);
    if (mode == HD_EXEC_CYCLE) {
        /* its relaunches joined the running batch: many more instances than the chase's rounds */
        HD_CHECK(t, opn.instances > 6);
        fprintf(stderr, "  %u instances beside 3 chase rounds, %llu cycles\n", opn.instances,
                (unsigned long long)cycles);
        struct chase_client l2;
        struct va_client o2;
        struct hd_client_task t2[2];
        HD_CHECK_U64(t, cycles, run_pair(t, mode, &l2, &o2, t2)); /* deterministic */
        HD_CHECK_U64(t, opn.instances, o2.instances);
    } else {
        HD_CHECK_U64(t, 3, opn.instances); /* one per batch without the timing model */
    }
}

static void test_alone(struct hd_test_state *t, enum hd_exec_mode mode)
{
    hd_test_begin(t, "an open client whose peers are done is answered at once");
    char err[256];
    struct hd_gpu *gpu = hd_gpu_create(NULL, err, sizeof err);
    if (!HD_CHECK(t, gpu != NULL))
        return;
    hd_gpu_set_exec_mode(gpu, mode);
    struct va_client one = {.n = 128, .rounds = 1}, opn = {.n = 128, .open = true};
    struct hd_client_task tasks[2] = {{.name = "one", .body = va_body, .arg = &one},
                                      {.name = "open", .body = va_body, .arg = &opn, .open = true}};
    HD_CHECK_U64(t, HD_OK, hd_gpu_run_clients(gpu, tasks, 2));
    HD_CHECK_U64(t, 1, one.verified);
    HD_CHECK(t, opn.instances >= 1 && opn.instances <= 2);
    HD_CHECK_U64(t, opn.instances, opn.verified);
    struct va_client solo = {.n = 128, .open = true};
    struct hd_client_task task = {.name = "solo", .body = va_body, .arg = &solo, .open = true};
    HD_CHECK_U64(t, HD_OK, hd_gpu_run_clients(gpu, &task, 1)); /* no peers at all */
    HD_CHECK_U64(t, HD_OK, task.status);
    HD_CHECK_U64(t, 1, solo.instances);
    HD_CHECK_U64(t, 1, solo.verified);
    hd_gpu_destroy(gpu);
}

int main(void)
{
    struct hd_test_state t = {0};
    const enum hd_exec_mode modes[2] = {HD_EXEC_CYCLE, HD_EXEC_FUNCTIONAL};
    for (int m = 0; m < 2; m++) {
        fprintf(stderr, "executor: %s\n", m == 0 ? "timing (cycle)" : "functional");
        test_open(&t, modes[m]);
        test_alone(&t, modes[m]);
    }
    return hd_test_finish(&t);
}
