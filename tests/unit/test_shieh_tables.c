/* SPDX-License-Identifier: MIT
 * test_shieh_tables.c - the C references of Shieh's four tables (tables/shieh_*.h; thesis §3.4,
 * Fig 3.6-3.10), in the configuration built (configs/rtl/shieh_*.ini), cycle by cycle:
 *   - Candidate Victim Sets: Fig 3.9's golden update (Signal 00111000), the read latency of one
 *     cycle, invalidation, clear; and the update logic equals regeneration: after evicting nw's
 *     candidate 1 (Appendix A), every row equals the candidates recomputed without those TBs;
 *   - Allocation Positions: Fig 3.7's bases (p*4096, p*2048), K on the Fermi SM (8) and on the
 *     64K-register SM (16, or PosMax), done_o exactly K + 2 cycles after init_v_i;
 *   - Running TB Status: Fig 3.10's rows, one increment per issue port (+2 for two ports on one
 *     slot), the flush bit cleared by a non-idempotent instruction, the entry reported on exit;
 *   - Allocation Status: Fig 3.6 (issued, finished, issued), a report of another kernel refused;
 *   - every block is idle (hw_inst.h contract) with no input and no pending result.
 */
#include "shieh_alloc_pos.h"
#include "shieh_alloc_status.h"
#include "shieh_cands.h"
#include "shieh_tb_status.h"
#include "shieh_victim_sets.h"
#include "testutil.h"

#include <string.h>

static uint64_t fig(const char *s)
{
    uint64_t v = 0;
    for (unsigned j = 0; s[j]; j++)
        if (s[j] == '1')
            v |= (uint64_t)1 << j;
    return v;
}

static void test_victim_sets(struct hd_test_state *t)
{
    hd_test_begin(t, "Candidate Victim Sets: Fig 3.9 update, latency, invalidation");
    struct hd_shieh_victim_sets_state s;
    struct hd_shieh_victim_sets_in in;
    struct hd_shieh_victim_sets_out out;
    hd_shieh_victim_sets_ref_reset(&s);
    memset(&in, 0, sizeof in);
    HD_CHECK(t, hd_shieh_victim_sets_ref_idle(&s, &in));
    const char *before[4] = {"11100000", "00111000", "00001110", "00000011"};
    const char *after[4] = {"11000000", "00000000", "00000110", "00000011"};
    in.clr_i = 1;
    hd_shieh_victim_sets_ref_step(&s, &in, &out);
    for (unsigned k = 0; k < 4; k++) {
        memset(&in, 0, sizeof in);
        in.wr_v_i = 1;
        in.wr_idx_i = k;
        in.wr_bits_i = fig(before[k]);
        in.rd_v_i = 1; /* read the row being written: the written value */
        in.rd_idx_i = k;
        hd_shieh_victim_sets_ref_step(&s, &in, &out);
        if (k > 0)
            HD_CHECK_U64(t, fig(before[k - 1]), out.rd_bits_o); /* one cycle later */
    }
    memset(&in, 0, sizeof in);
    in.ev_v_i = 1;
    in.ev_mask_i = fig("00111000"); /* Candidate 1 preempted */
    hd_shieh_victim_sets_ref_step(&s, &in, &out);
    HD_CHECK_U64(t, fig(before[3]), out.rd_bits_o);
    for (unsigned k = 0; k <= 4; k++) {
        memset(&in, 0, sizeof in);
        in.rd_v_i = k < 4;
        in.rd_idx_i = k;
        hd_shieh_victim_sets_ref_step(&s, &in, &out);
        if (k == 0)
            HD_CHECK_U64(t, 0, out.rd_v_o); /* the eviction cycle had no read */
        else {
            HD_CHECK_U64(t, 1, out.rd_v_o);
            HD_CHECK_U64(t, fig(after[k - 1]), out.rd_bits_o);
            HD_CHECK_U64(t, 0xf, out.row_valid_o);
            HD_CHECK_U64(t, 0x2, out.row_empty_o); /* Candidate 1's position is free */
        }
    }
    memset(&in, 0, sizeof in);
    in.inv_v_i = 1; /* position 1 took a preempting TB */
    in.inv_idx_i = 1;
    in.rd_v_i = 1;
    hd_shieh_victim_sets_ref_step(&s, &in, &out);
    memset(&in, 0, sizeof in);
    hd_shieh_victim_sets_ref_step(&s, &in, &out);
    HD_CHECK_U64(t, 0xd, out.row_valid_o);
    HD_CHECK_U64(t, 0, out.row_empty_o);
    HD_CHECK(t, hd_shieh_victim_sets_ref_idle(&s, &in)); /* nothing pending */
}

