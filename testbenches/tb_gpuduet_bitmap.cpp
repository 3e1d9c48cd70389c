// SPDX-License-Identifier: MIT
// tb_gpuduet_bitmap.cpp - SystemC testbench of gpuduet_bitmap (Verilator --sc): directed first-fit
// cases (a run found after a one-unit hole, runs spanning words, a region filled to the last
// unit, no room, the refused requests, a double free), then seeded random contexts allocated in
// the three regions and freed (whole, partly, twice), with requests presented while busy; the
// stimulus is made by running a private reference (it needs the bases that allocations return).
// Every output compared with the C reference every cycle, a reset mid-stream; every allocation
// also checked against tables/hd_bitmap.h's first fit on a shadow map, every count against the
// shadow's; coverage bins of gpuduet_bitmap_cover.def.
extern "C" {
#include "gpuduet_bitmap.h"
}
#include "Vgpuduet_bitmap.h"
#define HD_PORTS_DEF "gpuduet_bitmap_ports.def"
#define TB_TOP Vgpuduet_bitmap
#define TB_IN struct hd_gpuduet_bitmap_in
#define TB_OUT struct hd_gpuduet_bitmap_out
#define TB_STATE struct hd_gpuduet_bitmap_state
#define TB_REF_RESET hd_gpuduet_bitmap_ref_reset
#define TB_REF_STEP hd_gpuduet_bitmap_ref_step
#define TB_BLOCK hd_gpuduet_bitmap_block
#define TB_REF_IDLE hd_gpuduet_bitmap_ref_idle
#include "tb_harness.h"

#include <deque>

static const unsigned kU = HD_GBM_UNITS;

static TB_IN zero()
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    return in;
}

static TB_IN alloc(unsigned region, unsigned n)
{
    TB_IN in = zero();
    in.al_v_i = 1, in.al_region_i = region, in.al_n_i = n;
    return in;
}

static TB_IN release(unsigned base, unsigned n)
{
    TB_IN in = zero();
    in.fr_v_i = 1, in.fr_base_i = base, in.fr_n_i = n;
    return in;
}

