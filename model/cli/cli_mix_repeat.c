/* SPDX-License-Identifier: MIT
 * cli_mix_repeat.c - open-ended co-running in `heddle run --mix` (issue 11 item 3): one
 * workload of the mix is run again each time it finishes, for as long as another workload of the
 * mix still runs (`--repeat W`, or `repeat = W` in the mix's section), optionally only until a
 * GPU cycle (`--repeat-until CYCLES`, the cycle budget of CCBP's co-running evaluation, Lin
 * ch.4; GPUDuet's co-run pairs likewise relaunch the shorter kernel).
 *
 * Design: the repeated workload's client is an open client (heddle_mix.h): with the timing
 * executor it resumes in the cycle its own launches finish, while the other workloads' kernels
 * stay resident, and its next instance's launches join the running GPU. Each instance is a whole
 * run of the workload's host driver (allocate, copy, launch, synchronize, verify against its CPU
 * reference, free), so every relaunch's output is checked; the first instance's messages are
 * kept, later ones go to /dev/null. After an instance it relaunches at once while another
 * workload's kernels are on the GPU; while the others run host code between their batches it
 * waits for them (hd_client_await_peers), so it co-runs with every batch of a multi-batch
 * workload. An instance's launches are the GPU's launch records created while it ran that belong
 * to its client's streams; its cycles run from the first placement of its first launch to the
 * end of its last one; with --alone, its slowdown (and its share of STP and ANTT) is the mean
 * instance's cycles over its cycles alone. The loop stops when no other workload will run
 * anything more, when the GPU cycle reaches the budget, at the first instance that does not
 * verify, or after HD_CLI_MIX_INSTANCES instances.
 * `--repeat all` (issue 29, Lin ch.4 §4.3: "a kernel that finishes early is re-executed" until
 * the cycle budget) makes every workload of the mix such a client; it needs --repeat-until, and
 * each client stops at the first instance that ends at or after the budget, so the budget is
 * covered by co-running instances of every workload.
 */
#include "cli_mix_run.h"
#include "cli_util.h"
#include "heddle_mix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHOW_FIRST 12 /* instances listed in the summary: the first ones and the last ones */
#define SHOW_LAST 4

int hd_cli_mix_repeat_setup(const struct mix_opts *o, const struct hd_cli_mix *m,
                            struct mix_client *cl, unsigned n, FILE *quiet_log)
{
    const char *name = o->repeat ? o->repeat : m->repeat[0] ? m->repeat : NULL;
    if (!name) {
        if (o->repeat_until)
            return hd_cli_usage("run", "--repeat-until needs a workload to repeat (--repeat W, "
                                       "or the mix's `repeat` key)");
        return HD_CLI_OK;
    }
    if (strcmp(name, "all") == 0) { /* every workload repeats until the budget (Lin ch.4) */
        if (!o->repeat_until)
            return hd_cli_usage("run", "repeat all: every workload repeats, so the run needs a "
                                       "cycle budget (--repeat-until CYCLES)");
        for (unsigned i = 0; i < n; i++)
            cl[i].rep = (struct mix_repeat){.on = true, .until = o->repeat_until,
                                            .quiet_log = quiet_log};
        return HD_CLI_OK;
    }
    unsigned found = n;
    for (unsigned i = 0; i < n && found == n; i++)
        if (strcmp(cl[i].label, name) == 0)
            found = i;
    if (found == n)
        return hd_cli_usage("run", "%s '%s': no workload of that name in mix %s%s",
                            o->repeat ? "--repeat" : "repeat", name, m->name,
                            o->repeat ? "" : " (workloads/mixes.ini)");
    struct mix_repeat *rp = &cl[found].rep;
    rp->on = true;
    rp->until = o->repeat_until;
    rp->quiet_log = quiet_log;
    return HD_CLI_OK;
}

static uint64_t gpu_cycle(struct hd_gpu *gpu)
{
    struct hd_timing_totals t;
    hd_gpu_timing_totals(gpu, &t);
    return t.cycles;
}