static void test_update_is_regeneration(struct hd_test_state *t)
{
    hd_test_begin(t, "Candidate Victim Sets: update logic equals regeneration (nw, Appendix A)");
    if (HD_SHIEH_VS_TBS < 8 || HD_SHIEH_VS_ROWS < 8) {
        HD_CHECK(t, 0); /* every configuration has at least 8 x 8 */
        return;
    }
    const struct hd_shieh_footprint syn = {4096, 2048};
    struct hd_shieh_range tbs[8];
    for (unsigned j = 0; j < 8; j++)
        tbs[j] = (struct hd_shieh_range){true, j * 1536u, 1536, j * 2180u, 2180};
    uint64_t cand[8], valid;
    hd_shieh_candidates(&syn, 8, tbs, 8, 0, cand, &valid);
    struct hd_shieh_victim_sets_state s;
    struct hd_shieh_victim_sets_in in;
    struct hd_shieh_victim_sets_out out;
    hd_shieh_victim_sets_ref_reset(&s);
    memset(&in, 0, sizeof in);
    in.clr_i = 1;
    hd_shieh_victim_sets_ref_step(&s, &in, &out);
    for (unsigned p = 0; p < 8; p++) {
        memset(&in, 0, sizeof in);
        in.wr_v_i = 1;
        in.wr_idx_i = p;
        in.wr_bits_i = cand[p];
        hd_shieh_victim_sets_ref_step(&s, &in, &out);
    }
    HD_CHECK_U64(t, fig("11111100"), cand[1]);
    memset(&in, 0, sizeof in);
    in.ev_v_i = 1;
    in.ev_mask_i = cand[1];
    hd_shieh_victim_sets_ref_step(&s, &in, &out);
    for (unsigned j = 0; j < 8; j++)
        if ((cand[1] >> j) & 1u)
            tbs[j].valid = false;
    uint64_t again[8];
    hd_shieh_candidates(&syn, 8, tbs, 8, 0, again, &valid);
    for (unsigned p = 0; p < 8; p++) {
        memset(&in, 0, sizeof in);
        in.rd_v_i = 1;
        in.rd_idx_i = p;
        hd_shieh_victim_sets_ref_step(&s, &in, &out);
        memset(&in, 0, sizeof in);
        hd_shieh_victim_sets_ref_step(&s, &in, &out);
        HD_CHECK_U64(t, again[p], out.rd_bits_o);
    }
}

static unsigned fill(struct hd_shieh_alloc_pos_state *s, uint32_t r, uint32_t sm, uint32_t rf,
                     uint32_t smem, uint32_t *k)
{
    struct hd_shieh_alloc_pos_in in;
    struct hd_shieh_alloc_pos_out out;
    memset(&in, 0, sizeof in);
    in.init_v_i = 1;
    in.r_per_tb_i = r;
    in.s_per_tb_i = sm;
    in.rf_cap_i = rf;
    in.smem_cap_i = smem;
    hd_shieh_alloc_pos_ref_step(s, &in, &out);
    memset(&in, 0, sizeof in);
    for (unsigned c = 1; c < 200; c++) {
        hd_shieh_alloc_pos_ref_step(s, &in, &out);
        if (out.done_o) {
            *k = (uint32_t)out.k_o;
            return c;
        }
    }
    return 0;
}

