/* SPDX-License-Identifier: MIT
 * test_mix.c - several host programs on one GPU (heddle_mix.h): each client's results, streams
 * of their own, per-client totals and errors, batches shared by clients, the order in which
 * parked clients resume, determinism, attribution of a failed launch, work left queued by a
 * client that returns, and misuse. The kernel is the real nvcc vecadd of workloads/vecadd. Every
 * case runs on both executors: the timing model (launches of different clients overlap) and the
 * functional one (they run in submission order).
 */
#include "heddle_mix.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#define VA_PTX "workloads/vecadd/vecadd.ptx"
#define VA_MAX 4096
#define MAX_RECORDS 64

/* One client's program: `rounds` times c = a + b (+ the round number folded into a), each round
 * launched and synchronized (or, with `nosync`, the last round left queued). */
struct va_client {
    unsigned n, rounds;
    float scale;
    bool nosync, bad_launch;   /* bad_launch: round 0 reads past the end of `a` */
    bool retry_after_error;    /* after a failed round, launch the round again */
    bool own_stream;           /* launch on a stream it creates instead of stream 0 */
    bool nested;               /* try hd_gpu_run_clients from inside */
    int nested_status;
    int first_error;
    char first_msg[512];
    unsigned verified_rounds;
    int stream_created;
};

static int va_body(struct hd_gpu *c, void *arg)
{
    struct va_client *v = arg;
    float ha[VA_MAX], hb[VA_MAX], hc[VA_MAX];
    struct hd_module *mod = NULL;
    hd_devptr a = 0, b = 0, out = 0;
    int st = hd_module_load_file(c, VA_PTX, &mod);
    if (st == HD_OK)
        st = hd_malloc(c, &a, v->n * 4);
    if (st == HD_OK)
        st = hd_malloc(c, &b, v->n * 4);
    if (st == HD_OK)
        st = hd_malloc(c, &out, v->n * 4);
    int stream = 0;
    if (st == HD_OK && v->own_stream) {
        st = hd_stream_create(c, &stream);
        v->stream_created = stream;
    }
    if (v->nested) {
        struct hd_client_task inner = {.name = "inner", .body = va_body, .arg = v};
        v->nested_status = hd_gpu_run_clients(c, &inner, 1);
    }
    for (unsigned r = 0; r < v->rounds && st == HD_OK; r++) {
        for (unsigned i = 0; i < v->n; i++) {
            ha[i] = v->scale * (float)i + (float)r;
            hb[i] = 0.25f * (float)(i % 7);
        }
        st = hd_memcpy_h2d(c, a, ha, v->n * 4);
        if (st == HD_OK)
            st = hd_memcpy_h2d(c, b, hb, v->n * 4);
        unsigned n = v->n;
        unsigned grid_n = (v->bad_launch && r == 0) ? n + 4096 : n;
        struct hd_arg args[4] = {HD_ARG(a), HD_ARG(b), HD_ARG(out), HD_ARG(grid_n)};
        struct hd_dim3 grid = {(grid_n + 127) / 128, 1, 1}, block = {128, 1, 1};
        if (st == HD_OK)
            st = hd_launch(c, mod, "vecadd", grid, block, 0, stream, args, 4);
        if (st != HD_OK)
            break;
        if (v->nosync && r + 1 == v->rounds)
            return HD_OK; /* leaves the last launch queued */
        st = v->own_stream ? hd_stream_synchronize(c, stream) : hd_synchronize(c);
        if (st != HD_OK && v->first_error == HD_OK) {
            v->first_error = st;
            snprintf(v->first_msg, sizeof v->first_msg, "%s", hd_last_error(c));
            if (v->retry_after_error) {
                st = HD_OK;
                r--; /* the same round again */
                v->retry_after_error = false;
                continue;
            }
        }
        if (st == HD_OK)
            st = hd_memcpy_d2h(c, hc, out, v->n * 4);
        bool ok = st == HD_OK;
        for (unsigned i = 0; ok && i < v->n; i++)
            ok = hc[i] == ha[i] + hb[i];
        v->verified_rounds += ok;
    }
    hd_free(c, a);
    hd_free(c, b);
    hd_free(c, out);
    return st;
}

struct rec_log {
    struct hd_kernel_record r[MAX_RECORDS];
    unsigned n;
};

static void rec_observe(void *arg, const struct hd_kernel_record *r)
{
    struct rec_log *log = arg;
    if (log->n < MAX_RECORDS)
        log->r[log->n++] = *r;
}

