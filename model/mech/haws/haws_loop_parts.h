/* SPDX-License-Identifier: MIT
 * haws_loop_parts.h - what the two halves of the HAWS blocks' loop share (haws_loop.h; Gong thesis
 * ch.5 §5.2.4-5.2.6; docs/blocks/haws.md §9-10): haws_loop.c (creation, the result collection
 * unit and the rename table, their events and decisions, one checked edge) and haws_loop_ctl.c
 * (the shadow SIMT stack and the warp controller: their events, read-outs and decisions).
 * Internal to model/mech/haws.
 */
#ifndef HD_HAWS_LOOP_PARTS_H
#define HD_HAWS_LOOP_PARTS_H

#include "haws_loop.h"
#include "haws_rcu.h"
#include "haws_rename.h"
#include "haws_shadow_stack.h"
#include "haws_warp_ctl.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The blocks of one warp slot (append a kind here, in hd_haws_loop_kinds[] and an event
 * function). */
enum { K_RCU, K_REN, K_SHADOW, K_CTL, K_COUNT };

struct hd_haws_loop_kind {
    const char *block, *what;
    size_t in_size, out_size;
};
extern const struct hd_haws_loop_kind hd_haws_loop_kinds[K_COUNT];

/* What the engine's events say one warp's blocks hold. */
struct mirror {
    /* the RCU, a ring as the block's */
    uint32_t off[HD_HAWS_RCU_DEPTH], dst[HD_HAWS_RCU_DEPTH], ren[HD_HAWS_RCU_DEPTH];
    bool val[HD_HAWS_RCU_DEPTH], rdy[HD_HAWS_RCU_DEPTH], ctl[HD_HAWS_RCU_DEPTH];
    uint64_t ready_at[HD_HAWS_RCU_DEPTH]; /* an ALU entry's write-back cycle not yet applied
                                             (UINT64_MAX: none) */
    uint32_t head, tail, cnt;
    /* the register mapping: register -> its newest entry */
    uint32_t morig[HD_HAWS_RENAME_N], mloc[HD_HAWS_RENAME_N];
    unsigned nmap;
    uint64_t look_hit, look_loc; /* the lookup the last rename edge registered */
};

struct warp {
    struct hd_hw_inst x[K_COUNT];
    uint64_t last[K_COUNT]; /* the last edge's stamp */
    struct mirror m;
    unsigned nwb;           /* entries with a write-back due */
    /* the shadow stack's and the warp controller's registered outputs after their last edge
     * (each request edge is followed by a read-out edge: request()) */
    struct hd_haws_shadow_stack_out ss;
    struct hd_haws_warp_ctl_out wc;
};

struct hd_haws_loop {
    const struct hd_hw_factory *const *hw;
    uint32_t nsms, nslots;
    struct warp *w; /* [nsms * nslots] */
    bool made, failed, faulted;
    int fault_kind; /* the block whose next check [haws] blocks_fault corrupts (-1: none) */
    uint64_t fault, steps;
    const char *ev; /* the event being applied (for the error) */
    char err[1024];
};

/* Step block k of warp (sm, slot) with in; out = its outputs (the RCU's and the rename table's
 * checked against what the events say they hold). Returns 0, or -1 (L->failed, L->err located). */
int hd_haws_loop_edge(struct hd_haws_loop *L, uint32_t sm, uint32_t slot, unsigned k,
                      const void *in, void *out, uint64_t now);
/* The shadow stack's and the warp controller's part of event e (haws_loop_ctl.c). */
int hd_haws_loop_on_ctl(struct hd_haws_loop *L, uint32_t sm, uint32_t slot,
                        const struct hd_ahead_event *e, uint64_t now);

#endif
