/* SPDX-License-Identifier: MIT
 * shieh_cosim.c - Shieh's four tables in a cycle loop with the RTL in lockstep (issue 14 item 5):
 * a Fermi GPU of 15 SMs, each running TBs of one Table 4.2 kernel (Appendix A's footprints)
 * that issue warp instructions on the SM's two issue ports and leave when done, is preempted by
 * the synthetic kernel (4096 registers, 2048 B per TB) at one cycle, L_c = 2800 cycles. The
 * block scheduler's firmware works only through the tables' outputs: it fills the positions
 * table and reads the positions back, writes the candidate rows (§2.3) from them, reads every
 * running TB's status and the rows back, runs Algorithm 1 (model/mech/shieh/shieh_select.h) on
 * what it read, signals the victims (drain keeps running, flush leaves at once, switch leaves
 * after L_CS), places preempting TBs at positions whose rows the table reports empty (and whose
 * space is really free), records them in the allocation status and reports them finished;
 * finished running TBs' statistics come from the status table's exit reports. Each SM iterates
 * until it holds two preempting TBs.
 * Blocks are made by the co-simulation factory (cosim/cosim_hw.h): C reference and Verilated RTL
 * in lockstep, every output compared every step. Checks: 0 mismatches; every status read equals
 * the model's own counters and every row read equals the candidates regenerated from what the
 * SM holds (the update logic = regeneration, in the loop); the same decisions, placements and
 * cycles with the RTL driving (--drive rtl) as with the C references. Usage: hd_shieh_cosim
 * [--fst FILE]. Exit 0 on success.
 */
#include "cosim_hw.h"
#include "hw_ref.h"
#include "shieh_alloc_pos.h"
#include "shieh_alloc_status.h"
#include "shieh_cands.h"
#include "shieh_cost.h"
#include "shieh_select.h"
#include "shieh_tb_status.h"
#include "shieh_victim_sets.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSM 15
#define NTB 8          /* Fermi: 8 TB slots (the default configurations) */
#define T_REQ 3000
#define L_C 2800
#define T_END 14000
#define WANT 2         /* preempting TBs per SM */
#define PRE_LEN 1500   /* cycles a preempting TB runs */

/* Appendix A / Table 4.2: registers and shared memory per TB, TBs per SM, idempotent. */
static const struct {
    const char *name;
    uint32_t regs, smem, tbs;
    bool idem;
} kern[] = {{"pathfinder", 4096, 2048, 6, true},  {"hotspot", 9216, 3072, 3, true},
            {"streamcluster", 6144, 0, 3, true},  {"dwt2d/c_Copy", 3584, 3096, 8, true},
            {"dwt2d/Fdwt53", 3072, 768, 6, true}, {"kmeans", 3072, 3072, 6, true},
            {"stencil", 3584, 0, 8, true},        {"srad_cuda_1", 5120, 6144, 6, true},
            {"srad_cuda_2", 5120, 5120, 6, false}, {"b+tree/findRangeK", 5120, 0, 6, false},
            {"b+tree/findK", 4096, 0, 6, false},  {"nw", 1536, 2180, 8, false},
            {"bfs/Kernel", 8192, 0, 3, false},    {"bfs/Kernel2", 6144, 0, 3, false},
            {"backprop/layerfwd", 3072, 1088, 6, false}};

enum phase { RUN, WAIT_POS, RD_POS, WR_ROWS, RD_ST, RD_ROWS, PLACE, DONE };

struct tbm {
    bool run, signalled, stalled;
    uint64_t instrs, issue, target, leave_at;
    bool flush;
};

