/* SPDX-License-Identifier: MIT
 * test_mix_resume.c - a client of a mix issues its next launch as soon as its own previous launch
 * finished, inside the running batch (heddle_mix.h; model/runtime/rt_mix.c; issue 24 item 1).
 * The case that exposed the defect: a victim of two host-synchronized launches that fill the
 * GTX480, and a higher-priority preempter queued at the start but arriving only during the
 * victim's second launch (Shieh's experiment, thesis §5.2: a multi-launch Table 4.2 benchmark
 * preempted at a random time). Before the fix the victim waited for the whole batch, the
 * preempter's launch included, so its second launch ran after the preempter and was never
 * preempted; now it starts in the cycle its first one finished, the preempter's arrival finds it
 * on every SM, and its CTAs are switched out. Both outputs are checked against CPU references.
 * The kernel is the real nvcc seam-cost DP of workloads/preempter (Shieh's synthetic task). The
 * arrival is the middle of the victim's second launch measured alone on the same configuration.
 * With the functional executor (no time) the victim resumes after the whole batch, as before.
 */
#include "heddle_mix.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PE_PTX "workloads/preempter/preempter.ptx"
#define PE_CONFIG "configs/fermi-gtx480.ini"
#define PE_BLOCK 256
#define PE_PENALTY 3
#define PE_CTAS 90  /* 6 CTAs (by threads) x 15 SMs: the victim fills the GPU */
#define PE_STEPS 4  /* rows per launch */

/* One client: `launches` launches of PE_STEPS rows each over PE_CTAS CTAs, each synchronized
 * before the next is issued (host code between them, as bfs's or kmeans's drivers), at launch
 * attribute `attr`; the final row checked against the host's DP. */
struct seam_client {
    unsigned launches;
    struct hd_launch_attr attr;
    bool verified;
};

static int seam_body(struct hd_gpu *c, void *arg)
{
    struct seam_client *v = arg;
    const int width = PE_BLOCK - 2 * PE_STEPS, cols = PE_CTAS * width;
    const int rows = (int)v->launches * PE_STEPS + 1;
    const size_t cells = (size_t)rows * (size_t)cols, row_bytes = sizeof(int) * (size_t)cols;
    int *energy = malloc(cells * sizeof *energy), *ref = malloc(2 * row_bytes);
    int *got = malloc(row_bytes);
    struct hd_module *mod = NULL;
    hd_devptr d_energy = 0, d_row[2] = {0, 0};
    int st = energy && ref && got ? HD_OK : HD_ERR_MEMORY;
    for (size_t k = 0; st == HD_OK && k < cells; k++)
        energy[k] = (int)((k * 2654435761u + v->launches) >> 7) % 16;
    if (st == HD_OK)
        st = hd_module_load_file(c, PE_PTX, &mod);
    if (st == HD_OK)
        st = hd_malloc(c, &d_energy, cells * sizeof *energy);
    if (st == HD_OK)
        st = hd_malloc(c, &d_row[0], row_bytes);
    if (st == HD_OK)
        st = hd_malloc(c, &d_row[1], row_bytes);
    if (st == HD_OK)
        st = hd_memcpy_h2d(c, d_energy, energy, cells * sizeof *energy);
    if (st == HD_OK)
        st = hd_memcpy_h2d(c, d_row[0], energy, row_bytes);
    hd_set_launch_attr(c, &v->attr);
    int cur = 0;
    for (unsigned l = 0; st == HD_OK && l < v->launches; l++) {
        int row = (int)l * PE_STEPS, steps = PE_STEPS, penalty = PE_PENALTY, n = cols;
        struct hd_arg args[] = {HD_ARG(d_energy), HD_ARG(d_row[cur]), HD_ARG(d_row[1 - cur]),
                                HD_ARG(n), HD_ARG(row), HD_ARG(steps), HD_ARG(penalty)};
        struct hd_dim3 grid = {PE_CTAS, 1, 1}, block = {PE_BLOCK, 1, 1};
        st = hd_launch(c, mod, "pe_seam_rows", grid, block, 0, 0, args, 7);
        if (st == HD_OK)
            st = hd_synchronize(c); /* the host waits for this launch before the next */
        cur = 1 - cur;
    }
    if (st == HD_OK)
        st = hd_memcpy_d2h(c, got, d_row[cur], row_bytes);
    /* the host's DP over the same rows */
    int *prev = ref, *next = ref + cols;
    for (int x = 0; st == HD_OK && x < cols; x++)
        prev[x] = energy[x];
    for (int r = 1; st == HD_OK && r < rows; r++) {
        for (int x = 0; x < cols; x++) {
            int best = prev[x];
            if (x > 0 && prev[x - 1] + PE_PENALTY < best)
                best = prev[x - 1] + PE_PENALTY;
            if (x < cols - 1 && prev[x + 1] + PE_PENALTY < best)
                best = prev[x + 1] + PE_PENALTY;
            next[x] = energy[(size_t)r * cols + x] + best;
        }
        int *s = prev;
        prev = next;
        next = s;
    }
    v->verified = st == HD_OK && memcmp(prev, got, row_bytes) == 0;
    hd_free(c, d_energy);
    hd_free(c, d_row[0]);
    hd_free(c, d_row[1]);
    free(energy);
    free(ref);
    free(got);
    return st;
}

