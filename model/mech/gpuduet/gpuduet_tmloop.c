/* SPDX-License-Identifier: MIT
 * gpuduet_tmloop.c - the throughput monitor and ME controller blocks in the timing loop, their
 * ME the model's (gpuduet_tmloop.h; Lin thesis §2.10, §3.13, Table 3.3; docs/blocks/gpuduet.md
 * "In the GPU").
 */
#include "gpuduet_tmloop.h"

#include "gpuduet_tmon.h"
#include "hw_ref.h"
#include "monitor.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define NONE 0xFFFFFFFFu
#define IN_MAX (((uint64_t)1 << GPUDUET_TMON_InW) - 1u)
#define UB_MAX (((uint32_t)1 << GPUDUET_TMON_MW) - 1u)

struct tm_sm {
    struct hd_hw_inst x;
    uint32_t launch;          /* the launch its monitor runs for (NONE: not started) */
    uint32_t start_ub;        /* a start to present this cycle (NONE: none) */
    uint32_t me;              /* me_o of its last update */
    uint64_t cnt[HD_TMON_NRES]; /* the counts of the cycle before */
};

struct gd_tm {
    const struct hd_hw_factory *const *hw;
    uint32_t nsms, warm, win;
    bool made, failed;
    struct tm_sm *sm;
    uint64_t steps, starts, updates, clamped;
    uint64_t cls[4];          /* updates per class */
    char err[512];
};

struct gd_tm *gd_tm_create(const struct hd_gpu_timing_params *p,
                           const struct hd_hw_factory *const *hw, char *err, size_t errlen)
{
    const uint64_t wmax = ((uint64_t)1 << GPUDUET_TMON_WinW) - 1u;
    if (p->gduet.warmup > wmax || p->gduet.window > wmax) {
        snprintf(err, errlen,
                 "key 'gpuduet.%s': %" PRIu64 " cycles do not fit the throughput monitor "
                 "block's %d-bit lengths (at most %" PRIu64 "; configs/rtl/gpuduet_tmon.ini WinW)",
                 p->gduet.warmup > wmax ? "warmup" : "window",
                 (uint64_t)(p->gduet.warmup > wmax ? p->gduet.warmup : p->gduet.window),
                 GPUDUET_TMON_WinW, wmax);
        return NULL;
    }
    struct gd_tm *t = calloc(1, sizeof *t);
    if (!t || !(t->sm = calloc(p->num_sms, sizeof *t->sm))) {
        free(t);
        snprintf(err, errlen, "host out of memory (gpuduet monitors)");
        return NULL;
    }
    t->hw = hw;
    t->nsms = p->num_sms;
    t->warm = (uint32_t)p->gduet.warmup;
    t->win = (uint32_t)p->gduet.window;
    for (uint32_t i = 0; i < t->nsms; i++)
        t->sm[i].launch = t->sm[i].start_ub = NONE;
    return t;
}

void gd_tm_destroy(struct gd_tm *t)
{
    if (!t)
        return;
    for (uint32_t i = 0; i < t->nsms; i++)
        hd_hw_destroy(&t->sm[i].x);
    free(t->sm);
    free(t);
}

int gd_tm_make(struct gd_tm *t, char *err, size_t errlen)
{
    if (!t->made) {
        t->made = true;
        const struct hd_hw_factory *f = t->hw && *t->hw ? *t->hw : hd_hw_ref_factory();
        for (uint32_t i = 0; i < t->nsms && !t->failed; i++) {
            char name[64], e[448];
            snprintf(name, sizeof name, "sm%u.gpuduet_tmon", i);
            if (hd_hw_make_sized(f, "gpuduet_tmon", name, &t->sm[i].x,
                                 sizeof(struct hd_gpuduet_tmon_in),
                                 sizeof(struct hd_gpuduet_tmon_out), e, sizeof e) != 0) {
                t->failed = true;
                snprintf(t->err, sizeof t->err, "%s", e);
            }
        }
    }
    if (t->failed) {
        snprintf(err, errlen, "%s", t->err);
        return -1;
    }
    return 0;
}

void gd_tm_placed(struct gd_tm *t, uint32_t sm, uint32_t launch, uint32_t ub)
{
    if (!t || sm >= t->nsms || t->sm[sm].launch == launch)
        return;
    t->sm[sm].launch = launch;
    t->sm[sm].start_ub = ub < UB_MAX ? ub : UB_MAX;
    t->sm[sm].me = 0;
}

