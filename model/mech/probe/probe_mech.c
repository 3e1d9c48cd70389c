/* SPDX-License-Identifier: MIT
 * probe_mech.c - the signals probe: a mechanism with no hardware of its own that takes the
 * hooks' stall and load events and a monitor subscription (issue 25 item 6; mech.h,
 * monitor.h) and writes what it saw to [timing] probe_log. It is the worked example of
 * docs/hooks.md and docs/monitor.md and what the signals tests read (tests/signals).
 *
 * Design: counts per event kind; each monitor window (of [timing] probe_window cycles) is
 * written as it closes: one `window` line with the totals over the SMs and the requests per
 * traffic class, one `kernel` line per launch with a record. The counts are written when the
 * GPU is destroyed. The file is opened in attach(), so a bad path is refused before the run.
 * Log lines (space-separated):
 *   window START END issue requests l1d_port l2_port flits_req flits_rep dram_data demand context swap
 *   kernel END LAUNCH issue requests l1d_port l2_port flits_req flits_rep dram_data
 *   stalled_load N | stalled_load_miss N | stalled_barrier N
 *   loads_l1_hit N | loads_l1_miss N | loads_absent N   (the warp had no slot when it returned)
 *   launch LAUNCH KERNEL NAME   (at each launch's set-up: its stable kernel id, cta_admit.h)
 */
#include "mech.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

struct probe {
    FILE *f;
    uint64_t stalls[HD_HSTALL_COUNT];
    uint64_t hit, miss, absent;
};

static void pr_stalled(void *impl, const struct hd_hook_warp *w, uint8_t why, uint64_t now)
{
    struct probe *p = impl;
    (void)w;
    (void)now;
    if (why < HD_HSTALL_COUNT)
        p->stalls[why]++;
}

static void pr_load(void *impl, const struct hd_hook_warp *w, bool l1_hit, uint64_t now)
{
    struct probe *p = impl;
    (void)now;
    if (l1_hit)
        p->hit++;
    else
        p->miss++;
    p->absent += w->slot == HD_HOOK_NO_SLOT;
}

static void put_counts(FILE *f, const struct hd_mon_counts *c)
{
    fprintf(f, " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
               " %" PRIu64,
            c->issue, c->requests, c->l1d_port, c->l2_port, c->flits_req, c->flits_rep,
            c->dram_data);
}

static void pr_window(void *impl, const struct hd_mon_window *win, uint64_t now)
{
    struct probe *p = impl;
    (void)now;
    fprintf(p->f, "window %" PRIu64 " %" PRIu64, win->start, win->end);
    put_counts(p->f, &win->total);
    for (unsigned c = 0; c < HD_MCLASS_COUNT; c++)
        fprintf(p->f, " %" PRIu64, win->cls_requests[c]);
    fputc('\n', p->f);
    for (uint32_t k = 0; k < win->nkernel; k++) {
        fprintf(p->f, "kernel %" PRIu64 " %u", win->end, win->kernel[k]);
        put_counts(p->f, &win->kern[k]);
        fputc('\n', p->f);
    }
}

static int pr_launch(void *impl, uint32_t launch, uint32_t kernel, const char *name, char *err,
                     size_t errlen)
{
    struct probe *p = impl;
    (void)err;
    (void)errlen;
    fprintf(p->f, "launch %u %u %s\n", launch, kernel, name);
    return 0;
}

static void pr_destroy(void *impl)
{
    struct probe *p = impl;
    fprintf(p->f,
            "stalled_load %" PRIu64 "\nstalled_load_miss %" PRIu64 "\nstalled_barrier %" PRIu64
            "\nloads_l1_hit %" PRIu64 "\nloads_l1_miss %" PRIu64 "\nloads_absent %" PRIu64 "\n",
            p->stalls[HD_HSTALL_LOAD], p->stalls[HD_HSTALL_LOAD_MISS],
            p->stalls[HD_HSTALL_BARRIER], p->hit, p->miss, p->absent);
    fclose(p->f);
    free(p);
}

static const struct hd_hook_ops probe_ops = {
    .name = "probe",
    .launch = pr_launch,
    .destroy = pr_destroy,
    .stalled = pr_stalled,
    .load_returned = pr_load,
    .window = pr_window,
};

static int probe_attach(const struct hd_mech_env *env, struct hd_hook *out, char *err,
                        size_t errlen)
{
    const char *path = env->p->probe_log;
    if (!path[0])
        return 0; /* no probe: out->ops stays NULL */
    struct probe *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "host out of memory creating the signals probe");
        return -1;
    }
    if (!(p->f = fopen(path, "w"))) {
        snprintf(err, errlen, "[timing] probe_log '%s': cannot write it", path);
        free(p);
        return -1;
    }
    if (env->p->probe_window && env->mon &&
        hd_monitor_subscribe(env->mon, env->p->probe_window, err, errlen) < 0) {
        fclose(p->f);
        free(p);
        return -1;
    }
    *out = (struct hd_hook){&probe_ops, p};
    return 0;
}

const struct hd_mech hd_mech_probe = {
    "probe",
    "issue 25 item 6: the signals probe (hook events and monitor windows to [timing] probe_log)",
    NULL, 0, NULL, 0, probe_attach,
};
