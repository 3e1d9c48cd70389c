// SPDX-License-Identifier: MIT
// tb_shieh_alloc_pos.cpp - SystemC testbench of shieh_alloc_pos (Verilator --sc): Fig 3.7 (the
// synthetic preempting kernel, 4096 registers and 2048 B per TB, on a 64K-register / 48 KB SM
// and on the Fermi 32K-register SM), then seeded random footprints and capacities (either
// resource limiting, zero sizes, more positions than entries, none at all), requests that
// restart a fill, reads during and after fills, capacities at a multiple of a size (and one
// below/above), unit and all-ones sizes, full tables with the top address bit set, resets
// mid-stream (also mid-fill) followed by reads before any request; every output compared with
// the C reference every cycle, the reference's idle test checked every cycle (tb_harness.h);
// coverage bins reported (all required).
extern "C" {
#include "shieh_alloc_pos.h"
}
#include "Vshieh_alloc_pos.h"
#define HD_PORTS_DEF "shieh_alloc_pos_ports.def"
#define TB_TOP Vshieh_alloc_pos
#define TB_IN struct hd_shieh_alloc_pos_in
#define TB_OUT struct hd_shieh_alloc_pos_out
#define TB_STATE struct hd_shieh_alloc_pos_state
#define TB_REF_RESET hd_shieh_alloc_pos_ref_reset
#define TB_REF_STEP hd_shieh_alloc_pos_ref_step
#define TB_BLOCK hd_shieh_alloc_pos_block
#define TB_REF_IDLE hd_shieh_alloc_pos_ref_idle
#include "tb_harness.h"

static const unsigned kPos = HD_SHIEH_POS_MAX, kW = SHIEH_ALLOC_POS_PosW;
static const uint32_t kCap = 1u << SHIEH_ALLOC_POS_AddrW;

static TB_IN zero()
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    return in;
}

static TB_IN init(uint32_t r, uint32_t s, uint32_t rf, uint32_t sm)
{
    TB_IN in = zero();
    in.init_v_i = 1;
    in.r_per_tb_i = r;
    in.s_per_tb_i = s;
    in.rf_cap_i = rf;
    in.smem_cap_i = sm;
    return in;
}

