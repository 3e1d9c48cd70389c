// SPDX-License-Identifier: MIT
// tb_regpat_tbcls.cpp - SystemC testbench of regpat_tbcls (Verilator --sc): TBs of 1..8 warps
// at PAG 8/16/32 whose registers are built to be global/local uniform/strided, random or dead
// (directed: loop counter, ty, ty*16+tx, tx, wrap-around), random TBs, and TBs of replayed
// registers; every output compared with the C reference every cycle; coverage of the six
// classes reported (all required); the reference's idle test (TB_REF_IDLE; idle cycles at rest
// first) and its class names are checked too.
extern "C" {
#include "regpat_comp.h"
#include "regpat_tbcls.h"
}
#include "Vregpat_tbcls.h"
#define HD_PORTS_DEF "regpat_tbcls_ports.def"
#define TB_TOP Vregpat_tbcls
#define TB_IN struct hd_regpat_tbcls_in
#define TB_OUT struct hd_regpat_tbcls_out
#define TB_STATE struct hd_regpat_tbcls_state
#define TB_REF_RESET hd_regpat_tbcls_ref_reset
#define TB_REF_STEP hd_regpat_tbcls_ref_step
#define TB_REF_IDLE hd_regpat_tbcls_ref_idle
#define TB_BLOCK hd_regpat_tbcls_block
#include "tb_harness.h"
#include "tb_stim.h"

// Thread t of a TB whose rows are `row` threads long: value of the register kind.
enum Shape { LOOP, TY, LINEAR, TX, RANDOM, DEAD, NSHAPES };

