// SPDX-License-Identifier: MIT
// tb_ctx_unpacker.cpp - SystemC testbench of ctx_unpacker (Verilator --sc): warp records built
// by the packer's C reference from the compressor's results (directed, seeded random and replay
// registers) are read back the way the context engine does it: segments pushed in order when
// there is room, each register taken when its words (from its pattern and PAG) are buffered,
// the record aligned after its last register, with random idle cycles; every output compared with
// the C reference every cycle. Self-check of the round trip: every register comes out as the
// compressor's pattern, bases and strides (and the raw lanes when random), in order, and err_o
// never rises. Coverage: each pattern code x PAG taken, a segment pushed in the same cycle as a
// register is taken, an align that dropped words (all required).
extern "C" {
#include "ctx_packer.h"
#include "ctx_unpacker.h"
#include "regpat_comp.h"
}
#include "Vctx_unpacker.h"
#define HD_PORTS_DEF "ctx_unpacker_ports.def"
#define TB_TOP Vctx_unpacker
#define TB_IN struct hd_ctx_unpacker_in
#define TB_OUT struct hd_ctx_unpacker_out
#define TB_STATE struct hd_ctx_unpacker_state
#define TB_REF_RESET hd_ctx_unpacker_ref_reset
#define TB_REF_STEP hd_ctx_unpacker_ref_step
#define TB_BLOCK hd_ctx_unpacker_block
#include "tb_harness.h"
#include "tb_stim.h"

