// SPDX-License-Identifier: MIT
// tb_expars_arb.cpp - SystemC testbench of expars_arb (Verilator --sc): first a pass 2^16 cycles
// before the wrap (granted after a reset, refused if a booking survived it), then the routing of
// every kind of register word (RF; operand-cache hit; fill, and behind a dirty victim; a
// destination into its line, and over a dirty line; every bank), then the scratchpad banks'
// arbitration worked by hand (an ld/st.shared of 4 passes at cycle 100: a register pass at 101
// refused, at 104 granted; an ld/st.shared at 104 then waits a cycle), cycle stamps wrapping past
// 2^NW, far bookings (the sign of next - now decides), a reset then an ld/st.shared as the first
// booking, then seeded random requests in the order
// the substrate makes them (several per model cycle, the model cycle advancing by 0-3, sometimes
// by thousands; degrees 1-32; routes of random words) with a reset every 3,000 cycles, each
// followed by the pass before the wrap; every output compared with the C reference every cycle;
// coverage bins reported (all required).
extern "C" {
#include "expars_arb.h"
}
#include "Vexpars_arb.h"
#define HD_PORTS_DEF "expars_arb_ports.def"
#define TB_TOP Vexpars_arb
#define TB_IN struct hd_expars_arb_in
#define TB_OUT struct hd_expars_arb_out
#define TB_STATE struct hd_expars_arb_state
#define TB_REF_RESET hd_expars_arb_ref_reset
#define TB_REF_STEP hd_expars_arb_ref_step
#define TB_BLOCK hd_expars_arb_block
#define TB_REF_IDLE hd_expars_arb_ref_idle
#include "tb_harness.h"

static const uint64_t kNMask = (1ull << EXPARS_ARB_NW) - 1;

static TB_IN zero()
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    return in;
}

static TB_IN route(unsigned op, unsigned reg, bool spm, bool hit, bool dirty, unsigned lat)
{
    TB_IN in = zero();
    in.op_v_i = 1;
    in.op_i = op;
    in.reg_i = reg;
    in.spm_i = spm;
    in.hit_i = hit;
    in.vic_dirty_i = dirty;
    in.lat_i = lat;
    return in;
}

static TB_IN pass(uint64_t now)
{
    TB_IN in = zero();
    in.op_v_i = 1;
    in.op_i = HD_EXPARS_ARB_PASS;
    in.now_i = now & kNMask;
    return in;
}

static TB_IN shared(uint64_t now, unsigned degree)
{
    TB_IN in = zero();
    in.op_v_i = 1;
    in.op_i = HD_EXPARS_ARB_SHARED;
    in.now_i = now & kNMask;
    in.degree_i = degree;
    return in;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    const unsigned lmax = (1u << EXPARS_ARB_LW) - 1, rmax = (1u << EXPARS_ARB_RW) - 1;
    const unsigned gmax = (1u << EXPARS_ARB_GW) - 1;
    std::vector<TB_IN> stim;
    stim.push_back(zero());
    // First, and first after every reset: a pass 2^16 cycles before the wrap. Granted after a
    // reset (no booking), refused if a booking survived it (live and next say cycle 0 or the
    // top): the reset of the banks' state matters.
    const uint64_t high = kNMask & ~0xffffull;
    stim.push_back(pass(high));
    // routing: RF, a hit, a clean fill, a fill behind a dirty victim, a destination into its
    // line, over a clean line, over a dirty line, every bank, the top register
    stim.push_back(route(HD_EXPARS_ARB_SRC, 5, false, false, true, 2));
    stim.push_back(route(HD_EXPARS_ARB_SRC, 10, true, true, true, 2));
    stim.push_back(route(HD_EXPARS_ARB_SRC, 11, true, false, false, 2));
    stim.push_back(route(HD_EXPARS_ARB_SRC, 11, true, false, true, 2));
    stim.push_back(route(HD_EXPARS_ARB_SRC, 12, true, false, true, lmax));
    stim.push_back(route(HD_EXPARS_ARB_DST, 9, true, true, true, 0));
    stim.push_back(route(HD_EXPARS_ARB_DST, 9, true, false, false, 0));
    stim.push_back(route(HD_EXPARS_ARB_DST, 9, true, false, true, 0));
    stim.push_back(route(HD_EXPARS_ARB_DST, 3, false, false, true, 0));
    for (unsigned b = 0; b < EXPARS_ARB_Banks; b++)
        stim.push_back(route(HD_EXPARS_ARB_SRC, 20 + b, true, true, false, 1));
    stim.push_back(route(HD_EXPARS_ARB_DST, rmax, true, true, false, 1));
    // the banks: a pass before any booking; an ld/st.shared of 4 passes at 100 holds 100-103
    stim.push_back(pass(7));
    stim.push_back(pass(7)); // the same cycle again: refused
    stim.push_back(shared(100, 4));
    stim.push_back(pass(101));
    stim.push_back(pass(103));
    stim.push_back(pass(104));
    stim.push_back(shared(104, 2)); // behind the pass at 104: waits 1, holds 105-106
    stim.push_back(shared(104, 3)); // behind that: waits 3
    stim.push_back(pass(110));
    stim.push_back(shared(120, 0)); // a degree-0 booking holds nothing
    stim.push_back(pass(120));
    // stamps across the wrap of 2^NW
    stim.push_back(shared(kNMask - 1, 5));
    stim.push_back(pass(kNMask));
    stim.push_back(pass(2));
    stim.push_back(pass(3));
    stim.push_back(shared(3, gmax));
    stim.push_back(pass(3 + gmax));
    stim.push_back(pass(4 + gmax));
    // a booking 2^(NW-1) - 2^(NW-3) cycles after the request: still ahead (the sign bit alone
    // decides), then one exactly 2^(NW-1) ahead: behind
    stim.push_back(shared(kNMask / 2 + 1 - (kNMask + 1) / 8, 1));
    stim.push_back(pass(0));
    stim.push_back(shared(kNMask / 2, 1));
    stim.push_back(pass(0));
    stim.push_back(zero());
    // a reset, then an ld/st.shared as the first booking: a pass in its passes is refused
    std::vector<uint64_t> resets;
    resets.push_back(stim.size());
    stim.push_back(shared(50, 4));
    stim.push_back(pass(51));
    stim.push_back(pass(54));
    // seeded: the substrate's order within a cycle (writebacks, ld/st.shared, reads and fills)
    uint64_t now = 1000;
    while (stim.size() < o.cycles) {
        if (stim.size() % 3000 == 2999) {
            resets.push_back(stim.size());
            stim.push_back(pass(high));
            now = r.below(2) ? r.next() : 0;
            continue;
        }
        const unsigned k = r.below(16);
        if (k == 0) {
            stim.push_back(zero());
        } else if (k < 6) {
            stim.push_back(route(r.below(2), r.below(rmax + 1), r.below(3) != 0, r.below(2),
                                 r.below(2), r.below(lmax + 1)));
        } else if (k < 12) {
            stim.push_back(pass(now));
        } else {
            stim.push_back(shared(now, r.below(8) ? 1 + r.below(32 < gmax ? 32 : gmax) : 0));
        }
        const unsigned adv = r.below(64);
        now += adv < 20 ? 0 : adv < 60 ? 1 + r.below(3) : adv < 63 ? r.below(40) : r.below(5000);
    }
    auto none = [](const TB_IN &, const TB_OUT &) {}; // (the bins: expars_arb_cover.def)
    return tb::run("tb_expars_arb", o, stim, none, resets);
}
