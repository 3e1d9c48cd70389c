// SPDX-License-Identifier: MIT
// tb_pp_decode.cpp - SystemC testbench of pp_decode (Verilator --sc): directed words (each kind
// with an empty, a full and a high-bit-only vector, the hand-worked vector of the unit test, the
// opcodes next to the three), seeded random points and random words, back to back and with idle
// gaps, and replayed words (pairs of recorded register lanes); every output compared with the C
// reference every cycle, and the reference's idle test (TB_REF_IDLE); coverage of pp / dummy /
// bar.pp / other and of the high bit reported (all bins required).
extern "C" {
#include "pp_decode.h"
#include "regpat_comp.h"
}
#include "Vpp_decode.h"
#define HD_PORTS_DEF "pp_decode_ports.def"
#define TB_TOP Vpp_decode
#define TB_IN struct hd_pp_decode_in
#define TB_OUT struct hd_pp_decode_out
#define TB_STATE struct hd_pp_decode_state
#define TB_REF_RESET hd_pp_decode_ref_reset
#define TB_REF_STEP hd_pp_decode_ref_step
#define TB_BLOCK hd_pp_decode_block
#define TB_REF_IDLE hd_pp_decode_ref_idle
#include "tb_harness.h"
#include "tb_stim.h"

static TB_IN word(uint64_t w)
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    in.valid_i = 1;
    in.inst_i = w;
    return in;
}

static uint64_t rnd64(tb::Rng &r)
{
    return (uint64_t)r.next() << 32 | r.next();
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    const unsigned ops[] = {HD_PPDEC_OP_PP, HD_PPDEC_OP_DUMMY, HD_PPDEC_OP_BARPP, 0x3EF, 0x3F3,
                            0x000, 0x3FF};
    const uint64_t vecs[] = {0, HD_PPDEC_VEC_MASK, 1ull << HD_PPDEC_HIGH_BIT, 0x1027,
                             (1ull << HD_PPDEC_HIGH_BIT) - 1};
    for (unsigned op : ops)
        for (uint64_t v : vecs)
            stim.push_back(word(hd_pp_encode(op, v)));
    for (unsigned op : ops) { // the same words on the bus without valid_i: ignored
        TB_IN in = word(hd_pp_encode(op, HD_PPDEC_VEC_MASK));
        in.valid_i = 0;
        stim.push_back(in);
    }
    std::vector<tb::Vec> vs;
    if (!o.replay.empty() && !tb::load_replay(o.replay, vs)) {
        std::fprintf(stderr, "tb_pp_decode: cannot read %s\n", o.replay.c_str());
        return 2;
    }
    for (const tb::Vec &v : vs) // recorded values as words: mostly "other", some points
        for (unsigned l = 0; l + 1 < 32; l += 2) {
            uint64_t w = (uint64_t)v.lane[l + 1] << 32 | v.lane[l];
            if (l % 8 == 0) // give a share of them a point opcode
                w = hd_pp_encode(HD_PPDEC_OP_PP + l / 8 % 3, w);
            stim.push_back(word(w));
        }
    while (stim.size() < o.cycles) {
        unsigned k = r.below(8);
        if (k == 0) { // idle gap
            TB_IN idle;
            std::memset(&idle, 0, sizeof idle);
            stim.push_back(idle);
        } else if (k < 6) { // a point of a random kind and vector (pp is followed by its dummy)
            unsigned op = HD_PPDEC_OP_PP + r.below(3);
            uint64_t v = rnd64(r) >> r.below(64);
            stim.push_back(word(hd_pp_encode(op, v)));
            if (op == HD_PPDEC_OP_PP)
                stim.push_back(word(hd_pp_encode(HD_PPDEC_OP_DUMMY, v | rnd64(r) >> 40)));
        } else {
            stim.push_back(word(rnd64(r)));
        }
    }
    uint64_t cov[5] = {0};
    auto cover = [&](const TB_IN &, const TB_OUT &out) {
        if (!out.valid_o)
            return;
        cov[out.is_pp_o ? 0 : out.is_dummy_o ? 1 : out.is_barpp_o ? 2 : 3]++;
        if (out.live_o >> HD_PPDEC_HIGH_BIT & 1u)
            cov[4]++;
    };
    int rc = tb::run("tb_pp_decode", o, stim, cover);
    static const char *const names[5] = {"pp", "dummy", "bar.pp", "other", "bit 53 set"};
    unsigned hit = 0;
    std::printf("coverage:\n");
    for (unsigned k = 0; k < 5; k++) {
        std::printf("  %-12s %8" PRIu64 "\n", names[k], cov[k]);
        hit += cov[k] != 0;
    }
    std::printf("tb_pp_decode: %u of 5 bins covered\n", hit);
    return rc != 0 ? rc : hit == 5 ? 0 : 1;
}