static struct hd_gpu *new_gpu(struct hd_test_state *t, enum hd_exec_mode mode)
{
    char err[256];
    struct hd_gpu *gpu = hd_gpu_create(PE_CONFIG, err, sizeof err);
    if (!HD_CHECK(t, gpu != NULL))
        fprintf(stderr, "  %s\n", err);
    else
        hd_gpu_set_exec_mode(gpu, mode);
    return gpu;
}

/* The victim alone: the end of its first launch and the middle of its second. */
static bool victim_alone(struct hd_test_state *t, uint64_t *end0, uint64_t *mid1)
{
    struct hd_gpu *gpu = new_gpu(t, HD_EXEC_CYCLE);
    if (!gpu)
        return false;
    struct seam_client v = {.launches = 2};
    struct hd_client_task task = {.name = "victim", .body = seam_body, .arg = &v};
    HD_CHECK_U64(t, HD_OK, hd_gpu_run_clients(gpu, &task, 1));
    HD_CHECK_U64(t, HD_OK, task.status);
    HD_CHECK(t, v.verified);
    struct hd_launch_timing l0, l1;
    bool ok = HD_CHECK_U64(t, 2, hd_gpu_launch_timing_count(gpu)) &&
              HD_CHECK_U64(t, HD_OK, hd_gpu_launch_timing(gpu, 0, &l0)) &&
              HD_CHECK_U64(t, HD_OK, hd_gpu_launch_timing(gpu, 1, &l1));
    if (ok) {
        *end0 = l0.end_cycle;
        *mid1 = l1.start_cycle + (l1.end_cycle - l1.start_cycle) / 2;
        fprintf(stderr, "  alone: launch 1 %llu..%llu, launch 2 %llu..%llu\n",
                (unsigned long long)l0.start_cycle, (unsigned long long)l0.end_cycle,
                (unsigned long long)l1.start_cycle, (unsigned long long)l1.end_cycle);
    }
    hd_gpu_destroy(gpu);
    return ok;
}

