// SPDX-License-Identifier: MIT
// tb_expars_rat.cpp - SystemC testbench of expars_rat (Verilator --sc): the digest's worked
// example of §2.4 (MQ: 28 registers, 8 warps per CTA, Start_CTA 4, Start_Reg 8, Max_Reg 27,
// SBR 28672 and 8192: warp 41 = CTA 5's warp 1, R10 at byte 11,008; its R5 and warp 20 of CTA 2
// in the register file), then seeded random plans, CTA placements and releases, warp slots and
// lookups (writes and lookups in one edge, out-of-range slots, lookups before a plan, resets
// every 2,500 cycles); every output compared with the C
// reference every cycle; coverage bins reported (all required).
extern "C" {
#include "expars_rat.h"
}
#include "Vexpars_rat.h"
#define HD_PORTS_DEF "expars_rat_ports.def"
#define TB_TOP Vexpars_rat
#define TB_IN struct hd_expars_rat_in
#define TB_OUT struct hd_expars_rat_out
#define TB_STATE struct hd_expars_rat_state
#define TB_REF_RESET hd_expars_rat_ref_reset
#define TB_REF_STEP hd_expars_rat_ref_step
#define TB_BLOCK hd_expars_rat_block
#define TB_REF_IDLE hd_expars_rat_ref_idle
#include "tb_harness.h"

static const unsigned kSlots = EXPARS_RAT_Slots, kWarps = EXPARS_RAT_Warps;
static const unsigned kSW = EXPARS_RAT_SW, kWW = EXPARS_RAT_WW, kRW = EXPARS_RAT_RW;
static const uint64_t kAMax = (1ull << EXPARS_RAT_AW) - 1;

static TB_IN zero()
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    return in;
}

static TB_IN lookup(unsigned warp, unsigned reg)
{
    TB_IN in = zero();
    in.q_v_i = 1;
    in.q_warp_i = warp;
    in.q_reg_i = reg;
    return in;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    stim.push_back(zero());
    stim.push_back(zero());
    // Before any plan: a mix CTA's warp is in the register file (the table is off after reset).
    {
        TB_IN in = zero();
        in.cta_v_i = 1;
        in.cta_slot_i = 1;
        in.cta_used_i = 1;
        in.cta_mix_i = 1;
        in.wrp_v_i = 1;
        in.wrp_warp_i = 2;
        in.wrp_cta_i = 1;
        in.wrp_local_i = 1;
        stim.push_back(in);
        stim.push_back(lookup(2, 0));
        stim.push_back(lookup(2, (1u << kRW) - 1));
    }
    // The worked example (digest §2.4), scaled to the configuration's slots and warps.
    const bool ex = kSlots >= 6 && kWarps >= 48 && kRW >= 5;
    if (ex) {
        TB_IN in = zero();
        in.cfg_v_i = 1;
        in.cfg_on_i = 1;
        in.cfg_start_cta_i = 4;
        in.cfg_start_reg_i = 8;
        in.cfg_max_reg_i = 27;
        stim.push_back(in);
        for (unsigned k = 0; k < 2; k++) {
            in = zero();
            in.sbr_v_i = 1;
            in.sbr_idx_i = k;
            in.sbr_i = k ? 8192 : 28672;
            stim.push_back(in);
        }
        for (unsigned c = 0; c < 6; c++) {
            in = zero();
            in.cta_v_i = 1;
            in.cta_slot_i = c;
            in.cta_used_i = 1;
            in.cta_mix_i = c >= 4;
            stim.push_back(in);
        }
        for (unsigned w = 0; w < 48; w++) {
            in = zero();
            in.wrp_v_i = 1;
            in.wrp_warp_i = w;
            in.wrp_cta_i = w / 8;
            in.wrp_local_i = w % 8;
            stim.push_back(in);
        }
        stim.push_back(lookup(41, 10));
        stim.push_back(lookup(41, 5));
        stim.push_back(lookup(20, 10));
    }
    // Mid-stream resets (every flop's reset value matters: after one, the slots and warps are
    // written again before the next plan, and looked up in between).
    std::vector<uint64_t> resets;
    while (stim.size() < o.cycles) {
        if (stim.size() % 2500 == 1000)
            resets.push_back(stim.size());
        TB_IN in = zero();
        const unsigned what = r.below(40);
        if (what == 0) { // a new plan
            in.cfg_v_i = 1;
            in.cfg_on_i = r.below(5) != 0;
            in.cfg_start_cta_i = r.below(kSlots);
            in.cfg_start_reg_i = r.below(1u << kRW);
            in.cfg_max_reg_i = r.below(4) ? in.cfg_start_reg_i + r.below(24) : r.below(1u << kRW);
            if (r.below(2)) {
                in.sbr_v_i = 1;
                in.sbr_idx_i = r.below(1u << kSW);
                in.sbr_i = r.next() & kAMax;
            }
        } else if (what < 4) {
            in.sbr_v_i = 1;
            in.sbr_idx_i = r.below(1u << kSW);
            in.sbr_i = r.next() & kAMax;
        } else if (what < 8) {
            in.cta_v_i = 1;
            in.cta_slot_i = r.below(1u << kSW);
            in.cta_used_i = r.below(4) != 0;
            in.cta_mix_i = r.below(2);
        } else if (what < 14) {
            in.wrp_v_i = 1;
            in.wrp_warp_i = r.below(1u << kWW);
            in.wrp_cta_i = r.below(1u << kSW);
            in.wrp_local_i = r.below(16);
        }
        if (r.below(3) != 0) {
            in.q_v_i = 1;
            in.q_warp_i = r.below(1u << kWW);
            in.q_reg_i = r.below(1u << kRW);
        }
        stim.push_back(in);
    }
    enum { EXAMPLE, SPM, RF, FAR, NBINS };
    static const char *const names[NBINS] = {"digest 2.4 example", "in the scratchpad",
                                             "in the register file", "address >= 4096"};
    uint64_t cov[NBINS] = {0};
    unsigned reads = 0, ex_ok = 0, reads_pre = 0;
    auto cover = [&](const TB_IN &, const TB_OUT &out) {
        if (!out.q_v_o)
            return;
        cov[out.q_spm_o ? SPM : RF]++;
        cov[FAR] += out.q_addr_o >= 4096;
        if (reads_pre < 2) { // (the two lookups before any plan)
            reads_pre++;
            return;
        }
        if (ex && reads < 3) {
            static const uint64_t want[3][2] = {{1, 11008}, {0, 0}, {0, 0}};
            ex_ok += out.q_spm_o == want[reads][0] && out.q_addr_o == want[reads][1];
            if (++reads == 3 && ex_ok == 3)
                cov[EXAMPLE]++;
        }
    };
    int rc = tb::run("tb_expars_rat", o, stim, cover, resets);
    unsigned hit = 0, need = 0;
    std::printf("coverage:\n");
    for (unsigned b = 0; b < NBINS; b++) {
        std::printf("  %-22s %8" PRIu64 "\n", names[b], cov[b]);
        if (b == EXAMPLE && !ex)
            continue;
        need++;
        hit += cov[b] != 0;
    }
    std::printf("tb_expars_rat: %u of %u bins covered (%u CTA slots, %u warps)\n", hit, need,
                kSlots, kWarps);
    return rc != 0 ? rc : hit == need ? 0 : 1;
}
