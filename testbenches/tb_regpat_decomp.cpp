// SPDX-License-Identifier: MIT
// tb_regpat_decomp.cpp - SystemC testbench of regpat_decomp (Verilator --sc): the compressor's
// results for directed, seeded random and replay registers (so decompressing must give the
// lanes back, checked too), plus arbitrary pattern/base/stride inputs; every output compared
// with the C reference every cycle; coverage of pattern x PAG reported (all bins required); the
// reference's idle test is checked too (TB_REF_IDLE; idle cycles at rest first).
extern "C" {
#include "regpat_comp.h"
#include "regpat_decomp.h"
}
#include "Vregpat_decomp.h"
#define HD_PORTS_DEF "regpat_decomp_ports.def"
#define TB_TOP Vregpat_decomp
#define TB_IN struct hd_regpat_decomp_in
#define TB_OUT struct hd_regpat_decomp_out
#define TB_STATE struct hd_regpat_decomp_state
#define TB_REF_RESET hd_regpat_decomp_ref_reset
#define TB_REF_STEP hd_regpat_decomp_ref_step
#define TB_REF_IDLE hd_regpat_decomp_ref_idle
#define TB_BLOCK hd_regpat_decomp_block
#include "tb_harness.h"
#include "tb_stim.h"

static TB_IN from_vec(const tb::Vec &v, uint64_t *roundtrip_bad)
{
    struct hd_regpat_comp_in ci;
    struct hd_regpat_comp_out co;
    std::memset(&ci, 0, sizeof ci);
    ci.valid_i = 1;
    ci.live_i = v.live;
    ci.pag_i = v.pag;
    std::memcpy(ci.data_i, v.lane, sizeof ci.data_i);
    hd_regpat_comp_eval(&ci, &co);
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    in.valid_i = 1;
    in.pat_i = co.pat_o;
    in.pag_i = v.pag;
    std::memcpy(in.base_i, co.base_o, sizeof in.base_i);
    std::memcpy(in.stride_i, co.stride_o, sizeof in.stride_i);
    std::memcpy(in.raw_i, v.lane, sizeof in.raw_i);
    TB_OUT d;
    hd_regpat_decomp_eval(&in, &d);
    if (v.live && std::memcmp(d.data_o, v.lane, sizeof d.data_o) != 0)
        ++*roundtrip_bad;
    return in;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    uint64_t rt_bad = 0;
    std::vector<tb::Vec> vs = tb::directed(r);
    if (!o.replay.empty() && !tb::load_replay(o.replay, vs)) {
        std::fprintf(stderr, "tb_regpat_decomp: cannot read %s\n", o.replay.c_str());
        return 2;
    }
    std::vector<TB_IN> stim(2); // value-initialised: idle cycles at rest, the idle test must say idle
    for (const tb::Vec &v : vs)
        stim.push_back(from_vec(v, &rt_bad));
    while (stim.size() < o.cycles) {
        unsigned k = r.below(10);
        if (k == 0) {
            TB_IN idle;
            std::memset(&idle, 0, sizeof idle);
            stim.push_back(idle);
        } else if (k == 1) { // arbitrary fields: every input bit is defined behaviour
            TB_IN in;
            in.valid_i = 1;
            in.pat_i = r.below(4);
            in.pag_i = r.below(4);
            for (unsigned i = 0; i < 4; i++) {
                in.base_i[i] = r.next();
                in.stride_i[i] = r.next();
            }
            for (unsigned i = 0; i < 32; i++)
                in.raw_i[i] = r.next();
            stim.push_back(in);
        } else {
            stim.push_back(from_vec(tb::random_vec(r), &rt_bad));
        }
    }
    uint64_t cov[4][3] = {{0}};
    auto cover = [&](const TB_IN &in, const TB_OUT &) {
        if (in.valid_i)
            cov[in.pat_i & 3][in.pag_i == 3 ? 2 : in.pag_i]++;
    };
    // Resets mid-stream (issue 16 item 2): right after the first register, and after one halfway.
    std::vector<uint64_t> resets;
    for (size_t i = 0, from = 0; i + 1 < stim.size() && resets.size() < 2; i++)
        if (i >= from && stim[i].valid_i) {
            resets.push_back(i + 1);
            from = stim.size() / 2;
        }
    int rc = tb::run("tb_regpat_decomp", o, stim, cover, resets);
    unsigned hit = 0;
    std::printf("coverage (pattern x PAG8/16/32):\n");
    for (unsigned k = 0; k < 4; k++) {
        std::printf("%-8s", hd_regpat_code_name(k));
        for (unsigned p = 0; p < 3; p++) {
            std::printf(" %8" PRIu64, cov[k][p]);
            hit += cov[k][p] != 0;
        }
        std::printf("\n");
    }
    std::printf("tb_regpat_decomp: %u of 12 bins covered, %" PRIu64 " registers not restored by "
                "the reference round trip\n", hit, rt_bad);
    return rc != 0 ? rc : (hit == 12 && rt_bad == 0) ? 0 : 1;
}
