// SPDX-License-Identifier: MIT
// tb_gpuduet_tmon.cpp - SystemC testbench of gpuduet_tmon (Verilator --sc): a worked example on a
// hand-built counter trace (warm-up 20, windows of 100 cycles, ME bound 3: a moderately
// utilised kernel, scheduler at 70 %, searches ME 1, 2, then 85 % saturates and ME backs off to
// 1 and stays; a second kernel underutilised with L1D at 2 % gets ME = 3 and L1D as context
// store; a third, DRAM at 75 %, is saturated: ME = 0; L1D at exactly 3 % and at 2.9999 %), every
// update checked against the expected class and ME; then seeded random kernels (lengths, bounds, rates near every
// threshold of Table 3.3, restarts and stops mid-window); every output compared with the C
// reference every cycle, a reset mid-stream; coverage bins of gpuduet_tmon_cover.def.
extern "C" {
#include "gpuduet_tmon.h"
}
#include "Vgpuduet_tmon.h"
#define HD_PORTS_DEF "gpuduet_tmon_ports.def"
#define TB_TOP Vgpuduet_tmon
#define TB_IN struct hd_gpuduet_tmon_in
#define TB_OUT struct hd_gpuduet_tmon_out
#define TB_STATE struct hd_gpuduet_tmon_state
#define TB_REF_RESET hd_gpuduet_tmon_ref_reset
#define TB_REF_STEP hd_gpuduet_tmon_ref_step
#define TB_BLOCK hd_gpuduet_tmon_block
#define TB_REF_IDLE hd_gpuduet_tmon_ref_idle
#include "tb_harness.h"

static TB_IN zero()
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    return in;
}

static TB_IN start(unsigned warm, unsigned win, unsigned ub)
{
    TB_IN in = zero();
    in.start_i = 1, in.warm_i = warm, in.win_i = win, in.me_ub_i = ub;
    return in;
}

// Rates in per-mille of each resource's sustainable capacity; a cycle's count spreads them
// exactly over a window (Bresenham): every window of `win` cycles sums to round-down rate.
struct Rates { unsigned pm[HD_TMON_NRES]; };