static struct hd_gpu *new_gpu(struct hd_test_state *t, struct rec_log *log,
                              enum hd_exec_mode mode)
{
    char err[256];
    struct hd_gpu *gpu = hd_gpu_create(NULL, err, sizeof err);
    if (!HD_CHECK(t, gpu != NULL))
        return NULL;
    hd_gpu_set_exec_mode(gpu, mode);
    memset(log, 0, sizeof *log);
    hd_gpu_set_kernel_observer(gpu, rec_observe, log);
    return gpu;
}

static void test_two_clients(struct hd_test_state *t, enum hd_exec_mode mode)
{
    hd_test_begin(t, "two clients verify; own streams, totals, shared first batch, resume order");
    struct rec_log log;
    struct hd_gpu *gpu = new_gpu(t, &log, mode);
    if (!gpu)
        return;
    struct va_client v0 = {.n = 1000, .rounds = 3, .scale = 1.0f};
    struct va_client v1 = {.n = 3000, .rounds = 1, .scale = -2.0f, .own_stream = true};
    struct hd_client_task tasks[2] = {{.name = "three", .body = va_body, .arg = &v0},
                                      {.name = "one", .body = va_body, .arg = &v1}};
    HD_CHECK_U64(t, HD_OK, hd_gpu_run_clients(gpu, tasks, 2));
    HD_CHECK_U64(t, HD_OK, tasks[0].status);
    HD_CHECK_U64(t, HD_OK, tasks[1].status);
    HD_CHECK_U64(t, 3, v0.verified_rounds);
    HD_CHECK_U64(t, 1, v1.verified_rounds);
    HD_CHECK_U64(t, 1, v1.stream_created); /* client stream ids start at 1 for each client */
    HD_CHECK_U64(t, 3, tasks[0].totals.kernels);
    HD_CHECK_U64(t, 1, tasks[1].totals.kernels);
    HD_CHECK_U64(t, 8 * 3, tasks[0].totals.ctas);
    HD_CHECK_U64(t, 24, tasks[1].totals.ctas);
    struct hd_run_totals all;
    hd_gpu_totals(gpu, &all);
    HD_CHECK_U64(t, 4, all.kernels);
    HD_CHECK_U64(t, tasks[0].totals.warp_instrs + tasks[1].totals.warp_instrs, all.warp_instrs);
    /* Functional: batch 1 runs both clients' first launch; batches 2 and 3 only client 0's.
     * Timing: client 0 resumes in the cycle its own launch finished and its next launches join
     * the running batch (issue 24 item 1): one batch, shared. */
    const bool timed = mode == HD_EXEC_CYCLE;
    HD_CHECK_U64(t, timed ? 1 : 3, hd_gpu_batches(gpu));
    HD_CHECK_U64(t, timed ? 1 : 3, tasks[0].batches);
    HD_CHECK_U64(t, 1, tasks[0].shared_batches);
    HD_CHECK_U64(t, 1, tasks[1].batches);
    HD_CHECK_U64(t, 1, tasks[1].shared_batches);
    if (HD_CHECK_U64(t, 4, log.n)) {
        /* Submission order within batch 1: client 0 ran first and queued first. */
        HD_CHECK_U64(t, 1, log.r[0].batch);
        HD_CHECK_U64(t, 0, log.r[0].client);
        HD_CHECK_U64(t, 1, log.r[1].batch);
        HD_CHECK_U64(t, 1, log.r[1].client);
        HD_CHECK_U64(t, timed ? 1 : 2, log.r[2].batch);
        HD_CHECK_U64(t, timed ? 1 : 3, log.r[3].batch);
        HD_CHECK(t, log.r[0].stream != 0 && log.r[1].stream != 0);
        HD_CHECK(t, log.r[0].stream != log.r[1].stream);
        HD_CHECK(t, log.r[0].stream == log.r[2].stream && log.r[2].stream == log.r[3].stream);
        HD_CHECK(t, strcmp(log.r[0].kernel, "vecadd") == 0);
        HD_CHECK_U64(t, 24, log.r[1].ctas);
        HD_CHECK_U64(t, 128, log.r[1].block.x);
    }
    hd_gpu_destroy(gpu);
}