struct Live { unsigned base, n; };

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    std::vector<uint64_t> resets;
    // The private reference: a request is presented when it is idle, and its done reports the
    // bases that later frees name.
    TB_STATE p;
    hd_gpuduet_bitmap_ref_reset(&p);
    std::vector<Live> live;
    Live pending = {0, 0};
    auto step = [&](const TB_IN &in) {
        TB_OUT out;
        if (in.al_v_i && !in.fr_v_i && p.fsm == HD_GBM_IDLE)
            pending.n = (unsigned)in.al_n_i;
        hd_gpuduet_bitmap_ref_step(&p, &in, &out);
        stim.push_back(in);
        if (out.done_v_o && out.done_al_o && out.done_ok_o)
            live.push_back({(unsigned)out.done_base_o, pending.n});
    };
    // Run one request to its end (idle cycles until done), then a read.
    auto op = [&](const TB_IN &in) {
        step(in);
        while (p.fsm != HD_GBM_IDLE)
            step(zero());
        step(zero()); // done_* shows here
        TB_IN rd = zero();
        rd.rd_v_i = 1;
        step(rd);
    };
    step(zero()); // two idle cycles: the idle test must say idle at rest
    step(zero());
    const unsigned rf = hd_gpuduet_bitmap_region_units(HD_GBM_RF);
    const unsigned sm = hd_gpuduet_bitmap_region_units(HD_GBM_SMEM);
    const unsigned l1 = hd_gpuduet_bitmap_region_units(HD_GBM_L1);
    op(alloc(HD_GBM_RF, 4));        // 0
    op(alloc(HD_GBM_RF, 70));       // 4: spans words 0-1
    op(release(0, 4));
    op(alloc(HD_GBM_RF, 3));        // 0
    op(alloc(HD_GBM_RF, 2));        // 74: the one-unit hole at 3 is too small
    op(alloc(HD_GBM_SMEM, sm));     // the whole region
    op(alloc(HD_GBM_SMEM, 1));      // no room
    op(alloc(HD_GBM_L1, l1 + 1));   // larger than the region
    op(alloc(HD_GBM_L1, l1));       // exactly the region
    op(alloc(3, 1));                // refused: region 3
    op(alloc(HD_GBM_RF, 0));        // refused: n = 0
    op(release(kU - 4, 5));         // refused: past the map
    op(release(kU - 4, 0));         // refused: n = 0
    op(release(hd_gpuduet_bitmap_region_lo(HD_GBM_L1), l1)); // the L1D region freed
    op(release(hd_gpuduet_bitmap_region_lo(HD_GBM_L1), 70)); // freed twice: counts unchanged
    op(release(0, rf + sm));        // RF and shared memory at once
    {   // a free and an allocation in one cycle, then requests while busy
        TB_IN in = alloc(HD_GBM_RF, 5);
        in.fr_v_i = 1, in.fr_base_i = 10, in.fr_n_i = 100;
        step(in);
        step(alloc(HD_GBM_RF, 7));
        step(release(0, 8));
        while (p.fsm != HD_GBM_IDLE)
            step(zero());
        step(zero());
    }
    live.clear();
    while (stim.size() < o.cycles) {
        if (resets.empty() && stim.size() >= o.cycles / 2) {
            resets.push_back(stim.size());
            hd_gpuduet_bitmap_ref_reset(&p);
            live.clear();
        }
        TB_IN in = zero();
        bool idle = p.fsm == HD_GBM_IDLE;
        if (idle ? r.below(10) < 7 : r.below(12) == 0) {
            unsigned used = (unsigned)(rf - p.freec[HD_GBM_RF]) + (sm - p.freec[HD_GBM_SMEM]);
            bool fr = !live.empty() && r.below(rf + sm) < used + 64;
            if (fr) {
                unsigned k = r.below((unsigned)live.size());
                Live l = live[k];
                unsigned how = r.below(10);
                if (how == 0) // part of it
                    in = release(l.base + r.below(l.n), 1 + r.below(l.n));
                else if (how == 1) // anywhere
                    in = release(r.below(kU), r.below(3) ? 1 + r.below(100) : r.below(1u << (GPUDUET_BITMAP_AW + 1)));
                else
                    in = release(l.base, l.n);
                if (idle && how != 1 && r.below(8)) // a double free now and then
                    live.erase(live.begin() + k);
            } else {
                unsigned reg = r.below(10);
                reg = reg < 6 ? HD_GBM_RF : reg < 9 ? HD_GBM_SMEM : reg == 9 && r.below(4) == 0 ? 3 : HD_GBM_L1;
                unsigned sz = r.below(8);
                unsigned n = sz < 4 ? 1 + r.below(8) : sz < 7 ? 1 + r.below(96) : r.below(400);
                in = alloc(reg, n);
            }
            if (r.below(20) == 0) { // both in one cycle
                in.al_v_i = 1, in.al_region_i = r.below(3), in.al_n_i = 1 + r.below(20);
            }
        }
        if (r.below(5) == 0)
            in.rd_v_i = 1;
        step(in);
    }
    // The shadow map: first fit and counts from tables/hd_bitmap.h.
    uint64_t words[HD_GBM_WORDS];
    struct hd_bitmap shadow = {words, kU};
    hd_bitmap_clear_all(&shadow);
    std::deque<std::pair<bool, uint32_t>> expect; // {ok, base} of the taken allocations, in order
    uint64_t checked = 0, wrong = 0, cyc = 0, counts = 0;
    bool busy_prev = false;
    auto check = [&](const TB_IN &in, const TB_OUT &out) {
        if (!resets.empty() && cyc == resets[0]) {
            hd_bitmap_clear_all(&shadow);
            expect.clear();
        }
        cyc++;
        (void)busy_prev;
        if (out.done_v_o && out.done_al_o) {
            if (expect.empty()) {
                wrong++;
            } else {
                std::pair<bool, uint32_t> e = expect.front();
                expect.pop_front();
                checked++;
                if (e.first != (out.done_ok_o != 0) || (e.first && e.second != out.done_base_o)) {
                    if (wrong++ < 10)
                        std::printf("tb_gpuduet_bitmap: first fit: done ok %" PRIu64 " base %" PRIu64
                                    ", hd_bitmap says ok %d base %u (cycle %" PRIu64 ")\n",
                                    out.done_ok_o, out.done_base_o, e.first, e.second, cyc - 1);
                }
            }
        }
        if (out.rd_v_o) {
            counts++;
            unsigned fr[3];
            for (unsigned g = 0; g < 3; g++) {
                struct hd_bitmap v = {words + hd_gpuduet_bitmap_region_lo(g) / 64u,
                                      hd_gpuduet_bitmap_region_units(g)};
                fr[g] = hd_gpuduet_bitmap_region_units(g) - hd_bitmap_count(&v);
            }
            // the read shows the map after its edge; the shadow is updated at the request
            // (ops are serial): equal whenever no operation is in flight
            if (!out.busy_o && !in.al_v_i && !in.fr_v_i &&
                (fr[0] != out.rd_free_rf_o || fr[1] != out.rd_free_smem_o || fr[2] != out.rd_free_l1_o)) {
                if (wrong++ < 10)
                    std::printf("tb_gpuduet_bitmap: counts %" PRIu64 "/%" PRIu64 "/%" PRIu64
                                ", shadow %u/%u/%u (cycle %" PRIu64 ")\n", out.rd_free_rf_o,
                                out.rd_free_smem_o, out.rd_free_l1_o, fr[0], fr[1], fr[2], cyc - 1);
            }
        }
        if (out.busy_o)
            return;
        if (in.fr_v_i) {
            if (in.fr_n_i != 0 && in.fr_base_i + in.fr_n_i <= kU)
                hd_bitmap_clear_range(&shadow, (uint32_t)in.fr_base_i, (uint32_t)in.fr_n_i);
        } else if (in.al_v_i) {
            unsigned g = (unsigned)in.al_region_i;
            uint32_t n = (uint32_t)in.al_n_i, at = UINT32_MAX;
            if (g < 3 && n != 0) {
                struct hd_bitmap v = {words + hd_gpuduet_bitmap_region_lo(g) / 64u,
                                      hd_gpuduet_bitmap_region_units(g)};
                at = hd_bitmap_find_clear_run(&v, n, 1);
                if (at != UINT32_MAX) {
                    at += hd_gpuduet_bitmap_region_lo(g);
                    hd_bitmap_set_range(&shadow, at, n);
                }
            }
            expect.push_back({at != UINT32_MAX, at == UINT32_MAX ? 0 : at});
        }
    };
    int rc = tb::run("tb_gpuduet_bitmap", o, stim, check, resets);
    std::printf("tb_gpuduet_bitmap: %" PRIu64 " allocations checked against hd_bitmap's first fit, "
                "%" PRIu64 " count reads, %" PRIu64 " wrong (%u units)\n", checked, counts, wrong, kU);
    return rc != 0 ? rc : wrong == 0 && checked > 100 ? 0 : 1;
}
