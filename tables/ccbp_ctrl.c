/* SPDX-License-Identifier: MIT
 * ccbp_ctrl.c - CCBP's controller's C reference (ccbp_ctrl.h): Algorithm 1 (Lin thesis §4.5.2,
 * digest §2.17) as the FSM the RTL is.
 *
 * Design: the state is the RTL's registers (tables, parameters, the run's allocation and
 * counters, the output registers); one edge applies the start or the iteration counter (and at
 * its end one iteration of the loop) on the registers before the edge, then the write, then
 * the read, as the ports.def says.
 * Every intermediate value has the RTL's width (saturating where the RTL saturates).
 */
#include "ccbp_ctrl.h"

#include <string.h>

#define HD_PORTS_DEF "ccbp_ctrl_ports.def"
#define HD_PORTS_IN_T struct hd_ccbp_ctrl_in
#define HD_PORTS_OUT_T struct hd_ccbp_ctrl_out
#define HD_PORTS_BLOCK_VAR hd_ccbp_ctrl_block
#include "hd_ports_table.h"

#define A CCBP_CTRL_A
#define NM CCBP_CTRL_NM
#define VMAX ((1u << CCBP_CTRL_VW) - 1u)
#define ONE (1u << CCBP_CTRL_VF)
#define QMAX ((1u << CCBP_CTRL_QW) - 1u)
#define SMAX ((1u << CCBP_CTRL_SW) - 1u)

void hd_ccbp_ctrl_ref_reset(struct hd_ccbp_ctrl_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_ccbp_ctrl_block, HD_DIR_OUT, &s->q);
}

static uint32_t hd_ccbp_ctrl_quota(uint32_t share, uint32_t f)
{
    if (!f)
        return 0;
    const uint64_t q = ((uint64_t)share * f + ((uint64_t)1 << 31)) >> 32;
    return q == 0 ? 1u : q > QMAX ? QMAX : (uint32_t)q;
}

static void write(struct hd_ccbp_ctrl_state *s, const struct hd_ccbp_ctrl_in *in)
{
    const unsigned a = (unsigned)in->wr_app_i; /* < A = 2^AW */
    const unsigned n = (unsigned)in->wr_idx_i, r = n & 3u;
    const uint32_t d = (uint32_t)in->wr_data_i, v = d & VMAX;
    switch (in->wr_sel_i) {
    case HD_CCBP_CTRL_OWN:
    case HD_CCBP_CTRL_OTH:
    case HD_CCBP_CTRL_REQ:
    case HD_CCBP_CTRL_REP:
        if (n >= 1 && n <= NM) {
            if (in->wr_sel_i == HD_CCBP_CTRL_OWN)
                s->own[a][n - 1] = v;
            else
                s->tab[in->wr_sel_i == HD_CCBP_CTRL_OTH   ? 0
                       : in->wr_sel_i == HD_CCBP_CTRL_REQ ? 1
                                                          : 2][a][n - 1] = d;
        }
        break;
    case HD_CCBP_CTRL_TYPE:
        s->type[a] = (uint8_t)(d & 3u);
        break;
    case HD_CCBP_CTRL_NMAX: {
        const uint32_t m = d & ((1u << CCBP_CTRL_NW) - 1u);
        s->nmax[a] = (uint8_t)(m > NM ? NM : m);
        break;
    }
    case HD_CCBP_CTRL_D:
        s->d[a] = v;
        break;
    case HD_CCBP_CTRL_QF:
        s->qf[a] = d;
        break;
    case HD_CCBP_CTRL_DEM:
        s->dem[a][r] = v;
        break;
    case HD_CCBP_CTRL_CAP:
        s->cap[r] = v;
        break;
    case HD_CCBP_CTRL_NLIM:
        s->nlim = v;
        break;
    case HD_CCBP_CTRL_DLIM:
        s->dlim = v;
        break;
    case HD_CCBP_CTRL_NK: {
        const uint32_t k = d & ((2u << CCBP_CTRL_AW) - 1u);
        s->nk = k > A ? A : k;
        break;
    }
    case HD_CCBP_CTRL_STEP:
        s->step = d & ((1u << CCBP_CTRL_TW) - 1u);
        break;
    default:
        break;
    }
}

