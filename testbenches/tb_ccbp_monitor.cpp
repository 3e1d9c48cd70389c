// SPDX-License-Identifier: MIT
// tb_ccbp_monitor.cpp - SystemC testbench of ccbp_monitor (Verilator --sc): directed cases first
// (each measure and application counted alone and read back after a tick; application 0's
// instruction counter driven to saturation at the largest increment, read saturated; a read in
// the edge of a tick; reads of kinds 5 to 7); then seeded random increments (sparse and busy
// phases, the busy one near the 8-bit maximum), ticks every 1,000 cycles plus random ones,
// random reads, a reset mid-stream; every output compared with the C reference every cycle;
// every read checked against software counters kept with 64-bit sums (independent of the
// reference: the value is min(sum, 2^MW - 1) of the window the read sees); coverage bins of
// ccbp_monitor_cover.def.
extern "C" {
#include "ccbp_monitor.h"
}
#include "Vccbp_monitor.h"
#define HD_PORTS_DEF "ccbp_monitor_ports.def"
#define TB_TOP Vccbp_monitor
#define TB_IN struct hd_ccbp_monitor_in
#define TB_OUT struct hd_ccbp_monitor_out
#define TB_STATE struct hd_ccbp_monitor_state
#define TB_REF_RESET hd_ccbp_monitor_ref_reset
#define TB_REF_STEP hd_ccbp_monitor_ref_step
#define TB_BLOCK hd_ccbp_monitor_block
#define TB_REF_IDLE hd_ccbp_monitor_ref_idle
#include "tb_harness.h"

static const unsigned kA = CCBP_MONITOR_A, kNW = CCBP_MONITOR_NW, kK = 5;
static const uint64_t kMax = (1ull << CCBP_MONITOR_MW) - 1;

static TB_IN zero()
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    return in;
}

static uint64_t *kind(TB_IN &in, unsigned k)
{
    uint64_t *p[] = {&in.inc_iss_i, &in.inc_req_i, &in.inc_fq_i, &in.inc_fr_i, &in.inc_dram_i};
    return p[k];
}

static TB_IN rd(unsigned k, unsigned a)
{
    TB_IN in = zero();
    in.rd_v_i = 1;
    in.rd_kind_i = k;
    in.rd_app_i = a;
    return in;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    stim.push_back(zero()); // two idle cycles: the idle test must say idle at rest
    stim.push_back(zero());
    TB_IN in;
    for (unsigned k = 0; k < kK; k++) // each counter alone: k * A + a + 1 events, then read all
        for (unsigned a = 0; a < kA; a++) {
            in = zero();
            *kind(in, k) = hd_ccbp_monitor_field_set(0, a, kNW, k * kA + a + 1);
            stim.push_back(in);
        }
    in = zero();
    in.tick_i = 1;
    stim.push_back(in);
    for (unsigned k = 0; k < 8; k++) // kinds 5 to 7 read 0
        for (unsigned a = 0; a < kA; a++)
            stim.push_back(rd(k, a));
    const uint64_t fill = kMax / ((1u << kNW) - 1) + 2; // enough maximal increments to saturate
    for (uint64_t c = 0; c < fill; c++) {
        in = zero();
        in.inc_iss_i = hd_ccbp_monitor_field_set(0, 0, kNW, (1u << kNW) - 1);
        in.inc_req_i = 1;
        stim.push_back(in);
    }
    in = rd(0, 0); // the read in the tick's edge sees the new (saturated) snapshot
    in.tick_i = 1;
    in.inc_req_i = 3;
    stim.push_back(in);
    stim.push_back(rd(1, 0));
    std::vector<uint64_t> resets;
    while (stim.size() < o.cycles) {
        size_t c = stim.size();
        if (c == o.cycles / 2)
            resets.push_back(c);
        bool busy = (c / 700) % 2 == 0;
        TB_IN x = zero();
        for (unsigned k = 0; k < kK; k++)
            for (unsigned a = 0; a < kA; a++)
                if (r.below(busy ? 2 : 8) == 0)
                    *kind(x, k) = hd_ccbp_monitor_field_set(*kind(x, k), a, kNW,
                                                            busy ? r.below(1u << kNW) : r.below(4));
        x.tick_i = (c % 1000) == 999 || r.below(300) == 0;
        if (r.below(3) == 0) {
            x.rd_v_i = 1;
            x.rd_kind_i = r.below(16) == 0 ? 5 + r.below(3) : r.below(kK);
            x.rd_app_i = r.below(kA);
        }
        stim.push_back(x);
    }
    // Software counters, independent of the reference: 64-bit sums per window.
    uint64_t live[5][8] = {{0}}, snap[5][8] = {{0}};
    int64_t want = -1; // the previous cycle's read: -1 none, else the value it must return
    uint64_t reads = 0, wrong = 0, nonzero = 0;
    size_t cyc = 0;
    auto check = [&](const TB_IN &i, const TB_OUT &out) {
        if (!resets.empty() && cyc == resets[0]) {
            std::memset(live, 0, sizeof live);
            std::memset(snap, 0, sizeof snap);
            want = -1;
        }
        cyc++;
        if (want >= 0) {
            reads++;
            nonzero += out.rd_cnt_o != 0;
            if (!out.rd_v_o || out.rd_cnt_o != (uint64_t)want) {
                if (wrong++ < 10)
                    std::printf("tb_ccbp_monitor: cycle %zu: read %" PRIu64 ", software counters say %" PRId64 "\n",
                                cyc, (uint64_t)out.rd_cnt_o, want);
            }
        }
        TB_IN ii = i;
        for (unsigned k = 0; k < kK; k++)
            for (unsigned a = 0; a < kA; a++)
                live[k][a] += hd_ccbp_monitor_field(*kind(ii, k), a, kNW);
        if (i.tick_i) {
            std::memcpy(snap, live, sizeof snap);
            std::memset(live, 0, sizeof live);
        }
        want = -1;
        if (i.rd_v_i)
            want = i.rd_kind_i < kK
                       ? (int64_t)std::min(snap[i.rd_kind_i][i.rd_app_i], kMax) : 0;
    };
    int rc = tb::run("tb_ccbp_monitor", o, stim, check, resets);
    std::printf("tb_ccbp_monitor: %" PRIu64 " reads (%" PRIu64 " non-zero) checked against software counters, %" PRIu64 " wrong\n",
                reads, nonzero, wrong);
    for (unsigned a = 0; a < kA; a++) { // the packed-field helpers leave the neighbours alone
        uint64_t all = (1ull << (kA * kNW)) - 1, v = hd_ccbp_monitor_field_set(all, a, kNW, 0);
        if (v != (all & ~(((1ull << kNW) - 1) << (a * kNW))) || hd_ccbp_monitor_field(all, a, kNW) != (1u << kNW) - 1) {
            std::printf("tb_ccbp_monitor: field helpers wrong for field %u\n", a);
            rc = 1;
        }
    }
    return rc != 0 ? rc : wrong == 0 && nonzero > 1000 ? 0 : 1;
}