struct smx {
    struct hd_hw_inst pos, vs, st;
    unsigned kid;
    struct tbm tb[NTB];
    struct hd_shieh_kstats ks;
    enum phase ph;
    unsigned k, idx, rd_pend, wr_next;
    uint32_t base_r[HD_SHIEH_MAX_POS], base_s[HD_SHIEH_MAX_POS];
    uint64_t rows[HD_SHIEH_MAX_POS], row_valid, row_empty, issued;
    struct hd_shieh_tb rd[NTB];     /* the status table as read */
    uint64_t snap_instr[NTB], snap_issue[NTB];
    bool snap_flush[NTB];   /* the model's view when a status read was issued */
    uint64_t ev_mask;       /* Signal to send this cycle */
    int place_at;           /* position to invalidate this cycle, or -1 */
    unsigned placed;
    uint64_t pre_end[HD_SHIEH_MAX_POS];
    unsigned free_q[NTB], nfree; /* exits waiting for the status table's one free port */
};

struct run {
    uint64_t log, decisions, placed, mism_checks;
    char err[2048];
};

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void mix(uint64_t *h, uint64_t v)
{
    *h = (*h ^ v) * 0x100000001b3ull;
}

static bool overlap(uint64_t a, uint64_t an, uint64_t b, uint64_t bn)
{
    return an > 0 && bn > 0 && a < b + bn && b < a + an;
}

/* The rows from the positions as read back, over the TBs still there and not signalled. */
static void rows_from(const struct smx *m, uint64_t *rows)
{
    const unsigned kk = m->kid;
    for (unsigned p = 0; p < m->k; p++) {
        rows[p] = 0;
        if ((m->issued >> p) & 1u)
            continue;
        for (unsigned j = 0; j < kern[kk].tbs; j++)
            if (m->tb[j].run && !m->tb[j].signalled &&
                (overlap(m->base_r[p], 4096, (uint64_t)j * kern[kk].regs, kern[kk].regs) ||
                 overlap(m->base_s[p], 2048, (uint64_t)j * kern[kk].smem, kern[kk].smem)))
                rows[p] |= (uint64_t)1 << j;
    }
}

/* Is position p's space really free (no TB of the running kernel still in it)? */
static bool space_free(const struct smx *m, unsigned p)
{
    const unsigned kk = m->kid;
    for (unsigned j = 0; j < kern[kk].tbs; j++)
        if (m->tb[j].run && (overlap(m->base_r[p], 4096, (uint64_t)j * kern[kk].regs, kern[kk].regs) ||
                             overlap(m->base_s[p], 2048, (uint64_t)j * kern[kk].smem, kern[kk].smem)))
            return false;
    return true;
}

static int make(const struct hd_hw_factory *f, const char *block, unsigned sm, struct hd_hw_inst *x,
                struct run *r)
{
    char name[64];
    snprintf(name, sizeof name, "sm%u.%s", sm, block);
    return hd_hw_make(f, block, name, x, r->err, sizeof r->err);
}

static int step(struct hd_hw_inst *x, const void *in, void *out, uint64_t now, struct run *r)
{
    if (hd_hw_step(x, in, out, now) != 0) {
        snprintf(r->err, sizeof r->err, "%s", x->ops->error(x->impl));
        return -1;
    }
    return 0;
}

static int fail(struct run *r, const char *what, unsigned sm, uint64_t now, uint64_t want, uint64_t got)
{
    snprintf(r->err, sizeof r->err, "sm%u cycle %" PRIu64 ": %s: model %" PRIu64 ", table %" PRIu64,
             sm, now, what, want, got);
    return -1;
}

