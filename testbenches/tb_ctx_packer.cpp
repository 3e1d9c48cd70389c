// SPDX-License-Identifier: MIT
// tb_ctx_packer.cpp - SystemC testbench of ctx_packer (Verilator --sc): warp records of
// compressed registers (the compressor's results for directed, seeded random and replay
// registers), flushed at random record ends, back to back and with idle gaps; every output
// compared with the C reference every cycle. Self-check of the reference: the segments of each
// record, concatenated, are exactly the registers' stored words in order, and the pattern
// vectors are their codes. Some registers carry a words_i that is not their pattern's (fewer
// words, more, above 32: the packer stores min(words_i, 32) words of the pattern's layout, 0
// past it). Coverage bins: full segment, last segment (partial), full pattern vector (64
// registers), partial pattern vector, every pattern code packed, odd and > 32 counts (all
// required).
extern "C" {
#include "ctx_packer.h"
#include "regpat_comp.h"
}
#include "Vctx_packer.h"
#define HD_PORTS_DEF "ctx_packer_ports.def"
#define TB_TOP Vctx_packer
#define TB_IN struct hd_ctx_packer_in
#define TB_OUT struct hd_ctx_packer_out
#define TB_STATE struct hd_ctx_packer_state
#define TB_REF_RESET hd_ctx_packer_ref_reset
#define TB_REF_STEP hd_ctx_packer_ref_step
#define TB_BLOCK hd_ctx_packer_block
#define TB_REF_IDLE hd_ctx_packer_ref_idle
#include "tb_harness.h"
#include "tb_stim.h"

static TB_IN from_vec(const tb::Vec &v)
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
    in.words_i = co.words_o;
    std::memcpy(in.base_i, co.base_o, sizeof in.base_i);
    std::memcpy(in.stride_i, co.stride_o, sizeof in.stride_i);
    std::memcpy(in.raw_i, v.lane, sizeof in.raw_i);
    return in;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<tb::Vec> vs = tb::directed(r);
    if (!o.replay.empty() && !tb::load_replay(o.replay, vs)) {
        std::fprintf(stderr, "tb_ctx_packer: cannot read %s\n", o.replay.c_str());
        return 2;
    }
    std::vector<TB_IN> stim;
    uint64_t odd = 0, over = 0;
    TB_IN idle;
    std::memset(&idle, 0, sizeof idle);
    TB_IN flush = idle;
    flush.flush_i = 1;
    // Records: the directed/replay registers as one long record (pattern vectors fill up), then
    // random records of 0..80 registers with idle gaps.
    for (const tb::Vec &v : vs)
        stim.push_back(from_vec(v));
    stim.push_back(flush);
    while (stim.size() < o.cycles) {
        unsigned nregs = r.below(6) == 0 ? 64 + r.below(17) : r.below(40);
        for (unsigned i = 0; i < nregs; i++) {
            if (r.below(8) == 0)
                stim.push_back(idle);
            TB_IN in = from_vec(tb::random_vec(r));
            if (r.below(16) == 0) { // a count that is not the pattern's: only n words are stored
                in.words_i = r.below(2) ? r.below(64) : 33 + r.below(31);
                for (unsigned w = 0; w < 4; w++)
                    in.base_i[w] = r.next(), in.stride_i[w] = r.next();
                odd++;
            }
            stim.push_back(in);
        }
        stim.push_back(flush);
        if (r.below(3) == 0)
            stim.push_back(idle);
    }
    // Reference self-check: concatenate each record's segments and compare with its words.
    uint64_t self_bad = 0, cov[5] = {0}, pats[4] = {0};
    {
        struct hd_ctx_packer_state s;
        hd_ctx_packer_ref_reset(&s);
        std::vector<uint32_t> want, got;
        std::vector<unsigned> codes, gotc;
        for (size_t c = 0; c < stim.size() + 2; c++) {
            const TB_IN &in = c < stim.size() ? stim[c] : idle;
            TB_OUT q;
            hd_ctx_packer_ref_step(&s, &in, &q);
            if (q.seg_valid_o)
                for (unsigned i = 0; i < q.seg_words_o; i++)
                    got.push_back(q.seg_o[i]);
            if (q.pv_valid_o)
                for (unsigned k = 0; k < q.pv_n_o; k++)
                    gotc.push_back((q.pv_o[k / 16] >> (2 * (k % 16))) & 3u);
            if (q.seg_valid_o)
                cov[q.seg_last_o ? 1 : 0]++;
            if (q.pv_valid_o)
                cov[q.pv_n_o == 64 ? 2 : 3]++;
            // outputs of step c belong to the input of cycle c - 1: after a flush, the record
            // is complete
            if (c >= 1 && c - 1 < stim.size() && stim[c - 1].flush_i) {
                if (got != want || gotc != codes)
                    self_bad++;
                got.clear();
                gotc.clear();
                want.clear();
                codes.clear();
            }
            if (c < stim.size() && in.valid_i) {
                uint32_t chunk[32];
                unsigned n = hd_ctx_packer_chunk(&in, chunk);
                want.insert(want.end(), chunk, chunk + n);
                codes.push_back(static_cast<unsigned>(in.pat_i));
                pats[in.pat_i & 3]++;
                over += in.words_i > 32;
            }
        }
    }
    for (unsigned k = 0; k < 4; k++)
        cov[4] += pats[k] != 0;
    auto cover = [&](const TB_IN &, const TB_OUT &) {};
    int rc = tb::run("tb_ctx_packer", o, stim, cover);
    std::printf("coverage: %" PRIu64 " full segments, %" PRIu64 " last segments, %" PRIu64
                " full pattern vectors, %" PRIu64 " partial, %" PRIu64 " of 4 pattern codes\n",
                cov[0], cov[1], cov[2], cov[3], cov[4]);
    std::printf("coverage: %" PRIu64 " registers whose words_i is not their pattern's, %" PRIu64
                " with words_i > 32\n", odd, over);
    bool covered = cov[0] && cov[1] && cov[2] && cov[3] && cov[4] == 4 && odd && over;
    std::printf("tb_ctx_packer: %s, %" PRIu64 " records whose segments differ from their words\n",
                covered ? "all bins covered" : "NOT all bins covered", self_bad);
    return rc != 0 ? rc : (covered && self_bad == 0) ? 0 : 1;
}