void gd_tm_counts(struct gd_tm *t, const struct hd_mon_window *w)
{
    if (!t)
        return;
    for (uint32_t i = 0; i < t->nsms && i < w->nsm; i++) {
        const struct hd_mon_counts *c = &w->sm[i];
        uint64_t *k = t->sm[i].cnt;
        k[HD_TMON_SCHED] = c->issue;
        k[HD_TMON_L1] = c->l1d_hit; /* port cycles of hits (Lin Sec. 3.4.1) */
        k[HD_TMON_ICNT] = c->flits_req + c->flits_rep;
        k[HD_TMON_L2] = c->l2_hit;
        k[HD_TMON_DRAM] = c->dram_data;
        for (unsigned r = 0; r < HD_TMON_NRES; r++)
            if (k[r] > IN_MAX) {
                k[r] = IN_MAX;
                t->clamped++;
            }
    }
}

int gd_tm_cycle(struct gd_tm *t, uint64_t now, FILE *log, char *err, size_t errlen)
{
    if (gd_tm_make(t, err, errlen) != 0)
        return -1;
    for (uint32_t i = 0; i < t->nsms; i++) {
        struct tm_sm *s = &t->sm[i];
        struct hd_gpuduet_tmon_in in;
        struct hd_gpuduet_tmon_out out;
        memset(&in, 0, sizeof in);
        memset(&out, 0, sizeof out);
        if (s->start_ub != NONE) {
            in.start_i = 1;
            in.warm_i = t->warm;
            in.win_i = t->win;
            in.me_ub_i = s->start_ub;
            s->start_ub = NONE;
            t->starts++;
        } else if (s->launch != NONE) {
            in.iss_i = s->cnt[HD_TMON_SCHED];
            in.l1_i = s->cnt[HD_TMON_L1];
            in.icnt_i = s->cnt[HD_TMON_ICNT];
            in.l2_i = s->cnt[HD_TMON_L2];
            in.dram_i = s->cnt[HD_TMON_DRAM];
        }
        memset(s->cnt, 0, sizeof s->cnt);
        if (hd_hw_idle(&s->x, &in))
            continue;
        t->steps++;
        if (hd_hw_step(&s->x, &in, &out, now) != 0) {
            snprintf(err, errlen, "%s", s->x.ops->error(s->x.impl));
            return -1;
        }
        if (!(out.upd_v_o & 1u))
            continue;
        if (out.cls_o < HD_TMON_UNDER || out.cls_o > HD_TMON_SATURATED) {
            snprintf(err, errlen,
                     "gpuduet blocks: MISMATCH at cycle %" PRIu64 ", SM %u, block gpuduet_tmon, "
                     "signal cls_o: the block gives %" PRIu64 ", not a Table 3.3 class (1..3)",
                     now, i, (uint64_t)out.cls_o);
            return -1;
        }
        s->me = (uint32_t)out.me_o;
        t->updates++;
        t->cls[out.cls_o & 3u]++;
        if (log)
            fprintf(log, "tmon %u %u %" PRIu64 " %s me=%u l1ctx=%u sat=0x%" PRIx64 " low=0x%" PRIx64 "\n",
                    i, s->launch, now, hd_gpuduet_tmon_class_name((unsigned)out.cls_o), s->me,
                    (unsigned)(out.l1ctx_o & 1u), (uint64_t)out.sat_o, (uint64_t)out.low_o);
    }
    return 0;
}

uint32_t gd_tm_me(const struct gd_tm *t, uint32_t sm, uint32_t launch)
{
    return t && sm < t->nsms && t->sm[sm].launch == launch ? t->sm[sm].me : 0;
}

void gd_tm_log(const struct gd_tm *t, FILE *f)
{
    fprintf(f,
            "tmon steps=%" PRIu64 " starts=%" PRIu64 " updates=%" PRIu64 " under=%" PRIu64
            " moderate=%" PRIu64 " saturated=%" PRIu64 " clamped=%" PRIu64 "\n",
            t->steps, t->starts, t->updates, t->cls[HD_TMON_UNDER], t->cls[HD_TMON_MODERATE],
            t->cls[HD_TMON_SATURATED], t->clamped);
}