static int sim(const struct hd_hw_factory *f, struct run *r)
{
    static struct smx sm[NSM];
    memset(sm, 0, sizeof sm);
    struct hd_hw_inst gs;
    if (make(f, "shieh_alloc_status", 0, &gs, r) != 0)
        return -1;
    uint64_t rng = 0x2545f4914f6cdd1dull;
    int rc = 0;
    for (unsigned s = 0; s < NSM && rc == 0; s++) {
        sm[s].kid = s;
        sm[s].place_at = -1;
        rc = make(f, "shieh_alloc_pos", s, &sm[s].pos, r) | make(f, "shieh_victim_sets", s, &sm[s].vs, r) |
             make(f, "shieh_tb_status", s, &sm[s].st, r);
    }
    unsigned gdisp[NSM * WANT * 2][2], ngdisp = 0, gfin[NSM * WANT * 2][2], ngfin = 0, gd0 = 0, gf0 = 0;
    for (uint64_t now = 0; now < T_END && rc == 0; now++) {
        struct hd_shieh_alloc_status_in gi;
        memset(&gi, 0, sizeof gi);
        if (now == T_REQ) {
            gi.req_v_i = 1;
            gi.req_pid_i = 4242;
            gi.req_kid_i = 9;
        }
        for (unsigned s = 0; s < NSM && rc == 0; s++) {
            struct smx *m = &sm[s];
            const unsigned kk = m->kid;
            struct hd_shieh_tb_status_in ti;
            struct hd_shieh_victim_sets_in vi;
            struct hd_shieh_alloc_pos_in pi;
            memset(&ti, 0, sizeof ti);
            memset(&vi, 0, sizeof vi);
            memset(&pi, 0, sizeof pi);
            /* SM side: exits (one per cycle through the free port), placements, issue. */
            for (unsigned j = 0; j < kern[kk].tbs; j++) {
                struct tbm *t = &m->tb[j];
                bool done = t->run && ((!t->stalled && t->instrs >= t->target) ||
                                       (t->stalled && now >= t->leave_at));
                if (done) {
                    t->run = false;
                    m->free_q[m->nfree++] = j;
                    if (!t->signalled)
                        m->ev_mask |= (uint64_t)1 << j; /* a TB that finished leaves every row */
                }
            }
            if (m->nfree) {
                ti.free_v_i = 1;
                ti.free_slot_i = m->free_q[0];
                memmove(m->free_q, m->free_q + 1, --m->nfree * sizeof m->free_q[0]);
            } else if (m->ph == RUN) { /* refill an empty slot (no new TB once preempted) */
                for (unsigned j = 0; j < kern[kk].tbs; j++)
                    if (!m->tb[j].run) {
                        struct tbm *t = &m->tb[j];
                        *t = (struct tbm){.run = true, .issue = now, .flush = true,
                                          .target = 600 + rng_next(&rng) % 900};
                        ti.alloc_v_i = 1;
                        ti.alloc_slot_i = j;
                        ti.alloc_cycle_i = now;
                        ti.alloc_flush_i = 1;
                        break;
                    }
            }
            for (unsigned port = 0; port < 2; port++) {
                unsigned j = (unsigned)(rng_next(&rng) % kern[kk].tbs);
                struct tbm *t = &m->tb[j];
                if (!t->run || t->stalled || (ti.alloc_v_i && ti.alloc_slot_i == j) ||
                    rng_next(&rng) % 10 < 3)
                    continue;
                t->instrs++;
                ti.iss_v_i |= 1u << port;
                ti.iss_slot_i |= (uint64_t)j << (port * SHIEH_TB_STATUS_TbW);
                if (!kern[kk].idem && rng_next(&rng) % 400 == 0) {
                    t->flush = false;
                    ti.iss_nonidem_i |= 1u << port;
                }
            }
            /* Block-scheduler side. */
            if (now == T_REQ) {
                pi.init_v_i = 1;
                pi.r_per_tb_i = 4096;
                pi.s_per_tb_i = 2048;
                pi.rf_cap_i = 32768;
                pi.smem_cap_i = 49152;
                m->ph = WAIT_POS;
            } else if (m->ph == RD_POS && m->idx < m->k) {
                pi.rd_v_i = 1;
                pi.rd_idx_i = m->idx++;
            } else if (m->ph == WR_ROWS) {
                if (m->wr_next == 0)
                    vi.clr_i = 1;
                if (m->wr_next < m->k) {
                    vi.wr_v_i = 1;
                    vi.wr_idx_i = m->wr_next;
                    vi.wr_bits_i = m->rows[m->wr_next];
                }
                if (++m->wr_next >= m->k) {
                    m->ph = RD_ST;
                    m->idx = m->rd_pend = 0;
                }
            } else if (m->ph == RD_ST && m->idx < NTB) {
                ti.rd_v_i = 1;
                ti.rd_slot_i = m->idx;
                m->snap_instr[m->idx] = m->tb[m->idx].instrs;
                m->snap_issue[m->idx] = m->tb[m->idx].issue;
                m->snap_flush[m->idx] = m->tb[m->idx].flush;
                m->idx++;
            } else if (m->ph == RD_ROWS && m->idx < m->k) {
                vi.rd_v_i = 1;
                vi.rd_idx_i = m->idx++;
            } else if (m->ph == PLACE || m->ph == DONE) {
                vi.rd_v_i = 1; /* the valid and empty vectors */
            }
            if (m->ev_mask && m->ph >= WR_ROWS) {
                vi.ev_v_i = 1;
                vi.ev_mask_i = m->ev_mask;
                m->ev_mask = 0;
            } else if (m->ph < WR_ROWS) {
                m->ev_mask = 0; /* rows not made yet: they are generated from what is there */
            }
            if (m->place_at >= 0) {
                vi.inv_v_i = 1;
                vi.inv_idx_i = (unsigned)m->place_at;
                m->place_at = -1;
            }
            for (unsigned p = 0; p < m->k; p++)
                if (((m->issued >> p) & 1u) && m->pre_end[p] == now && ngfin < NSM * WANT * 2) {
                    gfin[ngfin][0] = s;
                    gfin[ngfin++][1] = p;
                }
            struct hd_shieh_tb_status_out to;
            struct hd_shieh_victim_sets_out vo;
            struct hd_shieh_alloc_pos_out po;
            uint64_t tags[2] = {s, ti.free_v_i ? ti.free_slot_i : ti.alloc_slot_i};
            hd_hw_set_tag(&m->st, tags, 2);
            if (step(&m->st, &ti, &to, now, r) || step(&m->vs, &vi, &vo, now, r) ||
                step(&m->pos, &pi, &po, now, r)) {
                rc = -1;
                break;
            }
            /* Outputs: the answers to last cycle's requests. */
            if (to.fin_v_o)
                hd_shieh_kstats_add(&m->ks, to.fin_instr_o, (now - 1) - to.fin_issue_o);
            if (m->ph == WAIT_POS && po.done_o) {
                m->k = (unsigned)po.k_o < NTB ? (unsigned)po.k_o : NTB; /* candidate rows */
                m->ph = RD_POS;
                m->idx = m->rd_pend = 0;
            } else if (m->ph == RD_POS && po.rd_v_o) {
                m->base_r[m->rd_pend] = (uint32_t)po.rd_reg_o;
                m->base_s[m->rd_pend] = (uint32_t)po.rd_smem_o;
                if (po.rd_reg_o != m->rd_pend * 4096u || po.rd_smem_o != m->rd_pend * 2048u)
                    rc = fail(r, "position base", s, now, m->rd_pend * 4096u, po.rd_reg_o);
                if (++m->rd_pend == m->k) {
                    rows_from(m, m->rows);
                    m->ph = WR_ROWS;
                    m->wr_next = 0;
                }
            } else if (m->ph == RD_ST && to.rd_v_o) {
                unsigned j = m->rd_pend++;
                m->rd[j] = (struct hd_shieh_tb){to.rd_valid_o != 0, to.rd_flush_o != 0, to.rd_instr_o,
                                                to.rd_issue_o};
                if (to.rd_valid_o && to.rd_instr_o != m->snap_instr[j])
                    rc = fail(r, "running TB status: instructions", s, now, m->snap_instr[j], to.rd_instr_o);
                else if (to.rd_valid_o && to.rd_issue_o != m->snap_issue[j])
                    rc = fail(r, "running TB status: issue cycle", s, now, m->snap_issue[j], to.rd_issue_o);
                else if (to.rd_valid_o && (to.rd_flush_o != 0) != m->snap_flush[j])
                    rc = fail(r, "running TB status: flush bit", s, now, m->snap_flush[j], to.rd_flush_o);
                r->mism_checks++;
                if (m->rd_pend == NTB) {
                    m->ph = RD_ROWS;
                    m->idx = m->rd_pend = 0;
                }
            } else if (m->ph == RD_ROWS && vo.rd_v_o) {
                unsigned p = m->rd_pend++;
                uint64_t regen[HD_SHIEH_MAX_POS];
                rows_from(m, regen);
                if (vo.rd_bits_o != regen[p])
                    rc = fail(r, "candidate row = regeneration", s, now, regen[p], vo.rd_bits_o);
                r->mism_checks++;
                m->rows[p] = vo.rd_bits_o;
                m->row_valid = vo.row_valid_o;
                if (m->rd_pend == m->k) {
                    /* Algorithm 1 on what the tables said. */
                    struct hd_shieh_pred pr;
                    hd_shieh_predict(&m->ks, m->rd, NTB, now, &pr);
                    uint64_t l_cs = hd_shieh_switch_latency(4u * kern[kk].regs + kern[kk].smem, 8.45);
                    uint64_t budget = hd_shieh_budget(L_C, T_REQ, now);
                    struct hd_shieh_cost c[HD_SHIEH_MAX_TBS];
                    unsigned tech[HD_SHIEH_MAX_TBS] = {0};
                    for (unsigned j = 0; j < NTB; j++) {
                        hd_shieh_cost_tb(&pr, &m->rd[j], now, l_cs, &c[j]);
                        tech[j] = hd_shieh_choose_tech(&c[j], budget);
                    }
                    struct hd_shieh_pick pk;
                    hd_shieh_select(m->rows, m->row_valid, m->k, c, tech, budget, &pk);
                    r->decisions++;
                    mix(&r->log, now);
                    mix(&r->log, (uint64_t)(int64_t)pk.cand);
                    mix(&r->log, pk.victims);
                    for (unsigned j = 0; j < NTB; j++) {
                        if (!((pk.victims >> j) & 1u))
                            continue;
                        struct tbm *t = &m->tb[j];
                        mix(&r->log, tech[j]);
                        t->signalled = true;
                        m->ev_mask |= (uint64_t)1 << j;
                        if (tech[j] == HD_SHIEH_FLUSH)
                            t->stalled = true, t->leave_at = now + 1;
                        else if (tech[j] == HD_SHIEH_SWITCH)
                            t->stalled = true, t->leave_at = now + l_cs;
                    }
                    m->ph = PLACE;
                }
            } else if ((m->ph == PLACE || m->ph == DONE) && vo.rd_v_o) {
                uint64_t ready = vo.row_empty_o & ~m->issued;
                for (unsigned p = 0; p < m->k && m->placed < WANT; p++)
                    if (((ready >> p) & 1u) && space_free(m, p)) {
                        m->issued |= (uint64_t)1 << p;
                        m->place_at = (int)p;
                        m->pre_end[p] = now + PRE_LEN;
                        m->placed++;
                        r->placed++;
                        mix(&r->log, now * 64 + p);
                        if (ngdisp < NSM * WANT * 2) {
                            gdisp[ngdisp][0] = s;
                            gdisp[ngdisp++][1] = p;
                        }
                        break; /* one per cycle */
                    }
                if (m->placed >= WANT)
                    m->ph = DONE;
                else if (m->place_at >= 0 || (vo.row_empty_o & ~m->issued) == 0) {
                    bool leaving = false; /* iterate once the last victims have gone */
                    for (unsigned j = 0; j < NTB; j++)
                        leaving |= m->tb[j].run && m->tb[j].signalled;
                    if (!leaving) {
                        m->ph = RD_ST;
                        m->idx = m->rd_pend = 0;
                    }
                }
            }
        }
        if (rc)
            break;
        if (gd0 < ngdisp) { /* one dispatch and one finish report per cycle */
            gi.disp_v_i = 1;
            gi.disp_sm_i = gdisp[gd0][0];
            gi.disp_pos_i = gdisp[gd0++][1];
        }
        if (gf0 < ngfin) {
            gi.fin_v_i = 1;
            gi.fin_sm_i = gfin[gf0][0];
            gi.fin_pos_i = gfin[gf0++][1];
            gi.fin_kid_i = 9;
        }
        gi.rd_v_i = 1;
        gi.rd_sm_i = (unsigned)(now % NSM);
        struct hd_shieh_alloc_status_out go;
        if (step(&gs, &gi, &go, now, r))
            rc = -1;
        else if (go.fin_bad_o)
            rc = fail(r, "allocation status refused a finish report", 0, now, 0, 1);
        else if (go.rd_v_o && now > T_REQ)
            mix(&r->log, go.rd_busy_sms_o);
    }
    for (unsigned s = 0; s < NSM; s++) {
        if (rc == 0 && sm[s].placed == 0)
            rc = fail(r, "no preempting TB placed", s, T_END, 1, 0);
        hd_hw_destroy(&sm[s].pos);
        hd_hw_destroy(&sm[s].vs);
        hd_hw_destroy(&sm[s].st);
    }
    hd_hw_destroy(&gs);
    return rc;
}

