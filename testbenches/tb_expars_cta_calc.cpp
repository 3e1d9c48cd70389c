// SPDX-License-Identifier: MIT
// tb_expars_cta_calc.cpp - SystemC testbench of expars_cta_calc (Verilator --sc), EXPARS's
// maximum-CTA calculator (digest expars.md §2.2, Appendix A): the 14 Table 3 kernels of
// Appendix A on the Fermi SM (R = 32,768, S = 48 KB, 8 CTAs, 1,536 threads, tau = 4/5), checked
// against the appendix's CTA_Lower, CTA_Upper, CTA_RF, CTA_Mix, Start_Reg, Max_Reg and register
// region (the table of tests/unit/test_expars_calc.c); the intro example, tau = 1/2 and 1/10,
// scratchpad- and slot-bound kernels, unusable operands; then seeded random launches (realistic
// SMs and kernels, fractional register counts, partial warps, bad operands), starts while busy
// (ignored), starts in the answer's cycle, operands that change after start_i, and a reset
// mid-stream. Every output compared with the C reference every cycle; coverage bins (all
// required).
extern "C" {
#include "expars_cta_calc.h"
}
#include "Vexpars_cta_calc.h"
#define HD_PORTS_DEF "expars_cta_calc_ports.def"
#define TB_TOP Vexpars_cta_calc
#define TB_IN struct hd_expars_cta_calc_in
#define TB_OUT struct hd_expars_cta_calc_out
#define TB_STATE struct hd_expars_cta_calc_state
#define TB_REF_RESET hd_expars_cta_calc_ref_reset
#define TB_REF_STEP hd_expars_cta_calc_ref_step
#define TB_BLOCK hd_expars_cta_calc_block
#define TB_REF_IDLE hd_expars_cta_calc_ref_idle
#include "tb_harness.h"

static const uint64_t RWM = (1ull << EXPARS_CTA_CALC_RW) - 1, SWM = (1ull << EXPARS_CTA_CALC_SW) - 1,
                      CWM = (1ull << EXPARS_CTA_CALC_CW) - 1, TWM = (1ull << EXPARS_CTA_CALC_TW) - 1,
                      QWM = (1ull << EXPARS_CTA_CALC_QW) - 1;

static TB_IN launch(uint64_t R, uint64_t S, uint64_t slots, uint64_t thr, uint64_t rc, uint64_t sc,
                    uint64_t tc, uint64_t num, uint64_t den)
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    in.start_i = 1;
    in.regs_i = R & RWM;
    in.smem_i = S & SWM;
    in.slots_i = slots & CWM;
    in.threads_i = thr & TWM;
    in.r_cta_i = rc & RWM;
    in.s_cta_i = sc & SWM;
    in.t_cta_i = tc & TWM;
    in.tau_num_i = num & QWM;
    in.tau_den_i = den & QWM;
    return in;
}

// Appendix A (digest expars.md): warps per CTA, S_CTA, R_CTA; then CTA_Lower, CTA_Upper, CTA_RF,
// CTA_Mix, Start_Reg, Max_Reg and the register region in bytes.
struct Row {
    const char *name;
    unsigned wpc, s_cta, r_cta, lower, upper, rf, mix, start_reg, max_reg, region;
};
static const Row rows[] = {
    {"LBM", 4, 0, 4608, 7, 8, 6, 2, 20, 35, 8192},     {"ST", 16, 0, 14436, 2, 3, 2, 1, 7, 28, 45056},
    {"MQ", 8, 0, 7168, 4, 6, 4, 2, 8, 27, 20480},      {"SGE", 4, 512, 5632, 5, 7, 5, 2, 18, 43, 13312},
    {"BT", 16, 0, 12288, 2, 3, 2, 1, 16, 23, 16384},   {"HS", 8, 3072, 9216, 3, 4, 3, 1, 20, 35, 16384},
    {"LEUK", 6, 0, 4608, 7, 8, 6, 2, 13, 23, 8448},    {"MC", 8, 2048, 6144, 5, 6, 5, 1, 8, 23, 16384},
    {"CONV", 6, 0, 4608, 7, 8, 6, 2, 13, 23, 8448},    {"EST", 8, 0, 6144, 5, 6, 5, 1, 8, 23, 16384},
    {"MERG", 16, 8192, 12288, 2, 3, 2, 1, 16, 23, 16384}, {"QUA", 12, 0, 12288, 2, 3, 2, 1, 21, 31, 16896},
    {"SING1", 8, 0, 6144, 5, 6, 5, 1, 8, 23, 16384},   {"SING2", 8, 0, 7168, 4, 6, 4, 2, 8, 27, 20480},
};