int hd_cli_mix_repeat_body(struct hd_gpu *client, struct mix_client *c)
{
    struct mix_repeat *rp = &c->rep;
    int st = HD_OK;
    for (;;) {
        if (rp->n == rp->cap) {
            unsigned ncap = rp->cap ? 2 * rp->cap : 16;
            struct mix_instance *p = realloc(rp->inst, ncap * sizeof *p);
            if (!p) {
                snprintf(c->ctx.err, sizeof c->ctx.err, "out of memory recording instance %u",
                         rp->n + 1);
                return HD_ERR_MEMORY;
            }
            rp->inst = p;
            rp->cap = ncap;
        }
        struct mix_instance *in = &rp->inst[rp->n++];
        memset(in, 0, sizeof *in);
        in->first_rec = hd_gpu_launch_timing_count(rp->gpu);
        if (rp->n > 1)
            c->ctx.log = rp->quiet_log;
        st = in->status = c->w->run(client, &c->ctx);
        if (st != HD_OK)
            return st; /* the instance's driver said why (c->ctx.err) */
        if (rp->until && gpu_cycle(rp->gpu) >= rp->until)
            return HD_OK;
        if (!hd_client_await_peers(client))
            return HD_OK; /* the other workloads are done */
        if (rp->n == HD_CLI_MIX_INSTANCES) {
            rp->capped = true;
            return HD_OK;
        }
    }
}

/* The client that owns GPU stream `stream` (the kernel observer's map), or -1. */
static int owner_of(const struct mix_run *r, int stream)
{
    for (unsigned i = 0; i < r->nowners; i++)
        if (r->owners[i].stream == stream)
            return r->owners[i].client;
    return -1;
}

void hd_cli_mix_repeat_gather(struct hd_gpu *gpu, const struct mix_run *r, struct mix_client *cl,
                              unsigned n)
{
    const unsigned count = hd_gpu_launch_timing_count(gpu);
    for (unsigned c = 0; c < n; c++) {
        struct mix_repeat *rp = &cl[c].rep;
        for (unsigned k = 0; rp->on && k < rp->n; k++) {
            struct mix_instance *in = &rp->inst[k];
            const unsigned last = k + 1 < rp->n ? rp->inst[k + 1].first_rec : count;
            for (unsigned i = in->first_rec; i < last; i++) {
                struct hd_launch_timing t;
                if (hd_gpu_launch_timing(gpu, i, &t) != HD_OK || !t.finished ||
                    owner_of(r, t.stream) != (int)c)
                    continue;
                if (in->launches == 0 || t.start_cycle < in->start)
                    in->start = t.start_cycle;
                if (t.end_cycle > in->end)
                    in->end = t.end_cycle;
                in->launches++;
                in->ctas += t.ctas;
                in->warp_instrs += t.warp_instrs;
            }
        }
    }
}

double hd_cli_mix_repeat_turnaround(const struct mix_client *c)
{
    const struct mix_repeat *rp = &c->rep;
    uint64_t sum = 0;
    unsigned n = 0;
    for (unsigned k = 0; rp->on && k < rp->n; k++)
        if (rp->inst[k].launches) {
            sum += rp->inst[k].end + 1 - rp->inst[k].start;
            n++;
        }
    return n ? (double)sum / n : (double)c->end_cycle;
}

