// SPDX-License-Identifier: MIT
// tb_zorua_phase.cpp - SystemC testbench of zorua_phase (Verilator --sc), Zorua's phase-specifier
// decoder: the phases of §2.9 by hand (NQU's scratchpad 0 B -> 4224 B -> 384 B: 0, 5 and 1 sets;
// DCT's registers doubling in its middle phases: 20 -> 40 -> 20 registers, 5, 10, 5 sets; a fence
// repeating the current phase; a barrier and an exit; specifiers past the tables refused), then
// seeded random instruction streams with block arrivals (some of a warp that also issues in that
// cycle) and a reset mid-stream; the fields of an invalid instruction or arrival carry noise (from
// a second generator, so the valid stream is the one it always was), which the block must ignore.
// Every output compared with the C reference every cycle; coverage bins (all required).
// Any configuration (session 20: tb_zorua_phase_kepler, _maxwell: 96 logical warps, a 96-bit
// arrival mask; Maxwell's 64 scratchpad sets): sizes from the configuration's macros; where the
// configuration has more than 64 warps or warp indices past its warps, testbench bins require
// events of the warps above 63, an arrival's phase of one of them, and ignored instructions.
// The reference's run-time configuration (hd_zorua_phase_ref_init): the built one is taken, one
// past the maxima refused with its message (session 20).
extern "C" {
#include "zorua_phase.h"
}
#include "Vzorua_phase.h"
#define HD_PORTS_DEF "zorua_phase_ports.def"
#define TB_TOP Vzorua_phase
#define TB_IN struct hd_zorua_phase_in
#define TB_OUT struct hd_zorua_phase_out
#define TB_STATE struct hd_zorua_phase_state
#define TB_REF_RESET hd_zorua_phase_ref_reset
#define TB_REF_STEP hd_zorua_phase_ref_step
#define TB_BLOCK hd_zorua_phase_block
#define TB_REF_IDLE hd_zorua_phase_ref_idle
#include "tb_harness.h"

static const unsigned kWarps = ZORUA_PHASE_Warps, kWIdx = 1u << ZORUA_PHASE_WW;

static void mask_set(TB_IN &in, unsigned w) { in.init_mask_i[w / 32] |= 1u << (w % 32); }

