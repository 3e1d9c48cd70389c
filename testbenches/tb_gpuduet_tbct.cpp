// SPDX-License-Identifier: MIT
// tb_gpuduet_tbct.cpp - SystemC testbench of gpuduet_tbct (Verilator --sc): a shared-memory-
// limited TB's TB-level switch (launched whole, its shared memory and 8 warps switched out to the
// register file, back into shared memory, then one warp out and in at warp level, finished)
// checked against the expected fields and vectors, then seeded random traffic on every write
// port (TB ids drawn mostly from a few so that writers collide, addresses at and around the
// shared-memory region's bounds, the table filled and drained) with reads; every output compared
// with the C reference every cycle, a reset mid-stream; coverage bins of gpuduet_tbct_cover.def.
extern "C" {
#include "gpuduet_tbct.h"
}
#include "Vgpuduet_tbct.h"
#define HD_PORTS_DEF "gpuduet_tbct_ports.def"
#define TB_TOP Vgpuduet_tbct
#define TB_IN struct hd_gpuduet_tbct_in
#define TB_OUT struct hd_gpuduet_tbct_out
#define TB_STATE struct hd_gpuduet_tbct_state
#define TB_REF_RESET hd_gpuduet_tbct_ref_reset
#define TB_REF_STEP hd_gpuduet_tbct_ref_step
#define TB_BLOCK hd_gpuduet_tbct_block
#define TB_REF_IDLE hd_gpuduet_tbct_ref_idle
#include "tb_harness.h"

static const unsigned kN = HD_TBCT_N, kW = HD_TBCT_NWT, kA = 1u << GPUDUET_TBCT_AW;
static const unsigned kLo = GPUDUET_TBCT_SmemLo, kHi = GPUDUET_TBCT_SmemHi;

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
    stim.push_back(zero()); // two idle cycles: the idle test must say idle at rest
    stim.push_back(zero());
    // TB 3's TB-level switch: {in, valid, Absmask, Smemaddr, smem present, whole}, each + a read.
    struct Step { TB_IN in; unsigned valid; uint64_t abs; unsigned smem, present, whole; };
    std::vector<Step> life;
    TB_IN in = zero();
    in.ld_v_i = 1, in.ld_tb_i = 3, in.ld_abs_i = 0, in.ld_smem_i = 0x900;
    life.push_back({in, 1, 0, 0x900, 1, 1});
    in = zero(), in.tm_v_i = 1, in.tm_tb_i = 3, in.tm_abs_i = 0xff, in.tm_smem_i = 0x100;
    life.push_back({in, 1, 0xff, 0x100, 0, 0});
    in = zero(), in.tm_v_i = 1, in.tm_tb_i = 3, in.tm_abs_i = 0, in.tm_smem_i = kHi - 1;
    life.push_back({in, 1, 0, kHi - 1, 1, 1});
    in = zero(), in.wm_v_i = 1, in.wm_tb_i = 3, in.wm_warp_i = 2, in.wm_abs_i = 1;
    life.push_back({in, 1, 0x4, kHi - 1, 1, 0});
    in = zero(), in.wm_v_i = 1, in.wm_tb_i = 3, in.wm_warp_i = 2, in.wm_abs_i = 0;
    life.push_back({in, 1, 0, kHi - 1, 1, 1});
    in = zero(), in.fin_v_i = 1, in.fin_tb_i = 3;
    life.push_back({in, 0, 0, 0, 0, 0});
    const size_t life0 = stim.size();
    for (const Step &s : life) {
        stim.push_back(s.in);
        TB_IN x = zero();
        x.rd_v_i = 1, x.rd_tb_i = 3;
        stim.push_back(x);
    }
    std::vector<uint64_t> resets;
    while (stim.size() < o.cycles) {
        size_t c = stim.size();
        unsigned phase = (c / 1000) % 3; // fill, mixed, drain
        if (c == o.cycles / 2)
            resets.push_back(c);
        auto tb = [&]() -> unsigned { return r.below(2) ? r.below(4) : r.below(kN); };
        auto addr = [&]() -> unsigned {
            unsigned k = r.below(8);
            return k == 0 ? kLo - 1 : k == 1 ? kLo : k == 2 ? kHi - 1 : k == 3 ? kHi
                 : k < 6 ? kLo + r.below(kHi - kLo) : r.below(kA);
        };
        auto mask = [&]() -> uint64_t {
            unsigned k = r.below(4);
            uint64_t m = ((uint64_t)r.next() << 32 | r.next()) & (kW == 64 ? ~0ull : (1ull << kW) - 1);
            return k == 0 ? 0 : k == 1 ? (1ull << r.below(kW)) : m;
        };
        TB_IN x = zero();
        if (r.below(8) < (phase == 2 ? 6u : phase == 0 ? 0u : 2u))
            x.fin_v_i = 1, x.fin_tb_i = phase == 2 ? r.below(kN) : tb();
        if (r.below(8) < (phase == 0 ? 6u : 2u))
            x.ld_v_i = 1, x.ld_tb_i = phase == 0 ? r.below(kN) : tb(), x.ld_abs_i = mask(), x.ld_smem_i = addr();
        if (r.below(3) == 0)
            x.tm_v_i = 1, x.tm_tb_i = tb(), x.tm_abs_i = mask(), x.tm_smem_i = addr();
        if (r.below(2) == 0)
            x.wm_v_i = 1, x.wm_tb_i = tb(), x.wm_warp_i = r.below(2) ? r.below(4) : r.below(1u << GPUDUET_TBCT_WTW),
            x.wm_abs_i = r.below(2);
        if (r.below(2) == 0)
            x.rd_v_i = 1, x.rd_tb_i = tb();
        stim.push_back(x);
    }
    unsigned life_ok = 0;
    size_t cyc = 0;
    auto check = [&](const TB_IN &, const TB_OUT &out) {
        if (cyc >= life0 + 2 && cyc < life0 + 2 + 2 * life.size() && (cyc - life0) % 2 == 0) {
            size_t k = (cyc - life0 - 2) / 2;
            const Step &s = life[k];
            bool ok = out.rd_v_o && out.rd_valid_o == s.valid && out.rd_abs_o == s.abs &&
                      out.rd_smem_o == s.smem && ((out.rd_smemp_o >> 3) & 1u) == s.present &&
                      ((out.rd_whole_o >> 3) & 1u) == s.whole && ((out.rd_valids_o >> 3) & 1u) == s.valid;
            life_ok += ok;
            if (!ok)
                std::printf("tb_gpuduet_tbct: TB switch step %zu wrong: valid %" PRIu64 " abs 0x%" PRIx64
                            " smem 0x%" PRIx64 "\n", k, out.rd_valid_o, out.rd_abs_o, out.rd_smem_o);
        }
        cyc++;
    };
    int rc = tb::run("tb_gpuduet_tbct", o, stim, check, resets);
    std::printf("tb_gpuduet_tbct: TB-level switch %u of %zu steps as expected (%u TBs, %u warps each)\n",
                life_ok, life.size(), kN, kW);
    if (hd_gpuduet_tbct_smem_present(kLo - 1) || !hd_gpuduet_tbct_smem_present(kLo) ||
        !hd_gpuduet_tbct_smem_present(kHi - 1) || hd_gpuduet_tbct_smem_present(kHi)) {
        std::printf("tb_gpuduet_tbct: smem_present() bounds wrong\n");
        rc = 1;
    }
    return rc != 0 ? rc : life_ok == life.size() ? 0 : 1;
}
