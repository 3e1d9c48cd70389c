/* SPDX-License-Identifier: MIT
 * exec_ahead.h - run-ahead execution for HAWS (Gong thesis ch. 5, docs/blocks/haws.md §1):
 * execute the instruction at the top of a *shadow* SIMT stack into renamed storage, without
 * touching the warp's architectural state, and later commit that result in order.
 *
 * Design: a run-ahead step runs the instruction's pre-decoded handler on a private copy of the
 * instruction whose register operands are renumbered into a small scratch register file (filled,
 * all 32 lanes, from the episode's latest value of each register: the caller's rename lookup, else
 * the architectural register) and on a private copy of the warp whose SIMT stack is the shadow
 * stack. The destinations' 32 lanes go into a result record (an RCU entry's storage). Nothing of
 * the warp, its CTA, memory or the launch counters changes. The commit writes a result's
 * executed lanes into the architectural registers and advances the real stack as the in-order
 * step would have. Only instructions whose only effects are their destinations (and, for bra,
 * the shadow stack) may run ahead: register-to-register ones, bra, loads; the caller (the hint
 * pass, model/mech/haws/haws_hints.c) guarantees it.
 */
#ifndef HD_FUNC_EXEC_AHEAD_H
#define HD_FUNC_EXEC_AHEAD_H

#include "cta.h"
#include "launch.h"
#include "trace.h"
#include "warp.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_FUNC_AHEAD_DSTS 2 /* destinations of a run-ahead instruction (setp p|q, mov) */

/* A shadow SIMT stack (the thesis's duplicated stack, §3.4). */
struct hd_func_ahead_stack {
    uint32_t sp;
    struct hd_func_simt_entry e[HD_FUNC_SIMT_DEPTH];
};

/* What a run-ahead step produced: an RCU entry's payload. */
struct hd_func_ahead_result {
    uint32_t pc;
    uint32_t active;  /* the shadow top's mask when it executed */
    uint32_t exec;    /* lanes that executed it (active and guard) */
    bool branch;      /* bra: changed the shadow stack, writes nothing */
    uint8_t ndst;
    int32_t reg[HD_FUNC_AHEAD_DSTS];       /* kernel-wide destination registers */
    uint64_t v[HD_FUNC_AHEAD_DSTS][32];    /* their values after it, every lane */
};

/* The episode's latest value of register reg (32 lanes), or NULL: the architectural one. */
typedef const uint64_t *(*hd_func_ahead_lookup)(void *ctx, int32_t reg);

/* True for an instruction that changes the SIMT stack or the warp's life (bra, brx, call, ret,
 * exit, trap, brkpt): it ends a run-ahead chain unless the hint pass selected it (only bra can
 * be). Shared by the hint pass and the timing model's run-ahead. */
bool hd_func_ahead_is_control(const struct hd_func_instr *d);
/* Copy the warp's SIMT stack into s. */
void hd_func_ahead_snapshot(const struct hd_func_warp *w, struct hd_func_ahead_stack *s);
/* The PC and mask at the shadow top; false when the shadow stack is empty. */
bool hd_func_ahead_top(const struct hd_func_ahead_stack *s, uint32_t *pc, uint32_t *mask);
/* Advance the shadow top past its (non-control) instruction without executing it. */
void hd_func_ahead_skip(const struct hd_func_warp *w, struct hd_func_ahead_stack *s);
/* Execute the shadow top's instruction into *out (see above); tr (may be NULL) receives its
 * trace record (a load's addresses, for the timing model's memory operation). Returns HD_FUNC_OK
 * or a negative status (a fault: l->err says where; the caller ends its chain and records
 * nothing). A load reads memory as it is now: the hint pass selects only loads no skipped older
 * store, atomic, barrier or fence precedes (docs/blocks/haws.md §2). */
int hd_func_ahead_step(struct hd_func_launch *l, struct hd_func_cta *c,
                       const struct hd_func_warp *w, struct hd_func_ahead_stack *s,
                       hd_func_ahead_lookup look, void *lctx, struct hd_func_ahead_result *out,
                       struct hd_func_trace *tr);
/* Commit result r as the warp's next in-order step (r->pc must be its next PC with the same
 * active mask; false and nothing changed otherwise), filling tr like hd_func_warp_step. */
bool hd_func_ahead_commit(struct hd_func_launch *l, struct hd_func_warp *w,
                          const struct hd_func_ahead_result *r, struct hd_func_trace *tr);

#endif
