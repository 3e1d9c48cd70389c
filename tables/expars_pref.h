/* SPDX-License-Identifier: MIT
 * expars_pref.h - bit-exact, cycle-exact C reference of EXPARS's register prefetcher (Yu et al.
 * TACO 2018 §3.3.4, L93-L95, L210-L212, L220, L234; digest ../shared/reference/papers/expars.md
 * §2.5, §2.8, §3.1; RTL rtl/expars_pref/expars_pref.sv), one per SM. The model's prefetcher
 * (model/mech/expars/expars_rp.c) runs this reference: its queue, BVT, set probe and transfer
 * timing are the block's, not a copy.
 *
 * What it holds.
 *   BVT    the register bit-vector table: per warp slot the PREF vector of the bundle it entered
 *          (NR bits, bit r = register r; 48 x 63 bits = 378 B on the paper's Fermi SM), written
 *          by the decoder in 64-bit words;
 *   queue  the prefetching queue (§2.8): warp slots in order, the head served first; a warp that
 *          completed a bundle before goes to the front (L210), a new one to the back;
 *   FSM    one fetch in flight (§8 item 16): the warp, the cycle it lands (`done`), and the cycle
 *          the head started waiting for room (`since`, for the deadlock breaker);
 *   lists  per queued warp its registers to fetch, made at its PUSH (the taken-register table),
 *          and the head's, copied when the warp became the head (a register of the block, so
 *          that a TICK only counts registered bits per set: the timing fix of session 18).
 * What it decides (one request per edge, op_i):
 *   BVT   write word idx_i of warp_i's vector.
 *   PUSH  warp_i entered its bundle: its scratchpad registers are the first Need registers
 *         r >= start_i (the RAT's Start_Reg) set in its vector, ascending. None: n_o = 0 and the
 *         warp is schedulable at once; else it is queued (front_i: at the front), n_o is their
 *         number. The list is made here, from the vector and start_i of this PUSH, and kept
 *         until the warp starts: a later BVT write or Start_Reg does not change it (before
 *         session 18 the list was made at each TICK from the vector and TICK's start_i; the
 *         same answers in the model, which writes a warp's PREF only after it left the queue
 *         and whose Start_Reg is fixed while warps are queued; the loop stops with a located
 *         message if a BVT write hits a queued warp: expars_loop_pref.c).
 *   DROP  warp_i left its bundle or the SM: out of the queue, and its fetch cancelled if in
 *         flight (dropped_o: bit 0 was queued, bit 1 was in flight).
 *   TICK  the prefetcher's cycle at now_i (start_i unused), given the operand cache's line
 *         status (lines_i: valid, pinned, warp, register per line). A fetch in flight
 *         that has not landed: busy_o. One that landed: its warp is released (rel_v_o,
 *         rel_warp_o). Then the head warp, if any: the set probe asks whether every needed
 *         register fits its set in the lines that are free, unpinned or the warp's own (per
 *         set: registers to fetch + registers it holds <= such lines). If not, conflict_o: it
 *         waits (head-of-line blocking, as the paper) until it has waited Limit cycles, then
 *         steal_o: the blocking lines are to be unpinned by force (§8 item 15) and it starts.
 *         Starting: start_v_o, warp_o, n_o and need_o (the registers, ascending); the head
 *         leaves the queue and the fetch is in flight.
 *   DONE  the fetch just started took n_i scratchpad transfers (fills and dirty victims'
 *         write-backs, the tag array's answers): it lands at now_i + n_i + lat_i, or now_i + 1
 *         when every register hit (n_i = 0).
 * Cycles are NW-bit stamps compared as signed differences (2^31 cycles at NW = 32). Within a
 * model cycle the requests come in the model's order; the answer is registered (latency 1), 0
 * after an edge without a request; qn_o (the queue's length) follows every request.
 * Geometry at run time (the model's [expars] oc_lines, oc_ways, the SM's warps): sets =
 * lines / ways, a register's set is reg mod sets, set s is lines [s ways, (s+1) ways). The
 * block's (configs/rtl/expars_pref.ini) is fixed. Interface: rtl/expars_pref/expars_pref_ports.def.
 */
#ifndef HD_EXPARS_PREF_H
#define HD_EXPARS_PREF_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "expars_pref_ports.def"
#define HD_PORTS_DIR IN
struct hd_expars_pref_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_expars_pref_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#define HD_EXPARS_PREF_MAX_WARPS 64
#define HD_EXPARS_PREF_MAX_WORDS 4 /* 256-register vectors */
#define HD_EXPARS_PREF_MAX_LINES 64 /* (the model's operand cache: HD_EXPARS_OC_MAX_LINES) */
#define HD_EXPARS_PREF_MAX_NEED 64  /* registers fetched for one bundle at most */

