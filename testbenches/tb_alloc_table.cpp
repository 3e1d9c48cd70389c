// SPDX-License-Identifier: MIT
// tb_alloc_table.cpp - SystemC testbench of alloc_table (Verilator --sc), Lin's allocation table:
// idle cycles at rest, the Fig 2.4 sequence (three K1 TBs of 300 registers, a spill query for
// K2's 2 x 200, bottom-up eviction), a reset with entries in use and idle cycles after it, an
// entry and requests of the largest size, then random phases of allocs (small and
// large blocks, capacities 16..4095), frees of used and unused entries, and spill queries with
// random candidate and drop masks, with idle cycles between; optionally replayed request
// streams (--replay: lines "op size cap entry cand drop", recorded from a model run). Every
// output compared with the C reference every cycle, and the reference's idle test
// (TB_REF_IDLE); coverage of the answers reported (all bins required).
extern "C" {
#include "alloc_table.h"
}
#include "Valloc_table.h"
#define HD_PORTS_DEF "alloc_table_ports.def"
#define TB_TOP Valloc_table
#define TB_IN struct hd_alloc_table_in
#define TB_OUT struct hd_alloc_table_out
#define TB_STATE struct hd_alloc_table_state
#define TB_REF_RESET hd_alloc_table_ref_reset
#define TB_REF_STEP hd_alloc_table_ref_step
#define TB_BLOCK hd_alloc_table_block
#define TB_REF_IDLE hd_alloc_table_ref_idle
#include "tb_harness.h"

#include <fstream>
#include <sstream>

static TB_IN rq(unsigned op, uint32_t size, uint32_t cap, unsigned entry, uint32_t cand,
                uint32_t drop)
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    in.op_i = op;
    in.size_i = size;
    in.cap_i = cap;
    in.entry_i = entry;
    in.cand_i = cand;
    in.drop_i = drop;
    return in;
}

enum Bin { ALLOC_OK, ALLOC_NOROOM, ALLOC_NOENTRY, FREE_USED, FREE_UNUSED, SPILL_FITS, SPILL_ONE,
           SPILL_MANY, SPILL_NONE, NBINS };
static const char *const bin_name[NBINS] = {"alloc placed", "alloc no room", "alloc 16 in use",
                                            "free used", "free unused", "spill fits now",
                                            "spill 1 victim", "spill 2+ victims", "spill infeasible"};

