/* SPDX-License-Identifier: MIT
 * expars_loop_ltlws.c - the LTLWS counters (expars_ltlws) stepped in the GPU timing loop at the
 * scheduler's counter events, every answer compared with the model's (expars_loop_ltlws.h; Yu et
 * al. §3.3.6, eq. 14; docs/blocks/expars_units.md "expars_ltlws").
 */
#include "expars_loop_ltlws.h"

#include "expars_ltlws.h"
#include "sm_sched_ltlws.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct unit {
    struct hd_expars_ltlws_loop *T;
    uint32_t sm, idx;
    struct hd_hw_inst x;
    bool tapped;
};

struct hd_expars_ltlws_loop {
    struct hd_expars_loop *L;
    uint32_t nsms, nsched;
    bool made;
    struct unit *u; /* [nsms * nsched] */
};

static const char *const op_name[4] = {"ADD", "ISSUE", "REMOVE", "PEEK"};

int hd_expars_ltlws_loop_create(const struct hd_gpu_timing_params *p, struct hd_expars_loop *L,
                                struct hd_expars_ltlws_loop **out, char *err, size_t errlen)
{
    *out = NULL;
    if (p->sm.sched != HD_SCHED_LTLWS_LRR && p->sm.sched != HD_SCHED_LTLWS_GTO)
        return 0;
    const uint32_t ns = p->sm.num_sched ? p->sm.num_sched : 1;
    const uint32_t per = (p->sm.max_warps + ns - 1) / ns;
    if (per > EXPARS_LTLWS_W) {
        snprintf(err, errlen, "key 'blocks': expars_ltlws is built for %d warps per scheduler "
                 "(configs/rtl/expars_ltlws.ini); the SM has %u warps over %u schedulers",
                 EXPARS_LTLWS_W, p->sm.max_warps, ns);
        return -1;
    }
    struct hd_expars_ltlws_loop *T = calloc(1, sizeof *T);
    if (!T || !(T->u = calloc((size_t)(p->num_sms ? p->num_sms : 1) * ns, sizeof *T->u))) {
        free(T);
        snprintf(err, errlen, "host out of memory for the LTLWS counters");
        return -1;
    }
    T->L = L;
    T->nsms = p->num_sms;
    T->nsched = ns;
    for (uint32_t i = 0; i < T->nsms * ns; i++)
        T->u[i] = (struct unit){T, i / ns, i % ns, {0}, false};
    *out = T;
    return 0;
}

void hd_expars_ltlws_loop_destroy(struct hd_expars_ltlws_loop *T)
{
    if (!T)
        return;
    for (uint32_t i = 0; i < T->nsms * T->nsched; i++)
        hd_hw_destroy(&T->u[i].x);
    free(T->u);
    free(T);
}

int hd_expars_ltlws_loop_make(struct hd_expars_ltlws_loop *T, char *err, size_t errlen)
{
    if (T->made)
        return 0;
    T->made = true;
    const struct hd_hw_factory *f = hd_expars_loop_factory(T->L);
    for (uint32_t i = 0; i < T->nsms * T->nsched; i++) {
        char name[64];
        snprintf(name, sizeof name, "sm%u.sched%u.expars_ltlws", T->u[i].sm, T->u[i].idx);
        if (hd_hw_make_sized(f, "expars_ltlws", name, &T->u[i].x,
                             sizeof(struct hd_expars_ltlws_in),
                             sizeof(struct hd_expars_ltlws_out), err, errlen) != 0)
            return -1;
    }
    return 0;
}

static int step(struct unit *u, const struct hd_expars_ltlws_in *in,
                struct hd_expars_ltlws_out *out, uint32_t warp)
{
    const uint64_t tag[2] = {u->sm, warp};
    hd_hw_set_tag(&u->x, tag, 2);
    if (hd_hw_step(&u->x, in, out, hd_expars_loop_now(u->T->L)) != 0) {
        hd_expars_loop_fail(u->T->L, u->x.ops->error(u->x.impl));
        return -1;
    }
    return 0;
}

/* The scheduler's counter event: the block's answer against the model's, then the block's. */
static void tap(void *ctx, unsigned op, uint32_t warp, uint32_t max,
                struct hd_expars_ltlws_ans *ans)
{
    struct unit *u = ctx;
    struct hd_expars_loop *L = u->T->L;
    if (!hd_expars_loop_live(L) || !u->x.ops)
        return;
    struct hd_expars_ltlws_in in;
    struct hd_expars_ltlws_out out;
    memset(&in, 0, sizeof in);
    in.op_v_i = 1;
    in.op_i = op & 3u;
    in.warp_i = warp;
    in.max_i = max;
    if (step(u, &in, &out, warp) != 0)
        return;
    memset(&in, 0, sizeof in); /* edges without a request until the answer */
    unsigned edges = 1;
    do {
        if (step(u, &in, &out, warp) != 0)
            return;
        edges++;
    } while (!out.res_v_o && edges < 3u + EXPARS_LTLWS_QW);
    struct hd_expars_ltlws_ans m = *ans;
    if (hd_expars_loop_faulted(L))
        m.wopt ^= 1u; /* [expars] blocks_fault: the model's side of this comparison */
    if (!out.res_v_o || out.trig_o != m.trig || out.lazy_o != m.lazy || out.wopt_o != m.wopt ||
        out.cnt_o != m.cnt || out.nres_o != m.nres) {
        char msg[512];
        snprintf(msg, sizeof msg,
                 "sm%u.sched%u.expars_ltlws at cycle %" PRIu64 ": %s of warp %u (counter %u, "
                 "max %u) after %u edges: res_v_o=%u trig_o=%u lazy_o=%u wopt_o=%u cnt_o=%u "
                 "nres_o=%u; the model (sm_sched_ltlws.c) has trigger=%u phase 2=%u W_Opt=%u "
                 "count=%u resident=%u",
                 u->sm, u->idx, hd_expars_loop_now(L), op_name[op & 3u],
                 warp * u->T->nsched + u->idx, warp, max, edges, (unsigned)out.res_v_o,
                 (unsigned)out.trig_o, (unsigned)out.lazy_o, (unsigned)out.wopt_o,
                 (unsigned)out.cnt_o, (unsigned)out.nres_o, m.trig, m.lazy, m.wopt, m.cnt,
                 m.nres);
        hd_expars_loop_fail(L, msg);
        return;
    }
    ans->v = true;
    ans->trig = out.trig_o;
    ans->lazy = out.lazy_o;
    ans->wopt = (uint32_t)out.wopt_o;
    ans->cnt = (uint32_t)out.cnt_o;
    ans->nres = (uint32_t)out.nres_o;
}

int hd_expars_ltlws_loop_sched(struct hd_expars_ltlws_loop *T, uint32_t sm, uint32_t idx,
                               const struct hd_sched *s, char *err, size_t errlen)
{
    if (!T || sm >= T->nsms || idx >= T->nsched)
        return 0;
    struct unit *u = &T->u[sm * T->nsched + idx];
    if (hd_sched_ltlws_counters(s) > EXPARS_LTLWS_W) {
        snprintf(err, errlen, "key 'blocks': SM %u scheduler %u has %u LTLWS counters; "
                 "expars_ltlws is built for %d (configs/rtl/expars_ltlws.ini)", sm, idx,
                 hd_sched_ltlws_counters(s), EXPARS_LTLWS_W);
        return -1;
    }
    u->tapped = hd_sched_ltlws_tap(s, tap, u);
    return 0;
}