void hd_cli_mix_repeat_print(const struct mix_client *cl, unsigned n, bool timed)
{
    for (unsigned c = 0; c < n; c++) {
        const struct mix_repeat *rp = &cl[c].rep;
        if (!rp->on)
            continue;
        unsigned ok = 0, corun = 0;
        uint64_t sum = 0, lo = UINT64_MAX, hi = 0, others_end = 0;
        for (unsigned i = 0; i < n; i++)
            if (i != c && cl[i].end_cycle > others_end)
                others_end = cl[i].end_cycle;
        for (unsigned k = 0; k < rp->n; k++) {
            const struct mix_instance *in = &rp->inst[k];
            const uint64_t cyc = in->launches ? in->end + 1 - in->start : 0;
            ok += in->status == HD_OK;
            corun += in->launches && in->start <= others_end;
            sum += cyc;
            lo = cyc < lo ? cyc : lo;
            hi = cyc > hi ? cyc : hi;
        }
        printf("  %s repeated: %u instances, %u verified", cl[c].label, rp->n, ok);
        if (timed && rp->n)
            printf(", %u started while the others ran; cycles per instance mean %.1f, min "
                   "%llu, max %llu",
                   corun, (double)sum / rp->n, (unsigned long long)lo, (unsigned long long)hi);
        printf("%s\n", rp->capped ? " (stopped at the instance limit)" : "");
        if (!timed)
            continue;
        printf("    %8s  %-12s  %8s  %9s  %12s  %12s  %10s\n", "INSTANCE", "RESULT", "LAUNCHES",
               "CTAS", "START", "END", "CYCLES");
        for (unsigned k = 0; k < rp->n; k++) {
            const struct mix_instance *in = &rp->inst[k];
            if (rp->n > SHOW_FIRST + SHOW_LAST && k == SHOW_FIRST) { /* the middle is elided */
                printf("    %8s  (%u more; all in --stats)\n", "...",
                       rp->n - SHOW_FIRST - SHOW_LAST);
                k = rp->n - SHOW_LAST - 1;
                continue;
            }
            printf("    %8u  %-12s  %8u  %9llu  %12llu  %12llu  %10llu\n", k + 1,
                   hd_cli_mix_verdict(in->status), in->launches, (unsigned long long)in->ctas,
                   (unsigned long long)in->start, (unsigned long long)in->end,
                   (unsigned long long)(in->launches ? in->end + 1 - in->start : 0));
        }
    }
}

void hd_cli_mix_repeat_ini(FILE *f, const struct mix_client *cl, unsigned n, bool timed)
{
    unsigned id = 0;
    for (unsigned c = 0; c < n; c++)
        for (unsigned k = 0; cl[c].rep.on && k < cl[c].rep.n; k++) {
            const struct mix_instance *in = &cl[c].rep.inst[k];
            fprintf(f, "\n[instance.%u]\nworkload = %u\ninstance = %u\nverified = %s\n", id++, c,
                    k + 1, in->status == HD_OK ? "true" : "false");
            if (timed)
                fprintf(f, "launches = %u\nctas = %llu\nwarp_instrs = %llu\nstart_cycle = %llu\n"
                           "end_cycle = %llu\ncycles = %llu\n",
                        in->launches, (unsigned long long)in->ctas,
                        (unsigned long long)in->warp_instrs, (unsigned long long)in->start,
                        (unsigned long long)in->end,
                        (unsigned long long)(in->launches ? in->end + 1 - in->start : 0));
        }
}

void hd_cli_mix_repeat_json(FILE *f, const struct mix_client *cl, unsigned n, bool timed)
{
    unsigned id = 0;
    for (unsigned c = 0; c < n; c++)
        for (unsigned k = 0; cl[c].rep.on && k < cl[c].rep.n; k++) {
            const struct mix_instance *in = &cl[c].rep.inst[k];
            fprintf(f, "%s\n  {\"workload\": %u, \"instance\": %u, \"verified\": %s",
                    id++ ? "," : "", c, k + 1, in->status == HD_OK ? "true" : "false");
            if (timed)
                fprintf(f, ", \"launches\": %u, \"ctas\": %llu, \"warp_instrs\": %llu, "
                           "\"start_cycle\": %llu, \"end_cycle\": %llu, \"cycles\": %llu",
                        in->launches, (unsigned long long)in->ctas,
                        (unsigned long long)in->warp_instrs, (unsigned long long)in->start,
                        (unsigned long long)in->end,
                        (unsigned long long)(in->launches ? in->end + 1 - in->start : 0));
            fprintf(f, "}");
        }
}

void hd_cli_mix_repeat_free(struct mix_client *cl, unsigned n)
{
    for (unsigned c = 0; c < n; c++) {
        free(cl[c].rep.inst);
        cl[c].rep.inst = NULL;
        cl[c].rep.n = cl[c].rep.cap = 0;
    }
}