static void fill_and_read(std::vector<TB_IN> &stim, const TB_IN &i, unsigned reads)
{
    stim.push_back(i);
    for (unsigned c = 0; c < kPos + 2; c++)
        stim.push_back(zero());
    for (unsigned p = 0; p < reads; p++) {
        TB_IN in = zero();
        in.rd_v_i = 1;
        in.rd_idx_i = p;
        stim.push_back(in);
    }
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    std::vector<uint64_t> resets;
    // After reset and before any request: nothing filled, reads are refused, no done_o.
    auto no_request = [&](unsigned n) {
        for (unsigned c = 0; c < n; c++) {
            TB_IN in = zero();
            in.rd_v_i = r.below(2);
            in.rd_idx_i = r.below(1u << kW);
            stim.push_back(in);
        }
        stim.push_back(zero());
    };
    no_request(4);
    fill_and_read(stim, init(4096, 2048, std::min(65536u, kCap), 49152), 17); // Fig 3.7
    fill_and_read(stim, init(4096, 2048, 32768, 49152), 9);                     // Fermi
    // Footprints at the edges: the all-ones size of one resource (never fits) beside a small
    // one of the other; full tables whose last entries have the top address bit set.
    const uint32_t ones = 2 * kCap - 1;
    fill_and_read(stim, init(ones, 64, kCap, kCap), kPos);
    fill_and_read(stim, init(64, ones, kCap, kCap), kPos);
    fill_and_read(stim, init(kCap / kPos, kCap / kPos, kCap, kCap), kPos);
    fill_and_read(stim, init(kCap / kPos - 1, 0, kCap, kCap), kPos);
    fill_and_read(stim, init(0, kCap / kPos - 1, kCap, kCap), kPos);
    // Unit sizes: the capacity alone bounds K (1 register per TB, 20 registers per SM).
    fill_and_read(stim, init(1, 0, 20, kCap), 21);
    fill_and_read(stim, init(0, 1, kCap, 20), 21);
    fill_and_read(stim, init(1, 1, 30, 40), 31);
    // Odd and even capacities at a multiple of the size and one below (bit 0 of the capacity).
    fill_and_read(stim, init(3, 0, 9, kCap), 4);
    fill_and_read(stim, init(3, 0, 8, kCap), 4);
    fill_and_read(stim, init(0, 3, kCap, 9), 4);
    fill_and_read(stim, init(0, 3, kCap, 8), 4);
    size_t next_reset = stim.size() + 500;
    while (stim.size() < o.cycles) {
        if (stim.size() >= next_reset) { // a reset mid-stream (mid-fill or not)
            next_reset = stim.size() + 500 + r.below(2000);
            resets.push_back(stim.size());
            no_request(r.below(4));
        }
        if (r.below(4) == 0) { // a capacity at a multiple of a size, one below or one above
            uint32_t rp = 1 + r.below(r.below(2) ? 64 : kCap / 4), k = 1 + r.below(kPos);
            uint32_t sp = 1 + r.below(r.below(2) ? 64 : kCap / 4), j = 1 + r.below(kPos);
            uint32_t rf = std::min<uint32_t>(kCap, rp * k + r.below(3) - 1);
            uint32_t sm = std::min<uint32_t>(kCap, sp * j + r.below(3) - 1);
            if (r.below(4) == 0)
                (r.below(2) ? rp : sp) = 0;
            fill_and_read(stim, init(rp, sp, rf, sm), r.below(2) ? kPos : 2);
            continue;
        }
        uint32_t rf = 1 + r.below(kCap), sm = r.below(kCap + 1);
        uint32_t rp = r.below(8) == 0 ? 0 : 1 + r.below(r.below(2) ? rf / 4 + 1 : 2 * kCap - 1);
        uint32_t sp = r.below(4) == 0 ? 0 : 1 + r.below(r.below(2) ? sm / 4 + 1 : 2 * kCap - 1);
        stim.push_back(init(rp, sp, rf, sm));
        unsigned run = r.below(8) == 0 ? r.below(6) : kPos + 2 + r.below(4);
        for (unsigned c = 0; c < run; c++) { // reads while filling, or a restart
            TB_IN in = zero();
            if (r.below(3) == 0) {
                in.rd_v_i = 1;
                in.rd_idx_i = r.below(1u << kW);
            }
            stim.push_back(in);
        }
    }
    enum { FIG37, K0, KMAX, KMID, RESTART, RD_OK, RD_OUT, NBINS };
    static const char *const names[NBINS] = {"Fig 3.7 bases", "no position", "table full",
                                             "capacity-limited", "fill restarted", "read in range",
                                             "read past K"};
    uint64_t cov[NBINS] = {0};
    unsigned fig_reads = 0, fig_ok = 0;
    bool busy = false, seen_init = false;
    uint64_t cyc = 0;
    size_t ri = 0;
    auto cover = [&](const TB_IN &i, const TB_OUT &out) {
        if (ri < resets.size() && resets[ri] == cyc)
            ri++, busy = false;
        cyc++;
        seen_init |= i.init_v_i != 0;
        if (i.init_v_i && busy)
            cov[RESTART]++;
        if (i.init_v_i)
            busy = true;
        if (out.done_o) {
            busy = false;
            cov[out.k_o == 0 ? K0 : out.k_o == kPos ? KMAX : KMID]++;
        }
        if (!out.rd_v_o)
            return;
        cov[out.rd_ok_o ? RD_OK : RD_OUT]++;
        // the first fill: p*4096, p*2048 for p < 16 (K = 16 when it fits)
        if (seen_init && fig_reads < 17) {
            unsigned p = fig_reads++;
            bool want_ok = p < std::min(16u, kPos) && kCap >= 65536;
            fig_ok += out.rd_ok_o == want_ok &&
                      (!want_ok || (out.rd_reg_o == p * 4096u && out.rd_smem_o == p * 2048u));
            if (fig_reads == 17 && fig_ok == 17)
                cov[FIG37]++;
        }
    };
    int rc = tb::run("tb_shieh_alloc_pos", o, stim, cover, resets);
    unsigned hit = 0;
    std::printf("coverage:\n");
    for (unsigned b = 0; b < NBINS; b++) {
        std::printf("  %-18s %8" PRIu64 "\n", names[b], cov[b]);
        hit += cov[b] != 0;
    }
    std::printf("tb_shieh_alloc_pos: %u of %u bins covered (%u entries), %zu resets mid-stream\n",
                hit, NBINS, kPos, resets.size());
    return rc != 0 ? rc : hit == NBINS ? 0 : 1;
}