static void test_alloc_pos(struct hd_test_state *t)
{
    hd_test_begin(t, "Allocation Positions: Fig 3.7 bases, K, K + 2 cycles");
    struct hd_shieh_alloc_pos_state s;
    struct hd_shieh_alloc_pos_in in;
    struct hd_shieh_alloc_pos_out out;
    hd_shieh_alloc_pos_ref_reset(&s);
    uint32_t k = 0;
    unsigned cycles = fill(&s, 4096, 2048, 32768, 49152, &k); /* Fermi SM */
    HD_CHECK_U64(t, 8, k);
    HD_CHECK_U64(t, k + 2, cycles);
    uint32_t want = HD_SHIEH_POS_MAX < 16 ? HD_SHIEH_POS_MAX : 16;
    cycles = fill(&s, 4096, 2048, 65536, 49152, &k); /* Fig 3.7: 64K registers */
    HD_CHECK_U64(t, want, k);
    HD_CHECK_U64(t, k + 2, cycles);
    for (unsigned p = 0; p <= k; p++) {
        memset(&in, 0, sizeof in);
        in.rd_v_i = 1;
        in.rd_idx_i = p;
        hd_shieh_alloc_pos_ref_step(&s, &in, &out);
        memset(&in, 0, sizeof in);
        hd_shieh_alloc_pos_ref_step(&s, &in, &out);
        HD_CHECK_U64(t, p < k, out.rd_ok_o);
        HD_CHECK_U64(t, p < k ? p * 4096u : 0, out.rd_reg_o);
        HD_CHECK_U64(t, p < k ? p * 2048u : 0, out.rd_smem_o);
    }
    cycles = fill(&s, 6144, 0, 32768, 49152, &k); /* streamcluster-like: registers only */
    HD_CHECK_U64(t, 5, k);
    cycles = fill(&s, 0, 0, 32768, 49152, &k);
    HD_CHECK_U64(t, 0, k);
    HD_CHECK_U64(t, 2, cycles);
    HD_CHECK(t, hd_shieh_alloc_pos_ref_idle(&s, &in));
}

static void test_tb_status(struct hd_test_state *t)
{
    hd_test_begin(t, "Running TB Status: Fig 3.10 rows, increments, flush bit, exit report");
    struct hd_shieh_tb_status_state s;
    struct hd_shieh_tb_status_in in;
    struct hd_shieh_tb_status_out out;
    hd_shieh_tb_status_ref_reset(&s);
    const uint64_t rows[3][3] = {{486, 2000, 1}, {20, 2474, 0}, {574, 1862, 1}};
    const unsigned slot[3] = {0, 1, HD_SHIEH_TBS_SLOTS - 1};
    for (unsigned i = 0; i < 3; i++) {
        memset(&in, 0, sizeof in);
        in.alloc_v_i = 1;
        in.alloc_slot_i = slot[i];
        in.alloc_instr_i = rows[i][0];
        in.alloc_cycle_i = rows[i][1];
        in.alloc_flush_i = rows[i][2];
        hd_shieh_tb_status_ref_step(&s, &in, &out);
    }
    for (unsigned i = 0; i < 3; i++) {
        memset(&in, 0, sizeof in);
        in.rd_v_i = 1;
        in.rd_slot_i = slot[i];
        hd_shieh_tb_status_ref_step(&s, &in, &out);
        memset(&in, 0, sizeof in);
        hd_shieh_tb_status_ref_step(&s, &in, &out);
        HD_CHECK_U64(t, 1, out.rd_valid_o);
        HD_CHECK_U64(t, rows[i][0], out.rd_instr_o);
        HD_CHECK_U64(t, rows[i][1], out.rd_issue_o);
        HD_CHECK_U64(t, rows[i][2], out.rd_flush_o);
    }
    /* Two ports on slot 0 (+2), one non-idempotent. */
    memset(&in, 0, sizeof in);
    in.iss_v_i = HD_SHIEH_TBS_ISS >= 2 ? 3 : 1;
    in.iss_slot_i = 0;
    in.iss_nonidem_i = 1;
    in.rd_v_i = 1;
    hd_shieh_tb_status_ref_step(&s, &in, &out);
    memset(&in, 0, sizeof in);
    in.free_v_i = 1; /* slot 0 leaves */
    hd_shieh_tb_status_ref_step(&s, &in, &out);
    HD_CHECK_U64(t, 486 + (HD_SHIEH_TBS_ISS >= 2 ? 2 : 1), out.rd_instr_o);
    HD_CHECK_U64(t, 0, out.rd_flush_o);
    memset(&in, 0, sizeof in);
    hd_shieh_tb_status_ref_step(&s, &in, &out);
    HD_CHECK_U64(t, 1, out.fin_v_o);
    HD_CHECK_U64(t, 486 + (HD_SHIEH_TBS_ISS >= 2 ? 2 : 1), out.fin_instr_o);
    HD_CHECK_U64(t, 2000, out.fin_issue_o);
    HD_CHECK(t, hd_shieh_tb_status_ref_idle(&s, &in));
}

