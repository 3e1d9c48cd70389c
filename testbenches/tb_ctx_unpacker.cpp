// SPDX-License-Identifier: MIT
// tb_ctx_unpacker.cpp - SystemC testbench of ctx_unpacker (Verilator --sc): warp records built
// by the packer's C reference from the compressor's results (directed, seeded random and replay
// registers) are read back the way the context engine does it: segments pushed in order when
// there is room, each register taken when its words (from its pattern and PAG) are buffered,
// the record aligned after its last register (the next record's first segment may already be
// buffered behind the dropped padding), with random idle cycles; every output compared with the
// C reference every cycle. Self-check of the round trip: every register comes out as the
// compressor's pattern, bases and strides (and the raw lanes when random), in order, and err_o
// never rises. Then the error path, each episode after a reset mid-stream: underflows and
// overflows (err_o rises and stays; the protocol assertions fire exactly once per violation).
// The reference's idle test is checked on every step (idle => state unchanged, outputs 0; idle
// at rest). Coverage: each pattern code x PAG taken, a segment pushed in the same cycle as a
// register is taken, an align that dropped words, one with the next record buffered (all
// required).
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
    // Segments are pushed in order over the records whenever there is room, so the next
    // record's first segment may already be buffered behind the padding that an align drops.
    struct Seg {
        size_t rec;
        const std::vector<uint32_t> *w;
    };
    std::vector<Seg> segs;
    for (size_t i = 0; i < recs.size(); i++)
        for (const std::vector<uint32_t> &w : recs[i].segs)
            segs.push_back({i, &w});
    std::vector<TB_IN> stim;
    struct hd_ctx_unpacker_state s;
    hd_ctx_unpacker_ref_reset(&s);
    // The reference's idle test (model/hw/hw_inst.h: idle => the step leaves the state unchanged
    // and gives all-zero outputs; the timing model skips such steps), checked on every step of
    // the private instance; a reset block with no input must be idle.
    uint64_t idle_seen = 0, idle_bad = 0;
    auto ref_step = [&](const TB_IN &in, TB_OUT &q) {
        struct hd_ctx_unpacker_state before;
        std::memcpy(&before, &s, sizeof s);
        const bool idle = hd_ctx_unpacker_ref_idle(&s, &in);
        TB_IN zin;
        std::memset(&zin, 0, sizeof zin);
        struct hd_ctx_unpacker_state rest;
        hd_ctx_unpacker_ref_reset(&rest);
        rest.cycle = s.cycle;
        const bool at_rest = std::memcmp(&rest, &s, sizeof s) == 0 &&
                             std::memcmp(&zin, &in, sizeof in) == 0;
        hd_ctx_unpacker_ref_step(&s, &in, &q);
        TB_OUT zq;
        std::memset(&zq, 0, sizeof zq);
        before.cycle = s.cycle;
        idle_seen += idle;
        idle_bad += (idle && (std::memcmp(&before, &s, sizeof s) != 0 ||
                              std::memcmp(&zq, &q, sizeof q) != 0)) || (at_rest && !idle);
    };
    std::vector<const Reg *> taken; // in order, for the round-trip check
    size_t rec = 0, reg = 0, gseg = 0, out_i = 0;
    uint64_t cov[4][3] = {{0}}, both = 0, dropped = 0, ahead = 0, rt_bad = 0;
    bool err = false; // in the protocol-following stream: must never rise
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
    unsigned stall = 0; // cycles without a register taken or a segment pushed
    while (rec < recs.size()) {
        if (stall++ > 1000) { // the reference's count never allows the next step
            std::fprintf(stderr, "tb_ctx_unpacker: the controller made no progress for 1000 cycles"
                         " (stimulus cycle %zu, record %zu, register %zu, %u words buffered)\n",
                         stim.size(), rec, reg, s.cnt);
            return 1;
        }
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
                    ahead += (cnt - take) % 32 != 0 && cnt - take > 32;
                }
            }
        }
        unsigned after = cnt - take;
        if (in.align_i)
            after -= after % 32;
        // at most one record ahead: the align drops only the current record's padding
        if (r.below(5) != 0 && gseg < segs.size() && segs[gseg].rec <= rec + 1 && after <= 32) {
            in.seg_valid_i = 1;
            std::memcpy(in.seg_i, segs[gseg].w->data(), sizeof in.seg_i);
            both += in.valid_i;
            gseg++;
        }
        if (in.align_i) {
            rec++;
            reg = 0;
        }
        if (in.valid_i || in.seg_valid_i)
            stall = 0;
        TB_OUT q;
        ref_step(in, q);
        check(q);
        stim.push_back(in);
    }
    for (int k = 0; k < 2; k++) {
        TB_IN idle;
        std::memset(&idle, 0, sizeof idle);
        TB_OUT q;
        ref_step(idle, q);
        check(q);
        stim.push_back(idle);
    }

    // The error path (a controller that breaks the protocol), after a reset mid-stream each:
    // a register taken without its words (underflow: the buffered words are taken, the missing
    // ones read 0), a segment pushed without room (overflow: the segment is not appended; also
    // by one word, and after an align), and traffic after the error (err_o is sticky); last, dead
    // registers taken at rest (no error; the idle test must see the valid bits). The
    // protocol assertions HdCtxUnpackerNoUnderflow / NoOverflow fire in exactly those cycles
    // (counted, not stopping the run).
    std::vector<uint64_t> resets;
    uint64_t violations = 0, err_right = 0;
    auto seg_in = [&](TB_IN &in) {
        in.seg_valid_i = 1;
        for (unsigned w = 0; w < 32; w++)
            in.seg_i[w] = r.next();
    };
    auto take_in = [&](TB_IN &in, unsigned pat, unsigned pag) {
        in.valid_i = 1;
        in.pat_i = pat;
        in.pag_i = pag;
    };
    const unsigned kEpisodes = 7; // the last one keeps the protocol (err_o stays low)
    for (unsigned e = 0; e < kEpisodes; e++) {
        resets.push_back(stim.size());
        hd_ctx_unpacker_ref_reset(&s);
        std::vector<TB_IN> ep;
        TB_IN in;
        std::memset(&in, 0, sizeof in);
        auto push = [&](void) {
            ep.push_back(in);
            std::memset(&in, 0, sizeof in);
        };
        unsigned pag = r.below(4);
        switch (e) {
        case 0: // underflow: 32 words buffered, a uniform register, then a random one
            seg_in(in), push();
            take_in(in, HD_REGPAT_UNIFORM, pag), push();
            take_in(in, HD_REGPAT_RANDOM, pag), push();
            break;
        case 1: // underflow from empty, with a segment in the same cycle
            take_in(in, HD_REGPAT_STRIDED, pag), seg_in(in), push();
            break;
        case 2: // overflow: two segments buffered, a third, then a record read
            seg_in(in), push();
            seg_in(in), push();
            seg_in(in), push();
            take_in(in, HD_REGPAT_RANDOM, pag), push();
            break;
        case 3: // overflow by one word: 64 buffered, 31 taken, a segment
            seg_in(in), push();
            seg_in(in), push();
            take_in(in, HD_REGPAT_STRIDED, 0), push(); // 8 words
            take_in(in, HD_REGPAT_STRIDED, 0), push();
            take_in(in, HD_REGPAT_STRIDED, 0), push();
            take_in(in, HD_REGPAT_STRIDED, 1), push(); // 4
            take_in(in, HD_REGPAT_STRIDED, 2), push(); // 2
            take_in(in, HD_REGPAT_UNIFORM, 3), seg_in(in), push(); // 1: 33 left, no room
            break;
        case 4: // an align that drops 31 words with 32 more behind them, a segment, overflow
            seg_in(in), push();
            seg_in(in), push();
            take_in(in, HD_REGPAT_UNIFORM, 2), in.align_i = 1, push();
            seg_in(in), push();
            take_in(in, HD_REGPAT_RANDOM, pag), push();
            seg_in(in), push();
            seg_in(in), push();
            break;
        case 6: // dead registers taken with nothing buffered: the block is at rest around them
            take_in(in, 0, pag), push();
            push();
            take_in(in, 0, 3 - pag), push();
            push();
            push();
            break;
        default: // overflow, then underflow, then a record read normally (err_o stays up)
            seg_in(in), push();
            seg_in(in), push();
            take_in(in, HD_REGPAT_UNIFORM, 2), seg_in(in), push();
            take_in(in, HD_REGPAT_RANDOM, pag), in.align_i = 1, push();
            take_in(in, HD_REGPAT_STRIDED, pag), push();
            break;
        }
        for (unsigned k = 0; e < 6 && k < 3 + r.below(3); k++) { // traffic after the error
            if (r.below(2))
                seg_in(in);
            if (r.below(2))
                take_in(in, 1 + r.below(3), r.below(4));
            in.align_i = r.below(4) == 0;
            push();
        }
        for (TB_IN &x : ep) {
            unsigned n = x.valid_i ? hd_ctx_unpacker_words(x.pat_i, x.pag_i) : 0;
            unsigned cnt = s.cnt, left = n > cnt ? 0 : cnt - n;
            if (x.align_i)
                left -= left % 32;
            violations += (x.valid_i && n > cnt) + (x.seg_valid_i && left > 32);
            TB_OUT q;
            ref_step(x, q);
            stim.push_back(x);
        }
        err_right += s.err == (e < 6);
    }
    // The protocol assertions are expected to fire: count them instead of stopping.
    Verilated::threadContextp()->errorLimit(1 << 30);
    rt_bad += out_i != taken.size();
    auto cover = [&](const TB_IN &, const TB_OUT &) {};
    int rc = tb::run("tb_ctx_unpacker", o, stim, cover, resets);
    const uint64_t fired = static_cast<uint64_t>(Verilated::threadContextp()->errorCount());
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
                PRIu64 " aligns that dropped words (%" PRIu64 " with the next record buffered), %zu"
                " records, %" PRIu64 " registers not as compressed, err_o %s in the protocol stream\n",
                hit, both, dropped, ahead, recs.size(), rt_bad, err ? "ROSE" : "never rose");
    std::printf("tb_ctx_unpacker: error path: %u episodes after a reset, err_o as expected in %"
                PRIu64 ", %" PRIu64 " protocol violations, %" PRIu64
                " assertion failures reported\n", kEpisodes, err_right, violations, fired);
    std::printf("tb_ctx_unpacker: idle test: %" PRIu64 " idle steps, %" PRIu64 " wrong\n",
                idle_seen, idle_bad);
    bool ok = hit == 12 && both && dropped && ahead && rt_bad == 0 && !err &&
              err_right == kEpisodes && fired == violations && idle_seen && idle_bad == 0;
    return rc != 0 ? rc : ok ? 0 : 1;
}