static void test_second_launch_preempted(struct hd_test_state *t)
{
    hd_test_begin(t, "a two-launch victim's second launch is preempted by a later preempter");
    uint64_t end0 = 0, arrive = 0;
    if (!victim_alone(t, &end0, &arrive))
        return;
    struct hd_gpu *gpu = new_gpu(t, HD_EXEC_CYCLE);
    if (!gpu)
        return;
    struct seam_client vic = {.launches = 2};
    struct seam_client pre = {.launches = 1, .attr = {.priority = 1, .arrive_cycle = arrive}};
    struct hd_client_task tasks[2] = {{.name = "victim", .body = seam_body, .arg = &vic},
                                      {.name = "preempter", .body = seam_body, .arg = &pre}};
    HD_CHECK_U64(t, HD_OK, hd_gpu_run_clients(gpu, tasks, 2));
    HD_CHECK_U64(t, HD_OK, tasks[0].status);
    HD_CHECK_U64(t, HD_OK, tasks[1].status);
    HD_CHECK(t, vic.verified);
    HD_CHECK(t, pre.verified);
    /* launch order: the victim's first, the preempter's (queued before the batch ran), the
     * victim's second (issued when its first finished) */
    struct hd_launch_timing v0, p, v1;
    if (HD_CHECK_U64(t, 3, hd_gpu_launch_timing_count(gpu)) &&
        HD_CHECK_U64(t, HD_OK, hd_gpu_launch_timing(gpu, 0, &v0)) &&
        HD_CHECK_U64(t, HD_OK, hd_gpu_launch_timing(gpu, 1, &p)) &&
        HD_CHECK_U64(t, HD_OK, hd_gpu_launch_timing(gpu, 2, &v1))) {
        fprintf(stderr, "  mix (arrival %llu): victim %llu..%llu and %llu..%llu, preempter "
                "%llu..%llu\n", (unsigned long long)arrive, (unsigned long long)v0.start_cycle,
                (unsigned long long)v0.end_cycle, (unsigned long long)v1.start_cycle,
                (unsigned long long)v1.end_cycle, (unsigned long long)p.start_cycle,
                (unsigned long long)p.end_cycle);
        HD_CHECK_U64(t, v0.stream, v1.stream);
        HD_CHECK(t, p.stream != v0.stream);
        HD_CHECK_U64(t, end0, v0.end_cycle);       /* the first launch ran as alone */
        HD_CHECK(t, v1.start_cycle <= v0.end_cycle + 1); /* issued at once, not after the batch */
        HD_CHECK(t, p.start_cycle >= arrive);       /* the preempter came when due */
        HD_CHECK(t, v1.start_cycle < arrive && v1.end_cycle > p.start_cycle); /* it was resident */
    }
    uint64_t suspends = 0, saves = 0;
    HD_CHECK_U64(t, HD_OK, hd_gpu_stat(gpu, "sm.ctx_suspends", &suspends));
    HD_CHECK_U64(t, HD_OK, hd_gpu_stat(gpu, "sm.ctx_saves", &saves));
    fprintf(stderr, "  %llu CTAs suspended, %llu contexts saved\n", (unsigned long long)suspends,
            (unsigned long long)saves);
    HD_CHECK(t, suspends > 0 && saves > 0); /* the preempter took SMs from the second launch */
    HD_CHECK_U64(t, 1, hd_gpu_batches(gpu)); /* one continuing run */
    hd_gpu_destroy(gpu);
}

static void test_functional(struct hd_test_state *t)
{
    hd_test_begin(t, "functional executor: the victim resumes after each whole batch");
    struct hd_gpu *gpu = new_gpu(t, HD_EXEC_FUNCTIONAL);
    if (!gpu)
        return;
    struct seam_client vic = {.launches = 2};
    struct seam_client pre = {.launches = 1, .attr = {.priority = 1, .arrive_cycle = 1000}};
    struct hd_client_task tasks[2] = {{.name = "victim", .body = seam_body, .arg = &vic},
                                      {.name = "preempter", .body = seam_body, .arg = &pre}};
    HD_CHECK_U64(t, HD_OK, hd_gpu_run_clients(gpu, tasks, 2));
    HD_CHECK(t, vic.verified);
    HD_CHECK(t, pre.verified);
    HD_CHECK_U64(t, 2, hd_gpu_batches(gpu));
    HD_CHECK_U64(t, 2, tasks[0].batches);
    HD_CHECK_U64(t, 1, tasks[1].shared_batches);
    hd_gpu_destroy(gpu);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_second_launch_preempted(&t);
    test_functional(&t);
    return hd_test_finish(&t);
}
