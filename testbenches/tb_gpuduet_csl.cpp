// SPDX-License-Identifier: MIT
// tb_gpuduet_csl.cpp - SystemC testbench of gpuduet_csl (Verilator --sc), the context switching
// logic's data mover (Lin thesis §3.11, Eq. 3.1-3.3): a switch-out of 5,120 B (40 registers)
// from the register file to the L1D alone (ceil(5120 / PW) beats), a swap (the stalled warp out,
// the ready warp back the other way), a switch-in waiting while the pipeline holds the shared
// memory's port, the queue filled until a command is refused, refused commands (0 bytes, array
// 3, src = dst, kind 3) once it drained, jobs of PW + 1 bytes; then seeded random commands,
// byte counts over the whole field and just past whole beats,
// pipeline port use in bursts; every output compared with the C reference every cycle, a reset
// mid-stream. Independent checks: each done_* names the oldest accepted job, its beats counted
// from beat_v_o equal ceil(bytes / PW) (+ ceil(bytes2 / PW)), no beat reads or writes an array
// the pipeline held that cycle, and a swap's second part moves the other way; coverage bins of
// gpuduet_csl_cover.def.
extern "C" {
#include "gpuduet_csl.h"
}
#include "Vgpuduet_csl.h"
#define HD_PORTS_DEF "gpuduet_csl_ports.def"
#define TB_TOP Vgpuduet_csl
#define TB_IN struct hd_gpuduet_csl_in
#define TB_OUT struct hd_gpuduet_csl_out
#define TB_STATE struct hd_gpuduet_csl_state
#define TB_REF_RESET hd_gpuduet_csl_ref_reset
#define TB_REF_STEP hd_gpuduet_csl_ref_step
#define TB_BLOCK hd_gpuduet_csl_block
#define TB_REF_IDLE hd_gpuduet_csl_ref_idle
#include "tb_harness.h"

#include <deque>

static TB_IN zero()
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    return in;
}

static TB_IN cmd(unsigned kind, unsigned wid, unsigned src, unsigned dst, unsigned bytes,
                 unsigned bytes2 = 0)
{
    TB_IN in = zero();
    in.cmd_v_i = 1;
    in.cmd_kind_i = kind;
    in.cmd_wid_i = wid;
    in.cmd_src_i = src;
    in.cmd_dst_i = dst;
    in.cmd_bytes_i = bytes;
    in.cmd_bytes2_i = bytes2;
    return in;
}