namespace {

struct Reg {
    unsigned pag;
    struct hd_regpat_comp_out co;
    uint32_t lanes[32];
};

struct Record {
    std::vector<Reg> regs;
    std::vector<std::vector<uint32_t>> segs;
};

Reg compress(const tb::Vec &v)
{
    Reg g;
    struct hd_regpat_comp_in ci;
    std::memset(&ci, 0, sizeof ci);
    ci.valid_i = 1;
    ci.live_i = v.live;
    ci.pag_i = v.pag;
    std::memcpy(ci.data_i, v.lane, sizeof ci.data_i);
    hd_regpat_comp_eval(&ci, &g.co);
    g.pag = v.pag;
    std::memcpy(g.lanes, v.lane, sizeof g.lanes);
    return g;
}

// The record's segments, from the packer's reference.
void pack(Record &rec)
{
    struct hd_ctx_packer_state s;
    hd_ctx_packer_ref_reset(&s);
    struct hd_ctx_packer_in in;
    struct hd_ctx_packer_out q;
    for (size_t i = 0; i <= rec.regs.size() + 1; i++) {
        std::memset(&in, 0, sizeof in);
        if (i < rec.regs.size()) {
            const Reg &g = rec.regs[i];
            in.valid_i = 1;
            in.pat_i = g.co.pat_o;
            in.words_i = g.co.words_o;
            std::memcpy(in.base_i, g.co.base_o, sizeof in.base_i);
            std::memcpy(in.stride_i, g.co.stride_o, sizeof in.stride_i);
            std::memcpy(in.raw_i, g.lanes, sizeof in.raw_i);
        } else if (i == rec.regs.size()) {
            in.flush_i = 1;
        }
        hd_ctx_packer_ref_step(&s, &in, &q);
        if (q.seg_valid_o)
            rec.segs.emplace_back(q.seg_o, q.seg_o + 32);
    }
}

} // namespace

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<tb::Vec> vs = tb::directed(r);
    if (!o.replay.empty() && !tb::load_replay(o.replay, vs)) {
        std::fprintf(stderr, "tb_ctx_unpacker: cannot read %s\n", o.replay.c_str());
        return 2;
    }
    std::vector<Record> recs(1);
    for (const tb::Vec &v : vs)
        recs[0].regs.push_back(compress(v));
    size_t est = 0;
    for (const Reg &g : recs[0].regs)
        est += 1 + g.co.words_o / 32;
    while (est < o.cycles) {
        Record rec;
        unsigned n = 1 + r.below(40);
        for (unsigned i = 0; i < n; i++)
            rec.regs.push_back(compress(tb::random_vec(r)));
        est += n + 2;
        recs.push_back(rec);
    }
    for (Record &rec : recs)
        pack(rec);

    // The controller, against a private reference instance that gives the expected outputs.
    std::vector<TB_IN> stim;
    struct hd_ctx_unpacker_state s;
    hd_ctx_unpacker_ref_reset(&s);
    std::vector<const Reg *> taken; // in order, for the round-trip check
    size_t rec = 0, reg = 0, seg = 0, out_i = 0;
    uint64_t cov[4][3] = {{0}}, both = 0, dropped = 0, rt_bad = 0;
    bool err = false;
    auto check = [&](const TB_OUT &q) {
        err |= q.err_o != 0;
        if (!q.valid_o)
            return;
        if (out_i >= taken.size()) {
            rt_bad++;
            return;
        }
        const Reg &g = *taken[out_i++];
        bool ok = q.pat_o == g.co.pat_o &&
                  std::memcmp(q.base_o, g.co.base_o, sizeof q.base_o) == 0 &&
                  std::memcmp(q.stride_o, g.co.stride_o, sizeof q.stride_o) == 0;
        for (unsigned l = 0; l < 32; l++)
            ok &= q.raw_o[l] == (g.co.pat_o == HD_REGPAT_RANDOM ? g.lanes[l] : 0u);
        rt_bad += !ok;
    };
    while (rec < recs.size()) {
        const Record &R = recs[rec];
        TB_IN in;
        std::memset(&in, 0, sizeof in);
        unsigned cnt = s.cnt, take = 0;
        bool busy = r.below(6) != 0;
        if (busy && reg < R.regs.size()) {
            const Reg &g = R.regs[reg];
            unsigned n = hd_ctx_unpacker_words(static_cast<unsigned>(g.co.pat_o), g.pag);
            if (n <= cnt) {
                in.valid_i = 1;
                in.pat_i = g.co.pat_o;
                in.pag_i = g.pag;
                take = n;
                taken.push_back(&g);
                cov[g.co.pat_o & 3][g.pag == 3 ? 2 : g.pag]++;
                if (++reg == R.regs.size()) {
                    in.align_i = 1;
                    dropped += (cnt - take) % 32 != 0;
                }
            }
        }
        unsigned after = cnt - take;
        if (in.align_i)
            after -= after % 32;
        const Record *S = in.align_i ? (rec + 1 < recs.size() ? &recs[rec + 1] : nullptr) : &R;
        size_t sidx = in.align_i ? 0 : seg;
        if (r.below(5) != 0 && S && sidx < S->segs.size() && after <= 32) {
            in.seg_valid_i = 1;
            std::memcpy(in.seg_i, S->segs[sidx].data(), sizeof in.seg_i);
            both += in.valid_i;
            if (!in.align_i)
                seg++;
        }
        if (in.align_i) {
            rec++;
            reg = 0;
            seg = in.seg_valid_i ? 1 : 0;
        }
        TB_OUT q;
        hd_ctx_unpacker_ref_step(&s, &in, &q);
        check(q);
        stim.push_back(in);
    }
    for (int k = 0; k < 2; k++) {
        TB_IN idle;
        std::memset(&idle, 0, sizeof idle);
        TB_OUT q;
        hd_ctx_unpacker_ref_step(&s, &idle, &q);
        check(q);
    }
    rt_bad += out_i != taken.size();
    auto cover = [&](const TB_IN &, const TB_OUT &) {};
    int rc = tb::run("tb_ctx_unpacker", o, stim, cover);
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
    std::printf("tb_ctx_unpacker: %u of 12 bins, %" PRIu64 " segments pushed beside a register, %"
                PRIu64 " aligns that dropped words, %zu records, %" PRIu64
                " registers not as compressed, err_o %s\n",
                hit, both, dropped, recs.size(), rt_bad, err ? "ROSE" : "never rose");
    bool ok = hit == 12 && both && dropped && rt_bad == 0 && !err;
    return rc != 0 ? rc : ok ? 0 : 1;
}