/* Application k's dominant-share numerator: NBI its NoC share, DBI its DRAM share, LS its
 * CTAs in Q8.16. */
static uint64_t xnum(const struct hd_ccbp_ctrl_state *s, unsigned k)
{
    return s->type[k] == HD_CCBP_CTRL_NBI   ? s->nbw[k]
           : s->type[k] == HD_CCBP_CTRL_DBI ? s->dbw[k]
                                            : (uint64_t)s->cta[k] << CCBP_CTRL_VF;
}

/* One iteration of Algorithm 1's while loop. */
static void iterate(struct hd_ccbp_ctrl_state *s)
{
    int k = -1;
    for (unsigned j = 0; j < A; j++) {
        if (!((s->live >> j) & 1u))
            continue;
        if (k >= 0 && xnum(s, j) * s->d[k] == xnum(s, (unsigned)k) * s->d[j])
            s->evs |= 1u << HD_CCBP_CTRL_EV_TIE;
        if (k < 0 || xnum(s, j) * s->d[k] < xnum(s, (unsigned)k) * s->d[j])
            k = (int)j;
    }
    if (k < 0)
        return;
    if (s->steps < SMAX)
        s->steps++;
    const uint8_t t = s->type[k];
    const bool bw = t == HD_CCBP_CTRL_NBI || t == HD_CCBP_CTRL_DBI;
    const unsigned c0 = s->cta[k];
    uint32_t snew = 0;
    unsigned c1 = c0 + 1u;
    if (bw) {
        const uint32_t old = t == HD_CCBP_CTRL_NBI ? s->nbw[k] : s->dbw[k];
        snew = old + ONE > VMAX ? VMAX : old + ONE;
        const uint32_t at0 = c0 ? s->own[k][c0 - 1] : 0u;
        c1 = at0 < snew ? c0 + 1u : c0;
    }
    if (c1 > s->nmax[k]) {
        s->live &= (uint8_t)~(1u << k);
        s->evs |= 1u << HD_CCBP_CTRL_EV_NMAX;
        return;
    }
    const unsigned n = (c1 - 1u) & 63u; /* c1 >= 1 here (NM <= 62; the & only tells the
                                         * compiler the index is in range) */
    const uint32_t at = s->own[k][n];
    const uint32_t own = bw ? snew : at;
    /* the resource shares (other, request crossbar, reply crossbar): the own share x the
     * table's ratio, or the table's curve point (LS, or the own curve 0 here) */
    uint32_t sh[3];
    for (unsigned i = 0; i < 3; i++) {
        const uint32_t e = s->tab[i][k][n];
        if (bw && at != 0) {
            const uint64_t x = ((uint64_t)snew * e) >> CCBP_CTRL_RF;
            sh[i] = x > VMAX ? VMAX : (uint32_t)x;
        } else
            sh[i] = e & VMAX;
    }
    if (bw && at == 0)
        s->evs |= 1u << HD_CCBP_CTRL_EV_AT0;
    const uint32_t nb = t == HD_CCBP_CTRL_DBI ? sh[0] : own;
    const uint32_t db = t == HD_CCBP_CTRL_DBI ? own : sh[0];
    /* CanAlloc on the allocation with k's candidate */
    uint64_t rs = 0, ps = 0, ds = 0, use[4] = {0, 0, 0, 0};
    for (unsigned j = 0; j < A; j++) {
        const bool me = j == (unsigned)k;
        const uint64_t cj = me ? c1 : s->cta[j];
        rs += me ? sh[1] : s->req[j];
        ps += me ? sh[2] : s->rep[j];
        ds += me ? db : s->dbw[j];
        for (unsigned r = 0; r < 4; r++)
            use[r] += cj * s->dem[j][r];
    }
    bool fit = true;
    for (unsigned r = 0; r < 4; r++)
        fit = fit && use[r] <= s->cap[r];
    if (!fit || rs > s->nlim || ps > s->nlim || ds > s->dlim) {
        s->live &= (uint8_t)~(1u << k);
        s->evs |= 1u << (!fit            ? HD_CCBP_CTRL_EV_STATIC
                         : rs > s->nlim ? HD_CCBP_CTRL_EV_REQ
                         : ps > s->nlim ? HD_CCBP_CTRL_EV_REP
                                        : HD_CCBP_CTRL_EV_DRAM);
        return;
    }
    s->evs |= 1u << (c1 != c0 ? HD_CCBP_CTRL_EV_CTA : HD_CCBP_CTRL_EV_SHARE);
    s->cta[k] = (uint8_t)c1;
    s->nbw[k] = nb;
    s->dbw[k] = db;
    s->req[k] = sh[1];
    s->rep[k] = sh[2];
}

