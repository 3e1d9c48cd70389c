/* SPDX-License-Identifier: MIT
 * expars_ltlws.c - the C reference of EXPARS's LTLWS counters (expars_ltlws.h; Yu et al.
 * §3.3.6, eq. 14; digest §2.9): per-warp issued-instruction counters, the first-finish trigger
 * and W_Opt by a sequential restoring divider. Also the model's own counter logic
 * (model/policy/sm_sched_ltlws.c).
 */
#include "expars_ltlws.h"

#include <string.h>

#define HD_PORTS_DEF "expars_ltlws_ports.def"
#define HD_PORTS_IN_T struct hd_expars_ltlws_in
#define HD_PORTS_OUT_T struct hd_expars_ltlws_out
#define HD_PORTS_BLOCK_VAR hd_expars_ltlws_block
#include "hd_ports_table.h"

/* bits <= 39 here (32-bit counters, W_Opt of at most 7 bits). */
static uint64_t mask64(unsigned bits)
{
    return (1ull << bits) - 1u;
}

void hd_expars_ltlws_unit_init(struct hd_expars_ltlws_unit *u, uint32_t nw, unsigned cw)
{
    memset(u, 0, sizeof *u);
    u->nw = nw;
    u->cw = cw;
    unsigned b = 0;
    while ((1ull << b) < nw)
        b++;
    u->qw = b + 1;
}

/* One quotient bit (the divider runs); its last edge: W_Opt, phase 2 (or a new phase 1 when the
 * scheduler is empty). */
static void divide(struct hd_expars_ltlws_unit *u, struct hd_expars_ltlws_ans *a)
{
    const unsigned i = u->k - 1u;
    const uint64_t dd = (uint64_t)u->d << i;
    if (u->rem >= dd) {
        u->rem -= dd;
        u->q |= 1u << i;
    }
    u->k--;
    if (u->k != 0)
        return;
    u->busy = false;
    const uint32_t r = u->direct ? u->dres : u->q;
    const uint32_t m = r > u->max ? u->max : r; /* at most max_i, at least 1 */
    u->wopt = m < 1 ? 1 : m;
    u->lazy = u->nres != 0;
    if (!u->lazy)
        u->sum = 0;
    a->v = a->trig = true;
    a->cnt = u->d;
}

/* A request (not busy). The sum never leaves [0, nw x (2^cw - 1)]: a re-add takes back a count
 * the sum holds (in phase 1 exactly the resident counters; in phase 2 the trigger's sum, which
 * holds every count a re-add can take back), so it needs no wrap. */
static void request(struct hd_expars_ltlws_unit *u, uint32_t *cnt, bool *res, unsigned op,
                    uint32_t w, uint32_t max, struct hd_expars_ltlws_ans *a)
{
    a->v = true;
    if (w >= u->nw)
        return;
    switch (op & 3u) {
    case HD_EXPARS_LTLWS_ADD:
        if (res[w])
            u->sum -= cnt[w];
        else
            u->nres++;
        res[w] = true;
        cnt[w] = 0;
        break;
    case HD_EXPARS_LTLWS_ISSUE:
        if (res[w] && !u->lazy && cnt[w] != (uint32_t)mask64(u->cw)) {
            cnt[w]++;
            u->sum++;
        }
        break;
    case HD_EXPARS_LTLWS_REMOVE:
        if (!res[w])
            break;
        res[w] = false;
        if (!u->lazy) { /* the first warp finished: eq. 14 */
            u->d = cnt[w];
            u->rem = u->sum;
            u->q = 0;
            u->k = u->qw;
            u->max = max & (uint32_t)mask64(u->qw);
            u->direct = u->d == 0; /* (a quotient past qw bits comes out all ones) */
            u->dres = u->nres;
            u->busy = true;
            u->nres--;
            a->v = false; /* answered when the division ends */
            return;
        }
        u->nres--;
        if (u->nres == 0) { /* the kernel left the scheduler: a new phase 1 */
            u->lazy = false;
            u->sum = 0;
        }
        break;
    default: /* PEEK */
        break;
    }
    a->cnt = cnt[w];
}

/* One edge: with req (not busy) the request (op, warp, max) is taken, else the divider advances.
 * *a is the answer registered at this edge (a->v false: none). */
static void edge(struct hd_expars_ltlws_unit *u, uint32_t *cnt, bool *res, bool req, unsigned op,
                 uint32_t warp, uint32_t max, struct hd_expars_ltlws_ans *a)
{
    memset(a, 0, sizeof *a);
    if (u->busy) /* requests are not taken */
        divide(u, a);
    else if (req)
        request(u, cnt, res, op, warp, max, a);
    a->lazy = u->lazy;
    a->wopt = u->wopt;
    a->nres = u->nres;
}

unsigned hd_expars_ltlws_apply(struct hd_expars_ltlws_unit *u, uint32_t *cnt, bool *res,
                               unsigned op, uint32_t warp, uint32_t max,
                               struct hd_expars_ltlws_ans *a)
{
    unsigned n = 1;
    edge(u, cnt, res, true, op, warp, max, a);
    while (u->busy) {
        memset(a, 0, sizeof *a);
        divide(u, a);
        a->lazy = u->lazy;
        a->wopt = u->wopt;
        a->nres = u->nres;
        n++;
    }
    return n;
}

void hd_expars_ltlws_ref_reset(struct hd_expars_ltlws_state *s)
{
    memset(s, 0, sizeof *s);
    hd_expars_ltlws_unit_init(&s->u, EXPARS_LTLWS_W, EXPARS_LTLWS_CW);
}

void hd_expars_ltlws_ref_step(struct hd_expars_ltlws_state *s, const struct hd_expars_ltlws_in *in,
                              struct hd_expars_ltlws_out *out)
{
    *out = s->q;
    s->cycle++;
    struct hd_expars_ltlws_ans a;
    const uint32_t w = (uint32_t)in->warp_i & (uint32_t)mask64(EXPARS_LTLWS_WW);
    edge(&s->u, s->cnt, s->res, in->op_v_i & 1u, (unsigned)(in->op_i & 3u),
                         w, (uint32_t)in->max_i, &a);
    struct hd_expars_ltlws_out *q = &s->q;
    memset(q, 0, sizeof *q);
    q->res_v_o = a.v;
    q->trig_o = a.trig;
    q->cnt_o = a.cnt;
    q->busy_o = s->u.busy;
    if (a.v) { /* the state after the answer's request, shown with the answer */
        q->lazy_o = s->u.lazy;
        q->wopt_o = s->u.wopt;
        q->nres_o = s->u.nres;
    }
}

bool hd_expars_ltlws_ref_idle(const struct hd_expars_ltlws_state *s,
                              const struct hd_expars_ltlws_in *in)
{
    return !(in->op_v_i & 1u) && !s->u.busy && !(s->q.res_v_o & 1u);
}
