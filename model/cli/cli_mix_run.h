/* SPDX-License-Identifier: MIT
 * cli_mix_run.h - what `heddle run --mix` gathers (cli_mix.c) and reports (cli_mix_report.c):
 * per workload of the mix, per kernel, and for the GPU; with --alone, each workload's cycles
 * when it runs alone on the same configuration.
 */
#ifndef HD_CLI_MIX_RUN_H
#define HD_CLI_MIX_RUN_H

#include "cli_gpu.h"
#include "cli_mix.h"
#include "heddle.h"
#include "workload.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_CLI_MIX_ARRIVALS 8

/* --arrive WORKLOAD@CYCLE[:PRIORITY]: that client's launches arrive then, with that priority. */
struct mix_arrival {
    const char *label;
    uint64_t cycle;
    int32_t priority;
};

struct mix_opts {
    const char *mix, *mixes_file, *stats;
    struct hd_cli_config cfg;
    enum hd_wl_size size;
    const char *repeat;        /* --repeat W (NULL: the mix's `repeat` key, if any) */
    uint64_t repeat_until;     /* --repeat-until CYCLES (0: no cycle budget) */
    bool quiet, functional, alone;
    struct mix_arrival arrive[HD_CLI_MIX_ARRIVALS];
    unsigned narrive;
    const struct hd_hw_factory *hw; /* block instances in the loop (heddle cosim; NULL: none) */
    uint64_t cycles;           /* out: the mix's GPU cycles */
    double seconds;            /* out: its wall time */
    const char *hint[HD_CLI_MIX_ARRIVALS]; /* --hint WORKLOAD=N (issue 25 item 7) */
    uint32_t hint_val[HD_CLI_MIX_ARRIVALS];
    unsigned nhint;
    const char *profile;       /* --profile-out FILE: every finished CTA's instructions and
                                  cycles in this run (the Oracle's first pass, drain_profile.h) */
    bool paper;                /* --size paper (hd_wl_ctx.paper; workloads/README.md) */
    bool waves;                /* --size waves (hd_wl_ctx.waves; workloads/README.md) */
    bool waves3;               /* --size waves3 (hd_wl_ctx.waves3; waves is set too) */
};

/* One run of a repeated workload's driver (cli_mix_repeat.c). */
struct mix_instance {
    unsigned first_rec;        /* the GPU's launch records before it started */
    int status;                /* its driver's verdict on its own output */
    /* cycle mode, from its launch records */
    unsigned launches;
    uint64_t start, end, ctas, warp_instrs;
};

/* Open-ended co-running (cli_mix_repeat.c): the workload is run again each time it finishes
 * while another workload of the mix still runs, its launches joining the running GPU. */
struct mix_repeat {
    bool on;
    uint64_t until;            /* no new instance at or after this GPU cycle (0: no budget) */
    struct hd_gpu *gpu;        /* the real GPU: its cycle and launch records */
    FILE *quiet_log;           /* where the later instances' messages go */
    struct mix_instance *inst;
    unsigned n, cap;
    bool capped;               /* stopped at HD_CLI_MIX_INSTANCES */
};

#define HD_CLI_MIX_INSTANCES 1000

struct mix_client {
    const struct hd_workload *w;
    char label[80];            /* the workload's name, "#k" added when it repeats in the mix */
    struct hd_launch_attr attr; /* given to its launches (--arrive) */
    struct hd_wl_ctx ctx;
    char *log_text;            /* its progress messages (open_memstream) */
    size_t log_len;
    /* results in the mix */
    int status;
    struct hd_run_totals totals;
    unsigned batches, shared_batches;
    uint64_t end_cycle;        /* cycle mode: when its last launch finished (its turnaround) */
    struct mix_repeat rep;     /* --repeat / the mix's `repeat` key */
    /* --alone */
    int alone_status;
    uint64_t alone_cycles;     /* cycles of the GPU that ran it alone */
};

struct kernel_stat {
    int client;
    char kernel[96];
    uint64_t launches, ctas, warp_instrs, thread_instrs;
    unsigned first_batch, last_batch;
    uint64_t timed, cycles;    /* cycle mode: launches timed, sum of their cycles */
};

struct stream_owner {
    int stream, client;
};

/* One run of clients on one GPU. */
struct mix_run {
    struct kernel_stat *k;
    unsigned nk, capk;
    struct stream_owner *owners;
    unsigned nowners, capowners;
    bool oom;
    struct hd_run_totals all;
    unsigned batches;
    double seconds;
    bool timed;                /* cycle mode */
    uint64_t cycles;           /* GPU cycles of the run */
    char *timing_json;         /* the GPU's statistics JSON (cycle mode, --stats *.json): per
                                  SM, per launch, preemption requests, memory */
    char *power_json;          /* the energy report as JSON (model/power; same condition) */
};

/* Print the drivers' messages, then the summary (cli_mix_report.c). */
void hd_cli_mix_print(const struct mix_opts *o, const struct hd_cli_mix *m,
                      const struct mix_client *cl, const struct mix_run *r);
/* Write the --stats report; returns an exit code. */
int hd_cli_mix_write_stats(const struct mix_opts *o, const struct hd_config *cfg,
                           const struct hd_cli_mix *m, const struct mix_client *cl,
                           const struct mix_run *r);
/* cli_mix_repeat.c: open-ended co-running */
/* Mark the repeated workload (o->repeat, else the mix's `repeat` key) among cl[0..n); returns
 * 0 or an exit code after a message. */
int hd_cli_mix_repeat_setup(const struct mix_opts *o, const struct hd_cli_mix *m,
                            struct mix_client *cl, unsigned n, FILE *quiet_log);
/* The repeated client's body: its driver, again and again (see struct mix_repeat). */
int hd_cli_mix_repeat_body(struct hd_gpu *client, struct mix_client *c);
/* Cycle mode, after the run: each instance's launches, cycles and CTAs from the records. */
void hd_cli_mix_repeat_gather(struct hd_gpu *gpu, const struct mix_run *r, struct mix_client *cl,
                              unsigned n);
/* The turnaround the mix metrics (slowdown, STP, ANTT) use: a repeated workload's mean cycles per
 * instance, else its end cycle. */
double hd_cli_mix_repeat_turnaround(const struct mix_client *c);
/* The instances' lines of the summary. */
void hd_cli_mix_repeat_print(const struct mix_client *cl, unsigned n, bool timed);
/* The instances as [instance.K] sections of the --stats INI report. */
void hd_cli_mix_repeat_ini(FILE *f, const struct mix_client *cl, unsigned n, bool timed);
/* The same as the elements of the --stats JSON's "instances" array. */
void hd_cli_mix_repeat_json(FILE *f, const struct mix_client *cl, unsigned n, bool timed);
void hd_cli_mix_repeat_free(struct mix_client *cl, unsigned n);

/* "VERIFIED", "WRONG RESULT", "INTERRUPTED", "FAILED" */
const char *hd_cli_mix_verdict(int status);

#endif