static bool load(const std::string &path, std::vector<TB_IN> &stim)
{
    std::ifstream f(path);
    if (!f)
        return false;
    std::string line;
    while (std::getline(f, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream s(line);
        unsigned op, size, cap, entry, cand, drop;
        if (!(s >> op >> size >> cap >> entry >> std::hex >> cand >> drop))
            return false;
        stim.push_back(rq(op, size, cap, entry, cand, drop));
    }
    return true;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim, none(1, rq(0, 0, 0, 0, 0, 0));
    std::vector<uint64_t> resets;
    stim.push_back(none[0]); // idle at rest: the reference's idle test must say idle
    stim.push_back(none[0]);
    for (int i = 0; i < 3; i++) // Fig 2.4
        stim.push_back(rq(HD_ATAB_ALLOC, 300, 1024, 0, 0, 0));
    stim.push_back(rq(HD_ATAB_ALLOC, 200, 1024, 0, 0, 0));
    stim.push_back(rq(HD_ATAB_SPILL, 400, 1024, 0, 0x7, 0));
    stim.push_back(rq(HD_ATAB_SPILL, 400, 1024, 0, 0x3, 0));
    stim.push_back(rq(HD_ATAB_FREE, 0, 1024, 0, 0, 0));
    stim.push_back(rq(HD_ATAB_ALLOC, 200, 1024, 0, 0, 0));
    stim.push_back(rq(HD_ATAB_ALLOC, 200, 1024, 0, 0, 0));
    stim.push_back(rq(HD_ATAB_FREE, 0, 1024, 1, 0, 0));
    stim.push_back(rq(HD_ATAB_ALLOC, 200, 1024, 0, 0, 0));
    resets.push_back(stim.size()); // a reset with entries in use, then idle at rest again
    stim.push_back(none[0]);
    stim.push_back(none[0]);
    for (int e = 0; e < 16; e++) // clear (every entry unused after the reset)
        stim.push_back(rq(HD_ATAB_FREE, 0, 1024, (unsigned)e, 0, 0));
    // The largest size, 4095: a request of it beside another entry, an entry of it.
    stim.push_back(rq(HD_ATAB_ALLOC, 100, 1024, 0, 0, 0));          // entry 0 at 0
    stim.push_back(rq(HD_ATAB_ALLOC, 4095, 4095, 0, 0, 0));         // no room
    stim.push_back(rq(HD_ATAB_SPILL, 4095, 4095, 0, 0xffff, 0));    // victim: entry 0
    stim.push_back(rq(HD_ATAB_FREE, 0, 4095, 0, 0, 0));
    stim.push_back(rq(HD_ATAB_ALLOC, 4095, 4095, 0, 0, 0));         // the whole table
    stim.push_back(rq(HD_ATAB_ALLOC, 10, 4095, 0, 0, 0));           // no room
    stim.push_back(rq(HD_ATAB_SPILL, 10, 4095, 0, 0x1, 0));         // victim: entry 0
    stim.push_back(rq(HD_ATAB_FREE, 0, 4095, 0, 0, 0));
    if (!o.replay.empty() && !load(o.replay, stim)) {
        std::fprintf(stderr, "tb_alloc_table: cannot read %s (lines: op size cap entry cand drop)\n",
                     o.replay.c_str());
        return 2;
    }
    while (stim.size() < o.cycles) { // phases: one capacity, a mix of requests
        uint32_t cap = r.below(3) == 0 ? 4095 : 16 + r.below(1024);
        unsigned len = 20 + r.below(200), big = r.below(3);
        for (unsigned k = 0; k < len; k++) {
            unsigned v = r.below(10);
            uint32_t size = big == 0 ? r.below(4) : big == 1 ? r.below(cap / 8 + 1) : r.below(cap + 2);
            if (v < 5)
                stim.push_back(rq(HD_ATAB_ALLOC, size, cap, 0, 0, 0));
            else if (v < 7)
                stim.push_back(rq(HD_ATAB_FREE, 0, cap, r.below(16), 0, 0));
            else if (v < 9)
                stim.push_back(rq(HD_ATAB_SPILL, size, cap, r.below(16), r.below(4) ? r.next() : 0xffff,
                                  r.below(3) ? 0 : r.next()));
            else
                stim.push_back(none[0]);
        }
    }
    uint64_t cov[NBINS] = {0};
    auto cover = [&](const TB_IN &, const TB_OUT &out) {
        if (!out.valid_o)
            return;
        if (out.op_o == HD_ATAB_ALLOC)
            cov[out.ok_o ? ALLOC_OK : out.used_o == 16 ? ALLOC_NOENTRY : ALLOC_NOROOM]++;
        else if (out.op_o == HD_ATAB_FREE)
            cov[out.ok_o ? FREE_USED : FREE_UNUSED]++;
        else if (out.op_o == HD_ATAB_SPILL)
            cov[!out.ok_o ? SPILL_NONE : out.nvict_o == 0 ? SPILL_FITS : out.nvict_o == 1 ? SPILL_ONE
                                                                                      : SPILL_MANY]++;
    };
    int rc = tb::run("tb_alloc_table", o, stim, cover, resets);
    unsigned hit = 0;
    std::printf("coverage (answers):\n");
    for (unsigned k = 0; k < NBINS; k++) {
        std::printf("  %-18s %8" PRIu64 "\n", bin_name[k], cov[k]);
        hit += cov[k] != 0;
    }
    std::printf("tb_alloc_table: %u of %u bins covered\n", hit, (unsigned)NBINS);
    return rc != 0 ? rc : hit == NBINS ? 0 : 1;
}