int main(int argc, char **argv)
{
    const char *fst = argc > 2 && strcmp(argv[1], "--fst") == 0 ? argv[2] : NULL;
    struct run ref = {0}, co[2] = {{0}, {0}};
    if (sim(hd_hw_ref_factory(), &ref) != 0) {
        fprintf(stderr, "shieh_cosim: C references: %s\n", ref.err);
        return 1;
    }
    printf("shieh_cosim: C references: %u SMs, %" PRIu64 " decisions, %" PRIu64
           " preempting TBs placed, %" PRIu64 " table reads checked against the model\n", NSM,
           ref.decisions, ref.placed, ref.mism_checks);
    for (int drive = 0; drive < 2; drive++) {
        struct hd_cosim_hw_opts o;
        memset(&o, 0, sizeof o);
        o.rtl = true;
        o.sm_all = true;
        o.drive_rtl = drive;
        o.fst_path = drive == 0 ? fst : NULL;
        o.win_a = T_REQ - 10;
        o.win_b = T_REQ + 400;
        char err[2048];
        struct hd_cosim_hw *h = hd_cosim_hw_create(&o, err, sizeof err);
        if (!h) {
            fprintf(stderr, "shieh_cosim: %s\n", err);
            return 1;
        }
        int rc = sim(hd_cosim_hw_factory(h), &co[drive]);
        const struct hd_cosim_hw_stats *st = hd_cosim_hw_stats(h);
        if (rc != 0) {
            fprintf(stderr, "shieh_cosim: MISMATCH (drive %s): %s\n", drive ? "rtl" : "ref", co[drive].err);
            hd_cosim_hw_destroy(h);
            return 1;
        }
        printf("shieh_cosim: drive %s: %u SMs, %" PRIu64 " decisions, %" PRIu64
               " preempting TBs placed, %" PRIu64 " table reads checked against the model, %"
               PRIu64 " block steps (%" PRIu64 " against RTL on %u instances), 0 mismatches\n",
               drive ? "rtl" : "ref", NSM, co[drive].decisions, co[drive].placed,
               co[drive].mism_checks, st->steps, st->rtl_steps, st->rtl_instances);
        if (hd_cosim_hw_finish(h, err, sizeof err) != 0) {
            fprintf(stderr, "shieh_cosim: %s\n", err);
            hd_cosim_hw_destroy(h);
            return 1;
        }
        hd_cosim_hw_destroy(h);
    }
    if (co[0].log != ref.log || co[1].log != ref.log) {
        fprintf(stderr, "shieh_cosim: MISMATCH: decisions differ (ref %016" PRIx64 ", cosim %016"
                PRIx64 ", drive rtl %016" PRIx64 ")\n", ref.log, co[0].log, co[1].log);
        return 1;
    }
    printf("shieh_cosim: same decisions, placements and cycles with --drive rtl (%" PRIu64
           " decisions, %" PRIu64 " placements)\n", ref.decisions, ref.placed);
    return 0;
}