// mix: warps of one TB differ (mutation testing, docs/verification.md): a warp may take another
// shape (dead/live and random mixes) or a base/stride off by a little, so that the state carried
// from warp to warp (any random/dead, base and stride agreement) decides the class.
static void push_tb(std::vector<TB_IN> &stim, unsigned pag, unsigned warps, Shape sh0, uint32_t base0,
                    uint32_t stride0, tb::Rng &r, bool mix = false)
{
    unsigned row = hd_regpat_pag_lanes(pag);
    for (unsigned w = 0; w < warps; w++) {
        Shape sh = sh0;
        uint32_t base = base0, stride = stride0;
        if (mix && w > 0) {
            unsigned k = r.below(8);
            if (k == 0)
                sh = static_cast<Shape>(r.below(NSHAPES));
            else if (k == 1)
                base += 1 + r.below(3);
            else if (k == 2)
                stride += 1;
        }
        struct hd_regpat_comp_in ci;
        struct hd_regpat_comp_out co;
        std::memset(&ci, 0, sizeof ci);
        ci.valid_i = 1;
        ci.live_i = sh != DEAD;
        ci.pag_i = pag;
        for (unsigned l = 0; l < 32; l++) {
            uint32_t t = w * 32 + l, tx = t % row, ty = t / row;
            uint32_t v = sh == LOOP ? base : sh == TY ? base + ty : sh == LINEAR ? base + t * stride
                       : sh == TX ? base + tx * stride : r.next();
            ci.data_i[l] = v;
        }
        hd_regpat_comp_eval(&ci, &co);
        TB_IN in;
        std::memset(&in, 0, sizeof in);
        in.valid_i = 1;
        in.first_i = w == 0;
        in.last_i = w + 1 == warps;
        in.pat_i = co.pat_o;
        in.pag_i = pag;
        std::memcpy(in.base_i, co.base_o, sizeof in.base_i);
        std::memcpy(in.stride_i, co.stride_o, sizeof in.stride_i);
        stim.push_back(in);
        if (r.below(6) == 0) { // idle cycles inside a TB sequence
            TB_IN idle;
            std::memset(&idle, 0, sizeof idle);
            stim.push_back(idle);
        }
    }
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim(2); // value-initialised: idle cycles at rest, the idle test must say idle
    for (unsigned pag = 0; pag < 3; pag++)
        for (unsigned sh = 0; sh < NSHAPES; sh++) {
            push_tb(stim, pag, 4, static_cast<Shape>(sh), 3, 1, r);
            push_tb(stim, pag, 1, static_cast<Shape>(sh), 0xfffffff8u, 2, r); // one warp, wraps
        }
    std::vector<tb::Vec> vs;
    if (!o.replay.empty() && !tb::load_replay(o.replay, vs)) {
        std::fprintf(stderr, "tb_regpat_tbcls: cannot read %s\n", o.replay.c_str());
        return 2;
    }
    for (size_t i = 0; i + 4 <= vs.size(); i += 4) // groups of 4 replayed registers as a TB
        for (unsigned w = 0; w < 4; w++) {
            struct hd_regpat_comp_in ci;
            struct hd_regpat_comp_out co;
            std::memset(&ci, 0, sizeof ci);
            ci.valid_i = 1;
            ci.live_i = vs[i + w].live;
            ci.pag_i = vs[i].pag;
            std::memcpy(ci.data_i, vs[i + w].lane, sizeof ci.data_i);
            hd_regpat_comp_eval(&ci, &co);
            TB_IN in;
            std::memset(&in, 0, sizeof in);
            in.valid_i = 1;
            in.first_i = w == 0;
            in.last_i = w == 3;
            in.pat_i = co.pat_o;
            in.pag_i = vs[i].pag;
            std::memcpy(in.base_i, co.base_o, sizeof in.base_i);
            std::memcpy(in.stride_i, co.stride_o, sizeof in.stride_i);
            stim.push_back(in);
        }
    for (unsigned pag = 0; pag < 3; pag++) // directed mixes: a dead, a random warp after live ones
        for (unsigned sh = 0; sh < RANDOM; sh++) {
            push_tb(stim, pag, 3, static_cast<Shape>(sh), 3, 1, r);
            size_t l = stim.size() - 1;
            while (!stim[l].valid_i) // skip an idle cycle after the last warp
                l--;
            stim[l].pat_i = 0; // the last warp dead (comp output of a dead register)
            std::memset(stim[l].base_i, 0, sizeof stim[l].base_i);
            std::memset(stim[l].stride_i, 0, sizeof stim[l].stride_i);
        }
    while (stim.size() < o.cycles) {
        push_tb(stim, r.below(4), 1 + r.below(8), static_cast<Shape>(r.below(NSHAPES)),
                r.below(2) ? r.next() : r.below(16), r.below(2) ? r.next() : r.below(5), r,
                r.below(2) != 0);
        if (r.below(16) == 0) { // abandoned TB: no last warp, the next TB's first_i restarts
            size_t l = stim.size() - 1;
            while (!stim[l].valid_i)
                l--;
            stim[l].last_i = 0;
        }
    }
    uint64_t cov[HD_REGPAT_TB_NCLASSES] = {0};
    auto cover = [&](const TB_IN &, const TB_OUT &out) {
        if (out.valid_o)
            cov[out.cls_o % HD_REGPAT_TB_NCLASSES]++;
    };
    // Resets mid-stream (issue 16 item 2): right after the first warp that is not a TB's last,
    // and after one halfway; the next warp then starts a register (first_i: the protocol).
    std::vector<uint64_t> resets;
    for (size_t i = 0, from = 0; i + 1 < stim.size() && resets.size() < 2; i++)
        if (i >= from && stim[i].valid_i && !stim[i].last_i) {
            resets.push_back(i + 1);
            from = stim.size() / 2;
            for (size_t j = i + 1; j < stim.size(); j++)
                if (stim[j].valid_i) {
                    stim[j].first_i = 1;
                    break;
                }
        }
    int rc = tb::run("tb_regpat_tbcls", o, stim, cover, resets);
    unsigned hit = 0;
    std::printf("coverage (TB-level class):\n");
    for (unsigned k = 0; k < HD_REGPAT_TB_NCLASSES; k++) {
        std::printf("  %-15s %8" PRIu64 "\n", hd_regpat_tb_class_name(k), cov[k]);
        hit += cov[k] != 0;
    }
    std::printf("tb_regpat_tbcls: %u of %u classes covered\n", hit, HD_REGPAT_TB_NCLASSES);
    // The class names; an out-of-range class is "?" (regpat_tbcls.h).
    static const char *const names[HD_REGPAT_TB_NCLASSES + 1] = {
        "dead", "random", "global-uniform", "local-uniform", "global-strided", "local-strided", "?"};
    unsigned nbad = 0;
    for (unsigned k = 0; k <= HD_REGPAT_TB_NCLASSES; k++)
        if (std::strcmp(hd_regpat_tb_class_name(k), names[k]) != 0 && nbad++ < 10)
            std::printf("tb_regpat_tbcls: HELPER hd_regpat_tb_class_name(%u) = %s, want %s\n", k,
                        hd_regpat_tb_class_name(k), names[k]);
    return rc != 0 ? rc : (hit == HD_REGPAT_TB_NCLASSES && nbad == 0) ? 0 : 1;
}
