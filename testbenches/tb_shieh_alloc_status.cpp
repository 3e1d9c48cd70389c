// SPDX-License-Identifier: MIT
// tb_shieh_alloc_status.cpp - SystemC testbench of shieh_alloc_status (Verilator --sc): Fig 3.6
// (SM M: positions 0 and N issued, 1 finished), then seeded random requests (new process and
// kernel ids), dispatches to SMs and positions, finish reports (matching, of another kernel, of
// an entry not set, out of range), reads, resets mid-stream, and traffic before the first
// request after each reset (the ids and bits read as 0); every output compared with the C
// reference every cycle; coverage bins reported (all required).
extern "C" {
#include "shieh_alloc_status.h"
}
#include "Vshieh_alloc_status.h"
#define HD_PORTS_DEF "shieh_alloc_status_ports.def"
#define TB_TOP Vshieh_alloc_status
#define TB_IN struct hd_shieh_alloc_status_in
#define TB_OUT struct hd_shieh_alloc_status_out
#define TB_STATE struct hd_shieh_alloc_status_state
#define TB_REF_RESET hd_shieh_alloc_status_ref_reset
#define TB_REF_STEP hd_shieh_alloc_status_ref_step
#define TB_BLOCK hd_shieh_alloc_status_block
#define TB_REF_IDLE hd_shieh_alloc_status_ref_idle
#include "tb_harness.h"

static const unsigned kSms = HD_SHIEH_AS_SMS, kPos = HD_SHIEH_AS_POS;
static const unsigned kSmW = SHIEH_ALLOC_STATUS_SmW, kPosW = SHIEH_ALLOC_STATUS_PosW;

static TB_IN zero()
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    return in;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    std::vector<uint64_t> resets;
    uint64_t before_req = 0;
    // Before any request (after reset, and after each reset mid-stream): the table is empty and
    // the ids are 0: reads, a dispatch, a finish of kernel 0 (accepted), one of kernel 1 (refused).
    auto no_request = [&](void) {
        TB_IN x = zero();
        x.rd_v_i = 1;
        x.rd_sm_i = r.below(kSms);
        stim.push_back(x);
        x = zero();
        x.disp_v_i = 1;
        x.disp_sm_i = r.below(kSms);
        x.disp_pos_i = r.below(kPos);
        x.rd_v_i = 1;
        x.rd_sm_i = x.disp_sm_i;
        stim.push_back(x);
        const TB_IN d = x;
        x = zero();
        x.fin_v_i = 1;
        x.fin_sm_i = d.disp_sm_i;
        x.fin_pos_i = d.disp_pos_i;
        x.fin_kid_i = r.below(2);
        x.rd_v_i = 1;
        x.rd_sm_i = r.below(kSms);
        stim.push_back(x);
        stim.push_back(zero());
        before_req += 4;
    };
    no_request();
    // Fig 3.6 on SM kSms-1: positions 0, 1 and N = kPos-1 dispatched, position 1 finishes.
    TB_IN in = zero();
    in.req_v_i = 1;
    in.req_pid_i = 4242;
    in.req_kid_i = 7;
    stim.push_back(in);
    for (unsigned p : {0u, 1u, kPos - 1}) {
        in = zero();
        in.disp_v_i = 1;
        in.disp_sm_i = kSms - 1;
        in.disp_pos_i = p;
        stim.push_back(in);
    }
    in = zero();
    in.fin_v_i = 1;
    in.fin_sm_i = kSms - 1;
    in.fin_pos_i = 1;
    in.fin_kid_i = 7;
    in.rd_v_i = 1;
    in.rd_sm_i = kSms - 1;
    const size_t fig_read = stim.size();
    stim.push_back(in);
    unsigned kid = 7;
    size_t next_reset = 1000;
    while (stim.size() < o.cycles) {
        if (stim.size() >= next_reset) { // a reset mid-stream: back to an empty table, ids 0
            next_reset = stim.size() + 1000 + r.below(3000);
            resets.push_back(stim.size());
            kid = 0;
            no_request();
        }
        in = zero();
        unsigned what = r.below(40);
        if (what == 0) {
            in.req_v_i = 1;
            in.req_pid_i = r.next() & 0x7fff;
            kid = r.next() & 0x1f;
            in.req_kid_i = kid;
        }
        if (r.below(3) == 0) {
            in.disp_v_i = 1;
            in.disp_sm_i = r.below(1u << kSmW);
            in.disp_pos_i = r.below(1u << kPosW);
        }
        if (r.below(3) == 0) {
            in.fin_v_i = 1;
            in.fin_sm_i = r.below(8) ? r.below(kSms) : r.below(1u << kSmW);
            in.fin_pos_i = r.below(1u << kPosW);
            in.fin_kid_i = r.below(10) ? kid : r.next() & 0x1f;
        }
        if (r.below(3) == 0) {
            in.rd_v_i = 1;
            in.rd_sm_i = r.below(1u << kSmW);
        }
        stim.push_back(in);
    }
    enum { FIG36, FIN_OK, FIN_BAD, RD_SOME, RD_NONE, ALL_SAME_CYCLE, NBINS };
    static const char *const names[NBINS] = {"Fig 3.6 row", "finish cleared", "finish refused",
                                             "read SM with TBs", "read SM without", "dispatch+finish one cycle"};
    uint64_t cov[NBINS] = {0};
    uint64_t cyc = 0;
    auto cover = [&](const TB_IN &i, const TB_OUT &out) {
        const bool fig = cyc++ == fig_read + 1; // the Fig 3.6 read's result
        if (i.disp_v_i && i.fin_v_i)
            cov[ALL_SAME_CYCLE]++;
        if (out.fin_bad_o)
            cov[FIN_BAD]++;
        if (!out.rd_v_o)
            return;
        cov[out.rd_issued_o ? RD_SOME : RD_NONE]++;
        if (fig) { // Fig 3.6: positions 0 and N issued, 1 finished
            uint64_t want = 1ull | (1ull << (kPos - 1));
            if (out.rd_issued_o == want && out.rd_pid_o == 4242 && out.rd_kid_o == 7 &&
                out.rd_busy_sms_o == (1ull << (kSms - 1)) && !out.fin_bad_o) {
                cov[FIG36]++;
                cov[FIN_OK]++;
            }
        }
    };
    int rc = tb::run("tb_shieh_alloc_status", o, stim, cover, resets);
    unsigned hit = 0;
    std::printf("coverage:\n");
    for (unsigned b = 0; b < NBINS; b++) {
        std::printf("  %-26s %8" PRIu64 "\n", names[b], cov[b]);
        hit += cov[b] != 0;
    }
    std::printf("tb_shieh_alloc_status: %u of %u bins covered (%u SMs x %u positions), %zu resets"
                " mid-stream, %" PRIu64 " cycles before a request\n", hit, NBINS, kSms, kPos,
                resets.size(), before_req);
    return rc != 0 ? rc : hit == NBINS && (!resets.empty() || o.cycles < 2000) ? 0 : 1;
}
