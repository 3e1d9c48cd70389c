// SPDX-License-Identifier: MIT
// tb_regpat_comp.cpp - SystemC testbench of regpat_comp (Verilator --sc): directed, seeded
// random and replay stimulus (back to back and with idle gaps), every output compared against
// the C reference every cycle, coverage of pattern x PAG reported (all bins required); the
// reference's idle test (TB_REF_IDLE: idle cycles at rest first) and its helpers (the PAG for a
// CTA shape, the pattern names) are checked too (mutation testing of the C reference,
// docs/verification.md).
extern "C" {
#include "regpat_comp.h"
}
#include "Vregpat_comp.h"
#define HD_PORTS_DEF "regpat_comp_ports.def"
#define TB_TOP Vregpat_comp
#define TB_IN struct hd_regpat_comp_in
#define TB_OUT struct hd_regpat_comp_out
#define TB_STATE struct hd_regpat_comp_state
#define TB_REF_RESET hd_regpat_comp_ref_reset
#define TB_REF_STEP hd_regpat_comp_ref_step
#define TB_REF_IDLE hd_regpat_comp_ref_idle
#define TB_BLOCK hd_regpat_comp_block
#include "tb_harness.h"
#include "tb_stim.h"
#ifdef TB_API_BENCH // tb_regpat_comp_bench: also the C++ API model (cosim/vl glue)
extern "C" const struct hd_cosim_rtl_ops hd_cosim_rtl_regpat_comp;
#endif

static TB_IN to_in(const tb::Vec &v)
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    in.valid_i = 1;
    in.live_i = v.live;
    in.pag_i = v.pag;
    std::memcpy(in.data_i, v.lane, sizeof in.data_i);
    return in;
}

// The reference's helpers against their contracts (regpat_comp.h); returns the errors.
static unsigned check_helpers(void)
{
    unsigned bad = 0;
    // PAG of a CTA: the largest power of two dividing blockDim.x (every one divides 0), clamped
    // to 8..32; blockDim.y and .z do not matter.
    static const uint32_t xs[] = {0x80000000u, 0xffffffe0u, 0xfffffff0u, 0xfffffff8u, 0xffffffffu};
    for (uint32_t i = 0; i < 1100 + sizeof xs / sizeof xs[0]; i++) {
        uint32_t x = i < 1100 ? i : xs[i - 1100];
        uint32_t low = x ? (x & (0u - x)) : 32u;
        unsigned want = low >= 32 ? HD_REGPAT_PAG32 : low >= 16 ? HD_REGPAT_PAG16 : HD_REGPAT_PAG8;
        const uint32_t block[3] = {x, x + 1u, x + 2u};
        unsigned got = hd_regpat_pag_for_block(block);
        if (got != want && bad++ < 10)
            std::printf("tb_regpat_comp: HELPER hd_regpat_pag_for_block(%u,%u,%u) = %u, want %u\n",
                        block[0], block[1], block[2], got, want);
    }
    // The pattern names; a code's bits above the 2-bit pattern are ignored.
    static const char *const names[4] = {"dead", "uniform", "random", "strided"};
    static const unsigned codes[4] = {HD_REGPAT_DEAD, HD_REGPAT_UNIFORM, HD_REGPAT_RANDOM,
                                      HD_REGPAT_STRIDED};
    for (unsigned k = 0; k < 8; k++) {
        unsigned code = codes[k % 4] + (k / 4) * 4u;
        const char *got = hd_regpat_code_name(code);
        if (std::strcmp(got, names[k % 4]) != 0 && bad++ < 10)
            std::printf("tb_regpat_comp: HELPER hd_regpat_code_name(%u) = %s, want %s\n", code,
                        got, names[k % 4]);
    }
    return bad;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    TB_IN idle;
    std::memset(&idle, 0, sizeof idle);
    stim.assign(3, idle); // the pipeline at rest: the idle test must say idle
    std::vector<tb::Vec> vs = tb::directed(r);
    if (!o.replay.empty() && !tb::load_replay(o.replay, vs)) {
        std::fprintf(stderr, "tb_regpat_comp: cannot read %s\n", o.replay.c_str());
        return 2;
    }
    for (const tb::Vec &v : vs)
        stim.push_back(to_in(v));
    while (stim.size() < o.cycles) {
        if (r.below(8) == 0) {
            stim.push_back(idle);
        } else {
            stim.push_back(to_in(tb::random_vec(r)));
        }
    }
    uint64_t results = 0;
    auto cover = [&](const TB_IN &, const TB_OUT &out) { results += out.valid_o != 0; };
    // Coverage by PAG: count from the stimulus side through the reference's pure function.
    uint64_t cov[4][3] = {{0}};
    for (const TB_IN &in : stim) {
        if (!in.valid_i)
            continue;
        TB_OUT e;
        hd_regpat_comp_eval(&in, &e);
        unsigned p = in.pag_i == 3 ? 2 : static_cast<unsigned>(in.pag_i);
        cov[e.pat_o & 3][p]++;
    }
    // Resets mid-stream (issue 16 item 2): right after the first register, and after one halfway.
    std::vector<uint64_t> resets;
    for (size_t i = 0, from = 0; i + 1 < stim.size() && resets.size() < 2; i++)
        if (i >= from && stim[i].valid_i) {
            resets.push_back(i + 1);
            from = stim.size() / 2;
        }
    int rc;
    if (o.api) {
#ifdef TB_API_BENCH
        rc = tb::run_api("tb_regpat_comp", o, stim, cover, &hd_cosim_rtl_regpat_comp);
#else
        std::fprintf(stderr, "tb_regpat_comp: --api needs the tb_regpat_comp_bench build\n");
        return 2;
#endif
    } else {
        rc = tb::run("tb_regpat_comp", o, stim, cover, resets);
    }
    static const char *const pname[3] = {"PAG8", "PAG16", "PAG32"};
    unsigned hit = 0;
    std::printf("coverage (pattern x PAG):\n%-8s", "");
    for (unsigned p = 0; p < 3; p++)
        std::printf(" %8s", pname[p]);
    std::printf("\n");
    for (unsigned k = 0; k < 4; k++) {
        std::printf("%-8s", hd_regpat_code_name(k));
        for (unsigned p = 0; p < 3; p++) {
            std::printf(" %8" PRIu64, cov[k][p]);
            hit += cov[k][p] != 0;
        }
        std::printf("\n");
    }
    std::printf("tb_regpat_comp: %u of 12 pattern x PAG bins covered\n", hit);
    std::printf("tb_regpat_comp: %" PRIu64 " results checked\n", results);
    unsigned hbad = check_helpers();
    std::printf("tb_regpat_comp: %u helper results wrong (PAG for a CTA shape, pattern names)\n", hbad);
    return rc != 0 ? rc : (hit == 12 && hbad == 0) ? 0 : 1;
}