static void window(std::vector<TB_IN> &stim, unsigned win, const Rates &r)
{
    for (unsigned c = 0; c < win; c++) {
        TB_IN in = zero();
        uint64_t *f[HD_TMON_NRES] = {&in.iss_i, &in.l1_i, &in.icnt_i, &in.l2_i, &in.dram_i};
        for (unsigned k = 0; k < HD_TMON_NRES; k++) {
            // sustainable units per cycle x 1000 = cap * pct * 10
            uint64_t per = (uint64_t)r.pm[k] * hd_gpuduet_tmon_cap(k) * hd_gpuduet_tmon_pct(k) / 100u;
            uint64_t a = per * c / 1000u, b = per * (c + 1) / 1000u;
            uint64_t v = b - a, lim = (1u << GPUDUET_TMON_InW) - 1u;
            *f[k] = v > lim ? lim : v;
        }
        stim.push_back(in);
    }
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    stim.push_back(zero()); // two idle cycles: the idle test must say idle at rest
    stim.push_back(zero());
    // The worked example: {class, ME, l1ctx} expected after each window.
    struct Want { unsigned cls, me, l1ctx; };
    std::vector<Want> want;
    const Rates moderate = {{700, 300, 300, 300, 300}}, hot = {{850, 300, 300, 300, 300}};
    const Rates idle_l1 = {{300, 20, 200, 200, 200}}, dram_hot = {{300, 300, 300, 300, 750}};
    stim.push_back(start(20, 100, 3));
    for (unsigned c = 0; c < 20; c++)
        stim.push_back(zero()); // the warm-up counts nothing
    window(stim, 100, moderate), want.push_back({HD_TMON_MODERATE, 1, 0});
    window(stim, 100, moderate), want.push_back({HD_TMON_MODERATE, 2, 0});
    window(stim, 100, hot), want.push_back({HD_TMON_SATURATED, 1, 0});
    window(stim, 100, moderate), want.push_back({HD_TMON_MODERATE, 1, 0});
    stim.push_back(start(0, 100, 3)); // a second kernel: no warm-up
    window(stim, 100, idle_l1), want.push_back({HD_TMON_UNDER, 3, 1});
    window(stim, 100, moderate), want.push_back({HD_TMON_MODERATE, 3, 0});
    stim.push_back(start(0, 100, 3)); // a third
    window(stim, 100, dram_hot), want.push_back({HD_TMON_SATURATED, 0, 0});
    window(stim, 100, idle_l1), want.push_back({HD_TMON_UNDER, 0, 1});
    // L1D at exactly 3 % (not below: no contexts in L1D), then at 200 / 6667 = 2.9999 %.
    const Rates l1_edge = {{300, 30, 200, 200, 200}};
    stim.push_back(start(0, 100, 0));
    window(stim, 100, l1_edge), want.push_back({HD_TMON_UNDER, 0, 0});
    stim.push_back(start(0, 6667, 0));
    window(stim, 6667, l1_edge), want.push_back({HD_TMON_UNDER, 0, 1});
    TB_IN stop = zero();
    stop.stop_i = 1;
    stim.push_back(stop);
    stim.push_back(zero());
    const size_t example_end = stim.size();
    // Random kernels.
    static const unsigned levels[] = {0, 20, 30, 400, 499, 501, 505, 599, 601, 699, 701, 705, 799,
                                      801, 805, 899, 901, 905, 1000};
    std::vector<uint64_t> resets;
    while (stim.size() < o.cycles) {
        if (resets.empty() && stim.size() >= o.cycles / 2)
            resets.push_back(stim.size());
        unsigned warm = r.below(4) ? r.below(40) : 0, win = r.below(10) ? 20 + r.below(150) : r.below(2);
        stim.push_back(start(warm, win, r.below(6) ? r.below(1u << GPUDUET_TMON_MW) : 0));
        for (unsigned c = 0; c < warm; c++)
            stim.push_back(zero());
        unsigned nwin = 1 + r.below(6);
        for (unsigned w = 0; w < nwin; w++) {
            Rates x;
            unsigned mode = r.below(4); // all low, one resource near its thresholds, random
            for (unsigned k = 0; k < HD_TMON_NRES; k++)
                x.pm[k] = mode == 0 ? r.below(450) : levels[r.below(sizeof levels / sizeof levels[0])];
            if (mode == 1) {
                for (unsigned k = 0; k < HD_TMON_NRES; k++)
                    x.pm[k] = r.below(400);
                x.pm[r.below(HD_TMON_NRES)] = levels[r.below(sizeof levels / sizeof levels[0])];
            }
            window(stim, win ? win : 1, x);
        }
        if (r.below(3) == 0) { // stop or restart mid-window, with counts in flight
            Rates x;
            for (unsigned k = 0; k < HD_TMON_NRES; k++)
                x.pm[k] = levels[r.below(sizeof levels / sizeof levels[0])];
            if (win > 1)
                window(stim, 1 + r.below(win - 1), x);
            if (r.below(2)) {
                TB_IN s = zero();
                s.stop_i = 1;
                stim.push_back(s);
                for (unsigned c = r.below(5); c > 0; c--)
                    stim.push_back(zero());
            }
        }
    }
    size_t cyc = 0, seen = 0, ok = 0;
    auto check = [&](const TB_IN &, const TB_OUT &out) {
        if (cyc++ < example_end + 1 && out.upd_v_o) {
            if (seen < want.size()) {
                const Want &w = want[seen];
                bool good = out.cls_o == w.cls && out.me_o == w.me && out.l1ctx_o == w.l1ctx;
                ok += good;
                if (!good)
                    std::printf("tb_gpuduet_tmon: example window %zu: class %s ME %" PRIu64 " l1ctx %" PRIu64
                                ", expected %s %u %u\n", seen, hd_gpuduet_tmon_class_name((unsigned)out.cls_o),
                                out.me_o, out.l1ctx_o, hd_gpuduet_tmon_class_name(w.cls), w.me, w.l1ctx);
            }
            seen++;
        }
    };
    int rc = tb::run("tb_gpuduet_tmon", o, stim, check, resets);
    std::printf("tb_gpuduet_tmon: worked example %zu of %zu windows as expected\n", ok, want.size());
    if (hd_gpuduet_tmon_cap(HD_TMON_NRES) != 0) { // past the last resource: no capacity
        std::printf("tb_gpuduet_tmon: cap() past the last resource wrong\n");
        rc = 1;
    }
    for (unsigned k = 0; k <= 4; k++)
        if ((k < 4) == (std::strcmp(hd_gpuduet_tmon_class_name(k), "?") == 0)) {
            std::printf("tb_gpuduet_tmon: class name %u wrong\n", k);
            rc = 1;
        }
    return rc != 0 ? rc : ok == want.size() && seen == want.size() ? 0 : 1;
}