#ifndef __cplusplus
_Static_assert(EXPARS_PREF_Warps <= HD_EXPARS_PREF_MAX_WARPS &&
                   EXPARS_PREF_Warps <= (1 << EXPARS_PREF_WW) && EXPARS_PREF_Warps >= 2 &&
                   EXPARS_PREF_NR % 64 == 0 && EXPARS_PREF_NR <= 64 * HD_EXPARS_PREF_MAX_WORDS &&
                   EXPARS_PREF_NR <= (1 << EXPARS_PREF_RW) &&
                   EXPARS_PREF_NR / 64 <= (1 << EXPARS_PREF_IW) &&
                   EXPARS_PREF_Lines <= HD_EXPARS_PREF_MAX_LINES &&
                   EXPARS_PREF_Ways >= 1 && EXPARS_PREF_Lines % EXPARS_PREF_Ways == 0 &&
                   EXPARS_PREF_Need <= HD_EXPARS_PREF_MAX_NEED && EXPARS_PREF_NW <= 32 &&
                   EXPARS_PREF_Limit >= 1 && EXPARS_PREF_Limit < (1ull << (EXPARS_PREF_NW - 1)) &&
                   2 * EXPARS_PREF_Need < (1 << EXPARS_PREF_KW),
               "expars_pref: parameters");
#endif

enum hd_expars_pref_op { HD_EXPARS_PREF_BVT, HD_EXPARS_PREF_PUSH, HD_EXPARS_PREF_DROP,
                         HD_EXPARS_PREF_TICK, HD_EXPARS_PREF_DONE };

/* One line of the operand cache as the set probe sees it (the tag array's state). */
struct hd_expars_pref_line {
    bool valid, pinned;
    uint32_t warp, reg;
};

/* The prefetcher at a run-time geometry. */
struct hd_expars_pref {
    uint32_t nwarps, nlines, ways, words, need, limit;
    uint64_t bvt[HD_EXPARS_PREF_MAX_WARPS][HD_EXPARS_PREF_MAX_WORDS];
    uint32_t q[HD_EXPARS_PREF_MAX_WARPS], qn; /* q[0] is the head */
    uint16_t tk_need[HD_EXPARS_PREF_MAX_WARPS][HD_EXPARS_PREF_MAX_NEED]; /* a queued warp's */
    uint32_t tk_n[HD_EXPARS_PREF_MAX_WARPS];  /* registers to fetch, made at its PUSH */
    uint16_t hd_need[HD_EXPARS_PREF_MAX_NEED]; /* the head's (the block's register) */
    uint32_t hd_n;
    bool busy;
    uint32_t warp, done;                      /* the fetch in flight */
    bool stall;
    uint32_t since;                           /* the head waits since */
};

struct hd_expars_pref_req {
    unsigned op;
    uint32_t warp, idx, start, now, n, lat;
    uint64_t word;
    bool front;
    const struct hd_expars_pref_line *lines; /* TICK: [nlines] */
};

struct hd_expars_pref_ans {
    bool busy, rel, conflict, steal, start;
    uint32_t rel_warp, warp, n, dropped, qn;
    uint16_t need[HD_EXPARS_PREF_MAX_NEED];
};

/* Empty: no vector, no queue, no fetch. words = vector words of 64 registers; need = registers
 * fetched for one bundle at most; limit = cycles the head waits before it steals. */
void hd_expars_pref_init(struct hd_expars_pref *p, uint32_t nwarps, uint32_t nlines,
                         uint32_t ways, uint32_t words, uint32_t need, uint32_t limit);
/* Apply one request (the block's edge) and say what it answers. */
void hd_expars_pref_apply(struct hd_expars_pref *p, const struct hd_expars_pref_req *r,
                          struct hd_expars_pref_ans *a);
/* Is warp slot w in the queue / the fetch in flight? (state read, no request) */
bool hd_expars_pref_queued(const struct hd_expars_pref *p, uint32_t w);
static inline bool hd_expars_pref_in_flight(const struct hd_expars_pref *p, uint32_t w)
{
    return p->busy && p->warp == w;
}

extern const struct hd_block_desc hd_expars_pref_block;

struct hd_expars_pref_state {
    struct hd_expars_pref p;
    struct hd_expars_pref_out q;
    uint64_t cycle;
};

void hd_expars_pref_ref_reset(struct hd_expars_pref_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_expars_pref_ref_step(struct hd_expars_pref_state *s, const struct hd_expars_pref_in *in,
                             struct hd_expars_pref_out *out);
/* Idle (hw_inst.h): no request and nothing in the output registers. */
bool hd_expars_pref_ref_idle(const struct hd_expars_pref_state *s,
                             const struct hd_expars_pref_in *in);
/* The block's port packing (the loop and the testbench): lines_i from line status, and the
 * answer as the block's outputs. */
void hd_expars_pref_pack_lines(struct hd_expars_pref_in *in,
                               const struct hd_expars_pref_line *lines, uint32_t nlines);
void hd_expars_pref_pack_ans(struct hd_expars_pref_out *o, const struct hd_expars_pref_ans *a);

#endif