static void test_deterministic(struct hd_test_state *t, enum hd_exec_mode mode)
{
    hd_test_begin(t, "a mix run twice gives identical records and totals");
    struct rec_log log[2];
    struct hd_client_task tasks[2][3];
    for (int run = 0; run < 2; run++) {
        struct hd_gpu *gpu = new_gpu(t, &log[run], mode);
        if (!gpu)
            return;
        struct va_client v[3] = {{.n = 700, .rounds = 2, .scale = 3.0f},
                                 {.n = 2000, .rounds = 3, .scale = 0.5f, .own_stream = true},
                                 {.n = 100, .rounds = 1, .scale = 1.0f}};
        for (int i = 0; i < 3; i++)
            tasks[run][i] = (struct hd_client_task){.name = "va", .body = va_body, .arg = &v[i]};
        HD_CHECK_U64(t, HD_OK, hd_gpu_run_clients(gpu, tasks[run], 3));
        for (int i = 0; i < 3; i++)
            HD_CHECK_U64(t, HD_OK, tasks[run][i].status);
        hd_gpu_destroy(gpu);
    }
    HD_CHECK_U64(t, log[0].n, log[1].n);
    HD_CHECK_U64(t, 6, log[0].n);
    for (unsigned i = 0; i < log[0].n && i < log[1].n; i++) {
        const struct hd_kernel_record *a = &log[0].r[i], *b = &log[1].r[i];
        HD_CHECK(t, a->client == b->client && a->stream == b->stream && a->batch == b->batch &&
                        a->gridid == b->gridid && a->ctas == b->ctas &&
                        a->warp_instrs == b->warp_instrs && a->thread_instrs == b->thread_instrs);
    }
    for (int i = 0; i < 3; i++)
        HD_CHECK(t, memcmp(&tasks[0][i].totals, &tasks[1][i].totals, sizeof tasks[0][i].totals) ==
                        0);
}

static void test_fault(struct hd_test_state *t, enum hd_exec_mode mode)
{
    hd_test_begin(t, "a faulting client gets the report, its batch partner a note; both go on");
    struct rec_log log;
    struct hd_gpu *gpu = new_gpu(t, &log, mode);
    if (!gpu)
        return;
    struct va_client bad = {.n = 256, .rounds = 1, .scale = 1.0f, .bad_launch = true};
    struct va_client good = {.n = 512, .rounds = 2, .scale = 1.0f, .retry_after_error = true};
    struct hd_client_task tasks[2] = {{.name = "bad", .body = va_body, .arg = &bad},
                                      {.name = "good", .body = va_body, .arg = &good}};
    HD_CHECK_U64(t, HD_OK, hd_gpu_run_clients(gpu, tasks, 2));
    HD_CHECK_U64(t, HD_ERR_FAULT, tasks[0].status);
    HD_CHECK_U64(t, HD_ERR_FAULT, bad.first_error);
    HD_CHECK(t, strstr(bad.first_msg, "vecadd") != NULL && strstr(bad.first_msg, "batch") == NULL);
    HD_CHECK_U64(t, HD_ERR_FAULT, good.first_error);
    HD_CHECK(t, strstr(good.first_msg, "batch abandoned: a launch of client 0 (bad) failed") != NULL);
    /* the good client retried its first round and then ran the second */
    HD_CHECK_U64(t, HD_OK, tasks[1].status);
    HD_CHECK_U64(t, 2, good.verified_rounds);
    HD_CHECK_U64(t, 2, tasks[1].totals.kernels);
    HD_CHECK_U64(t, 0, tasks[0].totals.kernels);
    hd_gpu_destroy(gpu);
}

static void test_leftover_and_misuse(struct hd_test_state *t, enum hd_exec_mode mode)
{
    hd_test_begin(t, "work left queued still runs; misuse is refused");
    struct rec_log log;
    struct hd_gpu *gpu = new_gpu(t, &log, mode);
    if (!gpu)
        return;
    struct va_client v = {.n = 300, .rounds = 2, .scale = 1.0f, .nosync = true, .nested = true};
    struct hd_client_task task = {.name = "leaves", .body = va_body, .arg = &v};
    HD_CHECK_U64(t, HD_OK, hd_gpu_run_clients(gpu, &task, 1));
    HD_CHECK_U64(t, HD_OK, task.status);
    HD_CHECK_U64(t, 2, task.totals.kernels);
    HD_CHECK_U64(t, HD_ERR_ARGS, v.nested_status);
    HD_CHECK(t, strstr(hd_last_error(gpu), "client handle") != NULL);
    HD_CHECK_U64(t, HD_ERR_ARGS, hd_gpu_run_clients(gpu, NULL, 0));
    struct hd_client_task nobody = {.name = "nobody"};
    HD_CHECK_U64(t, HD_ERR_ARGS, hd_gpu_run_clients(gpu, &nobody, 1));
    hd_gpu_destroy(gpu);
}

int main(void)
{
    struct hd_test_state t = {0};
    const enum hd_exec_mode modes[2] = {HD_EXEC_CYCLE, HD_EXEC_FUNCTIONAL};
    for (int m = 0; m < 2; m++) {
        fprintf(stderr, "executor: %s\n", m == 0 ? "timing (cycle)" : "functional");
        test_two_clients(&t, modes[m]);
        test_deterministic(&t, modes[m]);
        test_fault(&t, modes[m]);
        test_leftover_and_misuse(&t, modes[m]);
    }
    return hd_test_finish(&t);
}