// The reference's latency for a launch: the edges from start_i to the cycle done_o shows.
static uint32_t latency(const TB_IN &in)
{
    TB_STATE st;
    TB_OUT out;
    TB_IN idle;
    std::memset(&idle, 0, sizeof idle);
    hd_expars_cta_calc_ref_reset(&st);
    hd_expars_cta_calc_ref_step(&st, &in, &out);
    for (uint32_t c = 1; c < 1000000; c++) {
        hd_expars_cta_calc_ref_step(&st, &idle, &out);
        if (out.done_o)
            return c;
    }
    return 0;
}

// One expected answer of the directed part: the cycle its done_o shows and the values.
struct Want {
    uint64_t cycle;
    const char *name;
    bool err, on;
    unsigned lower, upper, rf, mix, start_reg, max_reg, region;
};

// Random operands: realistic SMs and kernels most of the time, anything within the widths else.
static TB_IN random_launch(tb::Rng &r)
{
    static const uint64_t Rs[] = {32768, 65536, 16384, 32768};
    static const uint64_t Ss[] = {49152, 98304, 16384, 65536};
    uint64_t R = r.below(5) == 0 ? 1 + r.below((uint32_t)RWM) : Rs[r.below(4)];
    uint64_t S = r.below(5) == 0 ? 1 + r.below((uint32_t)SWM) : Ss[r.below(4)];
    uint64_t slots = r.below(4) == 0 ? 1 + r.below((uint32_t)CWM) : (r.below(2) ? 8 : 16 + 16 * r.below(2));
    uint64_t thr = r.below(4) == 0 ? 32 + r.below((uint32_t)TWM - 31) : (r.below(2) ? 1536 : 2048);
    uint64_t tc = r.below(4) == 0 ? 1 + r.below((uint32_t)thr) : 32 * (1 + r.below(32));
    uint64_t rpt = r.below(3) == 0 ? 1 + r.below(255) : 16 + r.below(48);
    uint64_t rc = rpt * tc;
    if (r.below(5) == 0 && rc > tc)
        rc -= r.below((uint32_t)tc); // fractional registers per thread (Table 3's ST)
    uint64_t sc = r.below(2) ? 0 : r.below(3) == 0 ? r.below((uint32_t)S + 1) : 256 * r.below(33);
    uint64_t num = 4, den = 5;
    if (r.below(3) == 0) {
        den = 2 + r.below((uint32_t)QWM - 1);
        num = 1 + r.below((uint32_t)den - 1);
    }
    TB_IN in = launch(R, S, slots, thr, rc, sc, tc, num, den);
    // most launches fit (the interesting answers); some do not or are plainly unusable
    if (r.below(8) != 0) {
        if (in.r_cta_i > in.regs_i)
            in.r_cta_i = in.regs_i - r.below((uint32_t)in.regs_i / 2 + 1);
        if (in.t_cta_i > in.threads_i)
            in.t_cta_i = in.threads_i;
        if (in.s_cta_i > in.smem_i)
            in.s_cta_i = in.smem_i / (1 + r.below(8));
        if (in.t_cta_i == 0)
            in.t_cta_i = 32;
        if (in.r_cta_i == 0)
            in.r_cta_i = in.t_cta_i;
    } else {
        switch (r.below(6)) {
        case 0: in.regs_i = 0; break;
        case 1: in.tau_num_i = in.tau_den_i; break;
        case 2: in.tau_num_i = 0; break;
        case 3: in.t_cta_i = 0; break;
        case 4: in.smem_i = 0; break;
        default: in.slots_i = 0; break;
        }
    }
    return in;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    std::vector<uint64_t> resets;
    std::vector<Want> want;
    TB_IN rest;
    std::memset(&rest, 0, sizeof rest);
    stim.push_back(rest);
    // Directed: each launch, then its exact latency of idle cycles (from the reference), with
    // garbage on the operand inputs while busy (sampled only at start_i).
    auto directed = [&](const char *name, const TB_IN &in, bool err, bool on, unsigned lower,
                        unsigned upper, unsigned rf, unsigned mix, unsigned sreg, unsigned mreg,
                        unsigned region) {
        const uint32_t lat = latency(in);
        stim.push_back(in);
        want.push_back({stim.size() - 1 + lat, name, err, on, lower, upper, rf, mix, sreg, mreg, region});
        for (uint32_t c = 1; c <= lat; c++) {
            TB_IN g = launch(r.next(), r.next(), r.next(), r.next(), r.next(), r.next(), r.next(),
                             r.next(), r.next());
            g.start_i = 0;
            stim.push_back(g);
        }
    };
    for (const Row &w : rows)
        directed(w.name, launch(32768, 49152, 8, 1536, w.r_cta, w.s_cta, w.wpc * 32, 4, 5), false,
                 true, w.lower, w.upper, w.rf, w.mix, w.start_reg, w.max_reg, w.region);
    // the intro example (L39): 5,120 registers, 2 KB, 160 threads: 6 -> 7 CTAs, Start_Reg 12
    directed("intro", launch(32768, 49152, 8, 1536, 5120, 2048, 160, 4, 5), false, true, 6, 8, 6, 1,
             12, 31, (31 + 1 - 12) * 5 * 128);
    // scratchpad-bound (3 CTAs; CTA_Upper 5, but 4 x 16 KB > 48 KB) and slot-bound (8): the baseline
    directed("smem-bound", launch(32768, 49152, 8, 1536, 4096, 16384, 256, 4, 5), false, false, 3, 5,
             3, 0, 16, 15, 0);
    directed("slot-bound", launch(32768, 49152, 8, 1536, 1024, 0, 64, 4, 5), false, false, 8, 8, 8,
             0, 16, 15, 0);
    if (QWM >= 10) { // MQ with tau = 1/2: 3 + 3, Start_Reg 14; tau = 1/10: the baseline's 4
        directed("MQ tau 1/2", launch(32768, 49152, 8, 1536, 7168, 0, 256, 1, 2), false, true, 4, 6,
                 3, 3, 14, 27, (28 - 14) * 8 * 128);
        directed("MQ tau 1/10", launch(32768, 49152, 8, 1536, 7168, 0, 256, 1, 10), false, false, 4,
                 6, 4, 0, 28, 27, 0);
    }
    // unusable: tau = 1, no registers, a CTA larger than the RF
    directed("tau 1", launch(32768, 49152, 8, 1536, 7168, 0, 256, 5, 5), true, false, 0, 0, 0, 0, 0, 0, 0);
    directed("no regs", launch(32768, 49152, 8, 1536, 0, 0, 256, 4, 5), true, false, 0, 0, 0, 0, 0, 0, 0);
    directed("big CTA", launch(32768, 49152, 8, 1536, 40000, 0, 256, 4, 5), true, false, 0, 0, 0, 0, 0, 0, 0);
    const size_t ndir = want.size();
    // Boundary vectors (compared with the reference every cycle; no hand-worked answer): each
    // sits where a comparison's equality or an operand's lowest bit decides.
    auto boundary = [&](const TB_IN &in) {
        const uint32_t lat = latency(in);
        stim.push_back(in);
        for (uint32_t c = 1; c <= lat; c++)
            stim.push_back(rest);
    };
    const TB_IN mq = launch(32768, 49152, 8, 1536, 7168, 0, 256, 4, 5);
    boundary(launch(RWM, SWM, CWM, TWM, RWM, SWM, TWM, QWM - 1, QWM)); // every operand at its top
    boundary(launch(RWM, SWM, CWM, TWM, RWM / 3, 0, TWM, 1, QWM));     // R_CTA = R / 3, T = threads
    for (int k = 0; k < 7; k++) { // each operand alone zero
        TB_IN z = mq;
        uint64_t *f[] = {&z.regs_i, &z.smem_i, &z.slots_i, &z.threads_i, &z.r_cta_i, &z.t_cta_i,
                         &z.tau_num_i};
        *f[k] = 0;
        boundary(z);
    }
    TB_IN big = mq;
    big.t_cta_i = 1537; // a CTA with more threads than the SM
    boundary(big);
    big = mq;
    big.s_cta_i = 49153; // more scratchpad than the SM
    boundary(big);
    boundary(launch(32768, 49152, 8, 1536, 4608, 4096, 128, 4, 5)); // LBM with 4 KB: 8 x 4 KB + 2 x 8 KB = S
    boundary(launch(32768, 49151, 8, 1536, 4608, 4096, 128, 4, 5)); // 4R + S + 1 = 8 (4 R_CTA + S_CTA)
    boundary(launch(32768, 49152, 8, 1536, 7169, 0, 256, 4, 5));    // R_CTA = 1 mod T: rpt rounds up
    boundary(launch(32768, 49152, 15, 1920, 4096, 0, 128, 4, 5));   // a point with (N-M) R_CTA = R
    boundary(launch(32767, 49152, 8, 1536, 4681, 0, 128, 4, 5));    // R odd, R_CTA divides it
    boundary(launch(32768, 49152, 8, 1536, 10923, 0, 512, 4, 5));   // R_CTA divides R + 1
    boundary(launch(32768, 49149, 8, 1536, 4096, 16383, 256, 4, 5)); // S odd, S_CTA divides it
    boundary(launch(32768, 49148, 8, 1536, 4096, 16383, 256, 4, 5)); // S_CTA divides S + 1
    boundary(launch(32768, 49152, 8, 1536, 4096, 9831, 128, 4, 5));  // S_CTA odd: S/S_CTA 4, S/(S_CTA-1) 5
    boundary(launch(32768, 49152, 7, 1536, 1024, 0, 64, 4, 5));      // an odd slot count limits
    boundary(launch(32768, 49152, 8, 1536, 32768, 0, 1536, 4, 5));   // one CTA fills the RF and the threads
    // Random: a launch every so often; starts while busy and at the answer's cycle happen.
    bool reset_done = false;
    while (stim.size() < o.cycles) {
        if (!reset_done && stim.size() >= o.cycles / 2 && o.cycles > 4000) {
            resets.push_back(stim.size());
            reset_done = true;
        }
        TB_IN in = r.below(40) == 0 ? random_launch(r) : rest;
        if (!in.start_i && r.below(2)) { // garbage on the operands without start_i
            in = launch(r.next(), r.next(), r.next(), r.next(), r.next(), r.next(), r.next(), r.next(),
                        r.next());
            in.start_i = 0;
        }
        stim.push_back(in);
        if (in.start_i && r.below(4) == 0) { // a burst of starts: the following ones are ignored
            stim.push_back(random_launch(r));
            stim.push_back(random_launch(r));
        }
    }
    uint64_t cyc = 0, ok = 0, bad = 0, busy_starts = 0;
    size_t wi = 0;
    auto cover = [&](const TB_IN &in, const TB_OUT &out) {
        busy_starts += in.start_i && out.busy_o;
        if (wi < ndir && cyc == want[wi].cycle) {
            const Want &w = want[wi++];
            const bool good = out.done_o && (bool)out.err_o == w.err && (bool)out.on_o == w.on &&
                              out.lower_o == w.lower && out.upper_o == w.upper &&
                              out.cta_rf_o == w.rf && out.cta_mix_o == w.mix &&
                              out.start_reg_o == w.start_reg && out.max_reg_o == w.max_reg &&
                              out.region_o == w.region;
            if (good)
                ok++;
            else if (bad++ < 5)
                std::printf("tb_expars_cta_calc: %s: done %u err %u on %u lower %u upper %u rf %u "
                            "mix %u start_reg %u max_reg %u region %u, want %u %u %u %u %u %u %u %u\n",
                            w.name, (unsigned)out.done_o, (unsigned)out.err_o, (unsigned)out.on_o,
                            (unsigned)out.lower_o, (unsigned)out.upper_o, (unsigned)out.cta_rf_o,
                            (unsigned)out.cta_mix_o, (unsigned)out.start_reg_o,
                            (unsigned)out.max_reg_o, (unsigned)out.region_o, w.lower, w.upper, w.rf,
                            w.mix, w.start_reg, w.max_reg, w.region, (unsigned)w.err);
        }
        cyc++;
    };
    int rc = tb::run("tb_expars_cta_calc", o, stim, cover, resets);
    std::printf("tb_expars_cta_calc: directed answers %" PRIu64 " of %zu as Appendix A and the "
                "unit test give them; %" PRIu64 " starts while busy\n", ok, ndir, busy_starts);
    return rc != 0 ? rc : ok == ndir ? 0 : 1;
}