static TB_IN inst(unsigned cls, unsigned warp, unsigned regs, unsigned smem)
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    in.v_i = 1;
    in.cls_i = cls;
    in.warp_i = warp;
    in.regs_i = regs;
    in.smem_i = smem;
    return in;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    // hd_zorua_phase_ref_init: the built configuration taken (0), 129 warps refused (-1 and the
    // message; no write without a buffer)
    TB_STATE cs;
    char cmsg[96] = "";
    const struct hd_zorua_phase_cfg built = HD_ZPH_CFG(ZORUA_PHASE_);
    struct hd_zorua_phase_cfg past = built;
    past.warps = HD_ZPH_WARPS_MAX + 1;
    past.ww = 8;
    const bool cfg_ok = hd_zorua_phase_ref_init(&cs, &built, cmsg, sizeof cmsg) == 0 &&
                        hd_zorua_phase_ref_init(&cs, &past, nullptr, sizeof cmsg) == -1 &&
                        hd_zorua_phase_ref_init(&cs, &past, cmsg, sizeof cmsg) == -1 &&
                        std::strstr(cmsg, "zorua_phase: configuration refused: 1..128") != nullptr;
    std::printf("tb_zorua_phase: run-time configurations %s\n", cfg_ok ? "as specified" : "WRONG");
    tb::Rng r{o.seed};
    tb::Rng noise{o.seed * 7919u + 13u}; // the don't-care fields of invalid inputs
    std::vector<TB_IN> stim;
    std::vector<uint64_t> resets;
    TB_IN rest;
    std::memset(&rest, 0, sizeof rest);
    stim.push_back(rest);
    stim.push_back(rest);
    // Directed, one instruction every other cycle; expected results below (kind, rsets, ssets, err).
    TB_IN a = rest; // warps 0-3 arrive with 8 register sets and no scratchpad
    a.init_v_i = 1;
    a.init_mask_i[0] = 0xf;
    a.init_rsets_i = 8;
    stim.push_back(a);
    const TB_IN dir[] = {
        inst(HD_ZPH_FENCE, 2, 0, 0),       // the arrival's phase: 8, 0
        inst(HD_ZPH_PHASE, 1, 16, 0),      // NQU phase 1: no scratchpad
        inst(HD_ZPH_PHASE, 1, 24, 4224),   // NQU phase 2: 4224 B = 5 sets (6 register sets)
        inst(HD_ZPH_PHASE, 1, 12, 384),    // NQU phase 3: 384 B = 1 set (3 register sets)
        inst(HD_ZPH_PHASE, 0, 20, 2048),   // DCT phase 1: 5 sets
        inst(HD_ZPH_PHASE, 0, 40, 2048),   // DCT phases 2-3: twice the registers, 10 sets
        inst(HD_ZPH_FENCE, 0, 0, 0),       // a fence: 10, 2 again
        inst(HD_ZPH_PHASE, 0, 20, 2048),   // DCT phase 4: 5 sets
        inst(HD_ZPH_PHASE, 0, 65, 0),      // 65 registers: past the 16 sets, refused
        inst(HD_ZPH_PHASE, 0, 4, ZORUA_PHASE_SmemSets * 1024 + 1), // past 48 KB (64), refused
        inst(HD_ZPH_FENCE, 0, 0, 0),       // the phase is still DCT's 4th: 5, 2
        inst(HD_ZPH_BARRIER, 3, 0, 0),
        inst(HD_ZPH_EXIT, 3, 0, 0),
        inst(HD_ZPH_FENCE, 3, 0, 0),       // after the exit: 0, 0
    };
    static const int want[][4] = {{0, 8, 0, 0},  {0, 4, 0, 0},  {0, 6, 5, 0},  {0, 3, 1, 0},
                                  {0, 5, 2, 0},  {0, 10, 2, 0}, {0, 10, 2, 0}, {0, 5, 2, 0},
                                  {-1, 0, 0, 1}, {-1, 0, 0, 1}, {0, 5, 2, 0},  {1, 0, 0, 0},
                                  {2, 0, 0, 0},  {0, 0, 0, 0}};
    const size_t d0 = stim.size();
    for (const TB_IN &i : dir) {
        stim.push_back(i);
        stim.push_back(rest);
    }
    if (kWarps > 64) { // the top warps arrive, then a fence of the last (its arrival's phase)
        TB_IN hi = rest;
        hi.init_v_i = 1;
        for (unsigned w = 64; w < kWarps; w++)
            mask_set(hi, w);
        hi.init_rsets_i = 7;
        hi.init_ssets_i = 3;
        stim.push_back(hi);
        stim.push_back(inst(HD_ZPH_FENCE, kWarps - 1, 0, 0));
        stim.push_back(rest);
    }
    while (stim.size() < o.cycles) {
        if (resets.empty() && stim.size() >= o.cycles / 2 && o.cycles > 4000)
            resets.push_back(stim.size());
        TB_IN in = rest;
        if (r.below(4) != 0) {
            unsigned k = r.below(16);
            unsigned cls = k < 6 ? HD_ZPH_PHASE : k < 8 ? HD_ZPH_BARRIER : k < 10 ? HD_ZPH_FENCE
                           : k < 12 ? HD_ZPH_EXIT : k < 14 ? HD_ZPH_OTHER : 5 + r.below(3);
            unsigned regs = r.below(8) == 0 ? r.below(256) : r.below(65);
            unsigned smem = r.below(8) == 0 ? r.below(1u << ZORUA_PHASE_SmW)
                                            : r.below(ZORUA_PHASE_SmemSets * 1024 + 1);
            in = inst(cls, r.below(kWIdx), regs, smem);
        }
        if (r.below(20) == 0) {
            in.init_v_i = 1;
            const uint64_t m = ((uint64_t)r.next() << 32 | r.next()) & ((uint64_t)r.next() << 32 | r.next());
            in.init_mask_i[0] = (uint32_t)m;
            in.init_mask_i[1] = (uint32_t)(m >> 32);
            for (unsigned i = 2; i < (kWarps + 31) / 32; i++)
                in.init_mask_i[i] = r.next() & r.next();
            in.init_rsets_i = r.below(ZORUA_PHASE_RegSets + 1);
            in.init_ssets_i = r.below(ZORUA_PHASE_SmemSets + 1);
            if (in.v_i && r.below(2) && in.warp_i < kWarps)
                mask_set(in, (unsigned)in.warp_i);
        }
        if (!in.v_i && noise.below(2)) { // an invalid instruction's fields: ignored
            in.cls_i = noise.below(8);
            in.warp_i = noise.below(kWIdx);
            in.regs_i = noise.below(256);
            in.smem_i = noise.below(1u << ZORUA_PHASE_SmW);
        }
        if (!in.init_v_i && noise.below(2)) { // an invalid arrival's fields: ignored
            const uint64_t m = (uint64_t)noise.next() << 32 | noise.next();
            in.init_mask_i[0] = (uint32_t)m;
            in.init_mask_i[1] = (uint32_t)(m >> 32);
            for (unsigned i = 2; i < (kWarps + 31) / 32; i++)
                in.init_mask_i[i] = noise.next();
            in.init_rsets_i = noise.below(ZORUA_PHASE_RegSets + 1);
            in.init_ssets_i = noise.below(ZORUA_PHASE_SmemSets + 1);
        }
        stim.push_back(in);
    }
    uint64_t cyc = 0, ok = 0, bad = 0, hi_ev = 0, hi_fence = 0, ignored = 0;
    const size_t nd = sizeof dir / sizeof dir[0];
    auto cover = [&](const TB_IN &in, const TB_OUT &out) {
        hi_ev += out.ev_v_o && out.ev_warp_o >= 64;
        if (kWarps > 64 && cyc == d0 + 2 * nd + 2) // the fence after the top warps' arrival
            hi_fence += out.ev_v_o && out.ev_kind_o == 0 && out.ev_warp_o == kWarps - 1 &&
                        out.ev_rsets_o == 7 && out.ev_ssets_o == 3;
        ignored += in.v_i && in.warp_i >= kWarps && in.cls_i >= HD_ZPH_PHASE &&
                   in.cls_i <= HD_ZPH_EXIT;
        if (cyc > d0 && (cyc - d0 - 1) % 2 == 0 && (cyc - d0 - 1) / 2 < nd) {
            const int *w = want[(cyc - d0 - 1) / 2];
            bool good = w[3] ? (out.err_o && !out.ev_v_o)
                             : (out.ev_v_o && (int)out.ev_kind_o == w[0] &&
                                (int)out.ev_rsets_o == w[1] && (int)out.ev_ssets_o == w[2]);
            if (good)
                ok++;
            else if (bad++ < 5)
                std::printf("tb_zorua_phase: directed step %" PRIu64 " wrong\n", (cyc - d0 - 1) / 2);
        }
        cyc++;
    };
    int rc = tb::run("tb_zorua_phase", o, stim, cover, resets);
    std::printf("tb_zorua_phase: directed phases %" PRIu64 " of %zu as worked by hand\n", ok, nd);
    unsigned tbins = 0, thit = 0; // the configuration's own bins (none on Fermi's 64 of 64)
    if (kWarps > 64) {
        tbins += 2;
        thit += (hi_ev > 0) + (hi_fence == 1);
        std::printf("tb_zorua_phase: %u warps: %" PRIu64 " events of warps above 63, the top "
                    "warps' arrival phase %s\n", kWarps, hi_ev, hi_fence == 1 ? "seen" : "MISSED");
    }
    if (kWIdx > kWarps) {
        tbins += 1;
        thit += ignored > 0;
        std::printf("tb_zorua_phase: %" PRIu64 " boundary instructions of warps %u..%u ignored\n",
                    ignored, kWarps, kWIdx - 1);
    }
    if (tbins)
        std::printf("tb_zorua_phase: testbench bins %u/%u\n", thit, tbins);
    return rc != 0 ? rc : ok == nd && thit == tbins && cfg_ok ? 0 : 1;
}