static unsigned ceil_pw(unsigned b)
{
    return (b + GPUDUET_CSL_PW - 1u) / GPUDUET_CSL_PW;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    const unsigned bmax = (1u << GPUDUET_CSL_BW) - 1u, imax = (1u << GPUDUET_CSL_IW) - 1u;
    std::vector<TB_IN> stim;
    stim.push_back(zero()); // idle cycles: the idle test must say idle at rest
    stim.push_back(zero());
    stim.push_back(cmd(HD_GCSL_OUT, 17, HD_GCSL_RF, HD_GCSL_L1D, 5120)); // 40 registers out
    for (unsigned k = 0; k < 5120 / GPUDUET_CSL_PW + 3; k++)
        stim.push_back(zero());
    stim.push_back(cmd(HD_GCSL_SWAP, 42, HD_GCSL_RF, HD_GCSL_SMEM, 1000, 300)); // a swap
    for (unsigned k = 0; k < 20; k++)
        stim.push_back(zero());
    stim.push_back(cmd(HD_GCSL_IN, 5, HD_GCSL_SMEM, HD_GCSL_RF, 640)); // waits for the port
    for (unsigned k = 0; k < 12; k++) {
        TB_IN x = zero();
        x.busy_i = k < 8 ? 1u << HD_GCSL_SMEM : 1u << HD_GCSL_L1D;
        stim.push_back(x);
    }
    for (unsigned k = 0; k < GPUDUET_CSL_QD + 2; k++) // fill the queue, one more refused
        stim.push_back(cmd(HD_GCSL_OUT, 60 + k, HD_GCSL_RF, HD_GCSL_SMEM, 4096));
    for (unsigned k = 0; k < 200; k++) // the queue drains
        stim.push_back(zero());
    // byte counts one past a beat: 129 B is two beats, a swap of 129 + 129 B four
    stim.push_back(cmd(HD_GCSL_OUT, 9, HD_GCSL_RF, HD_GCSL_L1D, GPUDUET_CSL_PW + 1));
    stim.push_back(cmd(HD_GCSL_SWAP, 10, HD_GCSL_SMEM, HD_GCSL_L1D, GPUDUET_CSL_PW + 1,
                       GPUDUET_CSL_PW + 1));
    for (unsigned k = 0; k < 12; k++)
        stim.push_back(zero());
    for (unsigned k = 0; k < 4; k++) { // refused: 0 bytes, array 3, src = dst, kind 3
        stim.push_back(cmd(HD_GCSL_OUT, 1, HD_GCSL_RF, HD_GCSL_L1D, 0));
        stim.push_back(cmd(HD_GCSL_OUT, 1, 3, HD_GCSL_L1D, 128));
        stim.push_back(cmd(HD_GCSL_IN, 1, HD_GCSL_L1D, 3, 128));
        stim.push_back(cmd(HD_GCSL_IN, 1, HD_GCSL_SMEM, HD_GCSL_SMEM, 128));
        stim.push_back(cmd(3, 1, HD_GCSL_RF, HD_GCSL_L1D, 128));
    }
    for (unsigned k = 0; k < 250; k++)
        stim.push_back(zero());
    std::vector<uint64_t> resets;
    unsigned burst = 0, bmask = 0;
    while (stim.size() < o.cycles) {
        size_t c = stim.size();
        if (c == o.cycles / 2)
            resets.push_back(c);
        TB_IN x = zero();
        if (r.below(30) == 0) {
            unsigned src = r.below(10) == 0 ? 3 : r.below(3), dst = r.below(10) == 0 ? 3 : r.below(3);
            unsigned big = r.below(16) == 0 ? bmax : 40u * 128u;
            unsigned b = r.below(20) == 0 ? 0 : r.below(8) == 0 ? 1 + GPUDUET_CSL_PW * r.below(4) : 1 + r.below(big);
            x = cmd(r.below(16) == 0 ? 3 : r.below(3), r.below(imax + 1), src, dst, b,
                    r.below(8) == 0 ? 1 + GPUDUET_CSL_PW * r.below(4) : r.below(big + 1));
        }
        if (burst == 0) {
            burst = 1 + r.below(12);
            bmask = r.below(3) == 0 ? r.below(8) : 0;
        }
        burst--;
        x.busy_i = bmask;
        stim.push_back(x);
    }
    struct Job {
        unsigned wid, kind, beats, first, src, dst; // first: the beats of the src -> dst part
    };
    std::deque<Job> jobs;
    bool pend = false;
    Job pj{};
    unsigned beats = 0, prev_busy = 0;
    uint64_t dones = 0, wrong = 0, swaps = 0;
    size_t cyc = 0;
    auto bad = [&](const char *what) {
        if (wrong++ < 10)
            std::printf("tb_gpuduet_csl: cycle %zu: %s\n", cyc, what);
    };
    auto check = [&](const TB_IN &i, const TB_OUT &out) {
        if (!resets.empty() && cyc == resets[0]) {
            jobs.clear();
            pend = false;
            beats = 0;
            prev_busy = 0;
        }
        cyc++;
        if (out.beat_v_o) {
            beats++;
            if ((prev_busy >> out.beat_src_o & 1u) || (prev_busy >> out.beat_dst_o & 1u))
                bad("a beat through a port the pipeline held");
            if (jobs.empty())
                bad("a beat with no job accepted");
            else {
                const Job &j = jobs.front();
                const bool back = beats > j.first; // a swap's second part: the other way
                if (out.beat_src_o != (back ? j.dst : j.src) || out.beat_dst_o != (back ? j.src : j.dst))
                    bad("a beat in the wrong direction");
            }
        }
        if (out.done_v_o) {
            if (jobs.empty()) {
                bad("done with no job accepted");
            } else {
                const Job &j = jobs.front();
                if (out.done_wid_o != j.wid || out.done_kind_o != j.kind || beats != j.beats)
                    bad("done: not the oldest job, or not ceil(bytes / PW) beats");
                swaps += j.kind == HD_GCSL_SWAP && j.beats > j.first;
                jobs.pop_front();
            }
            dones++;
            beats = 0;
        }
        if (pend && !out.drop_o)
            jobs.push_back(pj);
        pend = false;
        if (i.cmd_v_i) {
            pend = true;
            unsigned b2 = i.cmd_kind_i == HD_GCSL_SWAP ? (unsigned)i.cmd_bytes2_i : 0;
            pj = Job{(unsigned)i.cmd_wid_i, (unsigned)i.cmd_kind_i,
                     ceil_pw((unsigned)i.cmd_bytes_i) + ceil_pw(b2), ceil_pw((unsigned)i.cmd_bytes_i),
                     (unsigned)i.cmd_src_i, (unsigned)i.cmd_dst_i};
        }
        prev_busy = (unsigned)i.busy_i;
    };
    int rc = tb::run("tb_gpuduet_csl", o, stim, check, resets);
    std::printf("tb_gpuduet_csl: %" PRIu64 " jobs done (%" PRIu64 " swaps) checked against a "
                "software queue, %" PRIu64 " wrong\n", dones, swaps, wrong);
    if (hd_gpuduet_csl_beats(5120, 0) != ceil_pw(5120) || hd_gpuduet_csl_beats(1, 129) != 1 + ceil_pw(129))
        rc = 1;
    return rc != 0 ? rc : wrong == 0 && dones > 100 ? 0 : 1;
}