static void test_alloc_status(struct hd_test_state *t)
{
    hd_test_begin(t, "Allocation Status: Fig 3.6, a report of another kernel refused");
    struct hd_shieh_alloc_status_state s;
    struct hd_shieh_alloc_status_in in;
    struct hd_shieh_alloc_status_out out;
    hd_shieh_alloc_status_ref_reset(&s);
    memset(&in, 0, sizeof in);
    in.req_v_i = 1;
    in.req_pid_i = 1234;
    in.req_kid_i = 3;
    hd_shieh_alloc_status_ref_step(&s, &in, &out);
    const unsigned m = HD_SHIEH_AS_SMS - 1, n = HD_SHIEH_AS_POS - 1;
    const unsigned pos[3] = {0, 1, n};
    for (unsigned i = 0; i < 3; i++) {
        memset(&in, 0, sizeof in);
        in.disp_v_i = 1;
        in.disp_sm_i = m;
        in.disp_pos_i = pos[i];
        hd_shieh_alloc_status_ref_step(&s, &in, &out);
    }
    memset(&in, 0, sizeof in);
    in.fin_v_i = 1; /* position 1 finished */
    in.fin_sm_i = m;
    in.fin_pos_i = 1;
    in.fin_kid_i = 3;
    hd_shieh_alloc_status_ref_step(&s, &in, &out);
    memset(&in, 0, sizeof in);
    in.fin_v_i = 1; /* another kernel's report */
    in.fin_sm_i = m;
    in.fin_pos_i = 0;
    in.fin_kid_i = 4;
    in.rd_v_i = 1;
    in.rd_sm_i = m;
    hd_shieh_alloc_status_ref_step(&s, &in, &out);
    HD_CHECK_U64(t, 0, out.fin_bad_o);
    memset(&in, 0, sizeof in);
    hd_shieh_alloc_status_ref_step(&s, &in, &out);
    HD_CHECK_U64(t, 1, out.fin_bad_o);
    HD_CHECK_U64(t, 1, out.rd_v_o);
    HD_CHECK_U64(t, 1u | ((uint64_t)1 << n), out.rd_issued_o); /* True, False, ..., True */
    HD_CHECK_U64(t, (uint64_t)1 << m, out.rd_busy_sms_o);
    HD_CHECK_U64(t, 1234, out.rd_pid_o);
    HD_CHECK_U64(t, 3, out.rd_kid_o);
    HD_CHECK(t, hd_shieh_alloc_status_ref_idle(&s, &in));
}

int main(void)
{
    struct hd_test_state t = {0};
    test_victim_sets(&t);
    test_update_is_regeneration(&t);
    test_alloc_pos(&t);
    test_tb_status(&t);
    test_alloc_status(&t);
    return hd_test_finish(&t);
}