void hd_ccbp_ctrl_ref_step(struct hd_ccbp_ctrl_state *s, const struct hd_ccbp_ctrl_in *in,
                           struct hd_ccbp_ctrl_out *out)
{
    *out = s->q;
    s->cycle++;
    s->evs = 0;
    memset(&s->q, 0, sizeof s->q);
    if (in->start_i & 1u) {
        s->run = 1;
        s->cnt = 0;
        s->live = (uint8_t)((1u << s->nk) - 1u);
        s->steps = 0;
        memset(s->cta, 0, sizeof s->cta);
        memset(s->nbw, 0, sizeof s->nbw);
        memset(s->dbw, 0, sizeof s->dbw);
        memset(s->req, 0, sizeof s->req);
        memset(s->rep, 0, sizeof s->rep);
    } else if (s->run) {
        if (s->cnt + 1u >= (s->step ? s->step : 1u)) {
            s->cnt = 0;
            iterate(s);
            if (!s->live) {
                s->run = 0;
                s->q.done_o = 1;
                s->q.steps_o = s->steps;
            }
        } else
            s->cnt++;
    }
    if (in->wr_v_i & 1u) /* (the start and the iteration read the registers before the edge) */
        write(s, in);
    s->q.busy_o = s->run;
    if (in->rd_v_i & 1u) {
        const unsigned a = (unsigned)in->rd_app_i; /* < A = 2^AW */
        const uint8_t t = s->type[a];
        s->q.rd_v_o = 1;
        switch (in->rd_sel_i & 7u) {
        case HD_CCBP_CTRL_RD_CTA:
            s->q.rd_data_o = s->cta[a];
            break;
        case HD_CCBP_CTRL_RD_NBW:
            s->q.rd_data_o = s->nbw[a];
            break;
        case HD_CCBP_CTRL_RD_DBW:
            s->q.rd_data_o = s->dbw[a];
            break;
        case HD_CCBP_CTRL_RD_QUOTA:
            s->q.rd_data_o = t == HD_CCBP_CTRL_NBI   ? hd_ccbp_ctrl_quota(s->nbw[a], s->qf[a])
                             : t == HD_CCBP_CTRL_DBI ? hd_ccbp_ctrl_quota(s->dbw[a], s->qf[a])
                                                     : 0u;
            break;
        case HD_CCBP_CTRL_RD_REQ:
            s->q.rd_data_o = s->req[a];
            break;
        case HD_CCBP_CTRL_RD_REP:
            s->q.rd_data_o = s->rep[a];
            break;
        default: /* 6, 7: 0 */
            break;
        }
    }
}

bool hd_ccbp_ctrl_ref_idle(const struct hd_ccbp_ctrl_state *s, const struct hd_ccbp_ctrl_in *in)
{
    return !s->run && !(in->wr_v_i & 1u) && !(in->start_i & 1u) && !(in->rd_v_i & 1u) &&
           !s->q.busy_o && !s->q.done_o && !s->q.rd_v_o;
}
