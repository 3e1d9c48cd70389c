/* SPDX-License-Identifier: MIT
 * sm_impl.h - the SM's state and the functions its stages share (internal to model/timing's
 * sm*.c files).
 *
 * Design: all mutable state of an SM is in struct hd_sm and the arrays it owns, allocated once
 * at creation (the scoreboards grow when a kernel with more registers arrives; the event pool
 * doubles if ever exhausted); nothing is allocated per instruction. Warps, CTAs, collector units,
 * load trackers and events refer to each other by index, never by address, so a warp's timing
 * state can be saved and restored as bytes. One file per stage:
 *   sm.c         creation, CTA placement and retirement, the tick, reports
 *   sm_warp.c    warp states, state counts, the oldest warp, stall reasons
 *   sm_issue.c   the schedulers' issue stage (functional step, scoreboard, ibuffer)
 *   sm_fetch.c   instruction fetch, the instruction cache and decode
 *   sm_opcoll.c  collector units, banked register reads, dispatch, result bus, events
 *   sm_ldst.c    the load/store unit: coalescing, shared-memory banks, requests, responses
 *   sm_residency.c  warps leaving and returning alone, logical capacities (sm_residency.h)
 *   model/ctx    the context engine (ctx_engine.h): suspend, save/restore, resume, flush, and
 *                memory responses for warps that moved (docs/context.md)
 */
#ifndef HD_SM_IMPL_H
#define HD_SM_IMPL_H

#include "cta.h"
#include "ctx_engine.h"
#include "ctx_pool.h"
#include "exec.h"
#include "mech.h"
#include "mem_tags.h"
#include "sm.h"
#include "sm_oloc.h"
#include "sm_residency.h"
#include "sm_sched.h"
#include "trace.h"

#define HD_SM_NONE UINT32_MAX
#define HD_MEMOP_MAX_REQ 128
/* The "PC" a spill fill's collector, load tracker and writeback carry: this bit | the register
 * it fills (sm_spill.c), so the scoreboard release frees that register alone. */
#define HD_PC_SPILL 0x80000000u
/* ... a HAWS run-ahead load's: this bit | episode << 8 | RCU entry (sm_ahead.c): no scoreboard
 * marks; its writeback makes the RCU entry ready. */
#define HD_PC_AHEAD 0x40000000u

/* {==== Warps ==== */
enum hd_wstate {
    HD_WS_EMPTY,   /* slot not in use */
    HD_WS_FETCH,   /* no decoded instruction (fetch, icache miss, decode) */
    HD_WS_BARRIER, /* waiting at a CTA barrier */
    HD_WS_MEMBAR,  /* fence: waiting for its memory operations */
    HD_WS_SB_MEM,  /* next instruction needs a register a load will write */
    HD_WS_SB_ALU,  /* ... a register an ALU instruction will write */
    HD_WS_READY,   /* may issue if its collector unit is free */
    HD_WS_DRAIN,   /* all threads exited; waiting for its instructions in flight */
    HD_WS_SUSPENDED, /* stopped for a context switch or flush, or waiting for its restore */
    /* warp-granular residency (sm_residency.c): a warp of a resident CTA without its slot */
    HD_WS_LEAVING,   /* switched out, its context still moving out: its slot not yet free
                        (only in its context's saved state, never in a slot) */
    HD_WS_ABSENT,    /* switched out and stored: may return when a slot is free (ditto) */
    HD_WS_RETURNING, /* in a slot again, its context still moving in: issues nothing */
    HD_WS_COUNT
};

/* scoreboard marks: a pending write to the register by ... */
enum { HD_SB_FREE = 0, HD_SB_ALU = 1, HD_SB_SHORT = 2 /* shared/const load */, HD_SB_LONG = 3,
       HD_SB_MISS = 4 /* a long load whose L1D lookup missed (sm_signals.c; only while a hook
                         takes stall events): counts as LONG everywhere (test >= HD_SB_LONG) */ };

struct hd_twarp {
    struct hd_func_warp *fw;   /* functional state (in the CTA) */
    uint32_t cta;              /* CTA slot */
    uint32_t slot, sched;
    uint64_t age;              /* smaller is older (GTO) */
    uint8_t state;             /* enum hd_wstate */
    bool done;                 /* every thread exited */
    bool membar;               /* a fence waits for mem_out == 0 and no pending loads */
    bool fetch_busy;           /* an instruction-cache access or decode is under way */
    bool susp;                 /* its CTA is suspended or restoring: it issues and fetches nothing */
    bool to_pp;                /* told to switch out: runs on to its next preemption point (ctx_points.c) */
    uint32_t pp_at;            /* 1 + PC of the preemption point pp_decode last decoded for it, or 0 */
    uint32_t pp_virt_pc;       /* 1 + PC whose pp / dummy issue slots are being taken, or 0 */
    uint8_t pp_virt_left;      /* of those, still to issue before the instruction at that PC */
    uint32_t sp_fill_pc;       /* 1 + PC whose spill fills are being issued (sm_spill.c), or 0 */
    uint16_t sp_fill;          /* ... how many of them have issued */
    uint16_t sp_store;         /* spill stores of sp_store_pc issued so far */
    uint32_t sp_store_pc;      /* 1 + PC of an issued instruction whose spill stores are due, or 0 */
    uint32_t sp_store_mask;    /* ... the lanes that executed it */
    uint32_t ib_pc, ib_n;      /* decoded instructions [ib_pc, ib_pc + ib_n) */
    uint32_t fetch_pc;         /* next PC to fetch */
    uint64_t fetch_after;      /* no fetch before this cycle (branch / divergence penalty) */
    uint32_t fetch_line;       /* instruction-cache line a missed fetch waits for */
    uint8_t *sb;               /* [sb_cap] pending-write mark per kernel-wide register */
    uint32_t sb_cap;
    uint32_t sb_long;          /* registers waiting for long-latency loads */
    uint32_t sb_pending;       /* registers with any pending write */
    uint32_t inflight;         /* its instructions in collectors, pipelines or memory */
    uint32_t mem_out;          /* its memory requests dispatched and not completed */
    uint32_t lt_out;           /* its loads waiting in load trackers (part of inflight) */
    uint64_t *stall_ctr;       /* derived: the per-line stall counter of its next PC (or a
                                  sink); rebuilt on restore */
    bool returning;            /* switched back in, its context moving in (susp is set too) */
    uint64_t t_stop;           /* cycle it last stopped for a switch (at its preemption point,
                                  or at once without points): where Lin's per-warp spill
                                  latency starts (L1079; ctx_engine.c) */
};
/* }==== */

/* {==== CTAs ==== */
struct hd_tcta {
    bool used;
    struct hd_sm_launch *la;
    struct hd_ctx *ctx;                 /* its context (ctx_pool.h) */
    struct hd_func_cta *fc;             /* = &ctx->fc, the functional CTA */
    struct hd_cta_grant grant;
    uint64_t obs_releases, obs_start;   /* gpu_observe.c: barrier releases seen, of CTA start */
    uint32_t live;                      /* warps not yet drained */
    uint64_t start;
};
/* }==== */

/* {==== Operand collector and memory operations ==== */
enum hd_memop_kind { HD_MO_NONE, HD_MO_SHARED, HD_MO_CONST, HD_MO_GLOBAL };

struct hd_memop {                /* a memory instruction after address generation */
    uint8_t kind;                /* enum hd_memop_kind */
    uint8_t req_kind;            /* enum hd_mem_kind of its requests */
    uint8_t space;               /* GLOBAL or LOCAL; CONST or PARAM (constant-cache requests) */
    bool has_dst;
    uint8_t flags;               /* enum hd_mem_flag of its requests */
    uint32_t degree;             /* shared: cycles (max distinct words in a bank); const: the
                                    distinct addresses (cycles of the constant cache) */
    uint32_t nreq;
    uint32_t req_bytes;
    uint64_t req[HD_MEMOP_MAX_REQ];
    uint64_t sectors[HD_MEMOP_MAX_REQ]; /* per request: the 32-byte sectors touched */
    uint8_t cls;                 /* enum hd_mem_class of its requests (DEMAND; SWAP: a shared
                                    access whose scratchpad set a mechanism keeps in memory) */
    /* shared: what the mechanisms' smem_access hook is told (mech.h; filled only while some
       hook has it) */
    uint32_t sh_exec, sh_bytes;
    uint32_t sh_addr[32];        /* each lane's byte offset in its CTA's shared memory */
};

struct hd_cu {
    bool busy;
    uint8_t unit;                /* enum hd_tunit */
    uint8_t cls;                 /* enum hd_tclass */
    uint8_t nread;               /* bank reads still to do */
    bool has_dst;
    uint32_t warp, pc;
    uint64_t alloc_cycle, ready_at;
    uint16_t lat;                /* operand-location latency (sm_oloc.h), 0 by default */
    uint16_t stage;              /* its pipelined lookup stage (sm_oloc.h hd_oloc.stage) */
    uint16_t bank[HD_TK_MAX_WORDS]; /* read ports: a bank, or an sm_oloc.h port after them */
    uint32_t memop;              /* index in sm->memops (memory CUs) */
};

struct hd_ldst {                 /* one load/store unit */
    uint64_t busy_until;
    struct hd_memop op;
    uint32_t next;               /* next request of op to send */
    uint32_t warp;
    uint32_t tracker;            /* load tracker of op, or HD_SM_NONE */
    uint32_t launch_id;
    uint64_t send_at;            /* its first request is sent no earlier (a mechanism's lookup
                                    before a swapped shared access, mech.h smem_access) */
};

struct hd_load_tracker {
    uint64_t ref;                /* the warp (packed struct hd_wref, mem_tags.h) */
    uint32_t pc, remaining, next_free;
    uint8_t mark;
    bool l1_miss;                /* a request of it missed the L1D (sm_signals.c; kept only while
                                    a hook takes stall or load events) */
};

enum hd_ev_type { HD_EV_WB, HD_EV_DECODE };
struct hd_event {
    uint32_t next;
    uint32_t warp, pc, n;        /* WB: release writes of code[pc]; DECODE: ibuffer [pc, pc+n) */
    uint8_t type;
};
/* }==== */

/* {==== The instruction cache ==== */
struct hd_icache_fill {
    bool busy;
    uint64_t line;
};
/* }==== */

struct hd_sm {
    const struct hd_sm_params *p;
    uint32_t id;
    struct hd_mem *mem;
    struct hd_sm_stats *st;
    struct hd_sched_stats *sst;
    struct hd_sm_alloc alloc;
    /* warps and CTAs */
    struct hd_twarp *w;          /* [max_warps] */
    struct hd_tcta *cta;         /* [max_ctas] */
    uint32_t nwarps, nctas;      /* resident */
    uint64_t next_age;
    uint32_t words;              /* 64-bit words of a warp bitset */
    uint64_t *ready;             /* [words] READY warps */
    uint64_t *sched_mask;        /* [num_sched * words] the slots of each scheduler (slot % num_sched) */
    uint64_t *need_fetch;        /* [words] warps with an empty ibuffer that may fetch */
    uint32_t fetch_rr;
    /* schedulers */
    struct hd_sched *sched;      /* [num_sched] */
    uint32_t (*nstate)[HD_WS_COUNT]; /* [num_sched] warps per state */
    uint32_t *oldest;            /* [num_sched] oldest resident warp, or HD_SM_NONE */
    uint8_t *last_stall;         /* [num_sched] stall reason of the last cycle (for skips) */
    uint32_t *order_buf, *ready_buf; /* [max_warps] scratch */
    /* launches resident (kernel mixing) */
    struct hd_sm_launch **res_la;/* [max_ctas] distinct resident launches */
    uint32_t *res_n;             /* [max_ctas] their CTA counts */
    uint32_t nres;
    /* instruction cache */
    uint64_t *ic_tag;            /* [sets * ways], UINT64_MAX = invalid */
    uint64_t *ic_lru;            /* [sets * ways] last use stamp */
    uint64_t ic_stamp;
    struct hd_icache_fill *fills;/* [max_warps] outstanding line fills */
    uint32_t nfills;
    /* operand collectors */
    struct hd_cu *cu;            /* all collector units, grouped by unit type */
    uint32_t cu_first[HD_TU_COUNT], ncu;
    uint32_t *cu_order;          /* busy CUs in allocation order */
    uint32_t ncu_order;
    uint32_t cu_free[HD_TU_COUNT];
    struct hd_memop *memops;     /* [ncu] (used by memory CUs) */
    struct hd_oloc_slot oloc;    /* operand-location policy (ops NULL: the register file) */
    uint64_t *bank_stamp;        /* [reg_banks + HD_OLOC_MAX_PORTS] cycle of bank_cnt */
    uint8_t *bank_cnt;
    /* execution */
    uint64_t *unit_free[HD_TU_COUNT]; /* [units[u]] first cycle each pipeline accepts again */
    uint32_t wheel_mask;
    uint64_t *wb_stamp;          /* [wheel] cycle of wb_cnt */
    uint8_t *wb_cnt;
    uint32_t *wheel_head, *wheel_tail; /* [wheel] event lists */
    struct hd_event *ev;
    uint32_t ev_cap, ev_free, nev;
    struct hd_ldst *ldst;        /* [units[MEM]] */
    struct hd_load_tracker *lt;  /* [max_loads] */
    uint32_t lt_free, nlt;
    struct hd_mem_req *rx;       /* receive buffer */
    uint32_t *sh_word;           /* [shared_banks] bank-conflict scratch: first word per bank */
    uint32_t *sh_cnt;            /* distinct words per bank */
    uint64_t *sh_stamp, sh_serial;
    /* outbox: finished CTAs */
    struct hd_sm_launch **retired;
    uint32_t nretired;
    /* context lifecycle (ctx_engine.c) */
    struct hd_ctx_pool *pool;
    const struct hd_ctx_params *cp;
    struct hd_ctx_engine *ce;    /* its context engine (model/ctx/ctx_engine.h) */
    const struct hd_hw_factory *const *hw; /* the GPU's block factory (NULL: C references) */
    const struct hd_hooks *hooks; /* the mechanisms' hooks (mech.h; none until the GPU sets them) */
    bool retiring;               /* retire_cta is vacating a finished CTA's slot */
    struct hd_func_trace tr;     /* scratch trace record */
    uint64_t stall_sink;         /* stall_ctr of warps without a next PC */
    uint64_t last_tick;
    int fault;                   /* a response found a warp's counts at 0 (HD_FUNC_OK: none) */
    char fault_msg[224];         /* ... where: SM, context, warp, cycle (hd_sm_tick reports it) */
    struct hd_oloc_sm *olx;      /* operand locations that can miss (sm_oloc_port.c; NULL: none) */
    struct hd_sm_res *wr;        /* warp-granular residency (sm_residency.c), NULL: none yet */
    struct hd_sm_ahead *ah;      /* HAWS run-ahead (sm_ahead.c), NULL: no hint source attached */
};

/* {==== sm.c ==== */
/* Recompute warp w's state after anything about it changed (sm_warp.c). */
void hd_sm_warp_eval(struct hd_sm *sm, struct hd_twarp *w, uint64_t now);
/* Set warp w's state to ns: state counts, READY bit, the scheduler's long-wait notice. */
void hd_sm_warp_set_state(struct hd_sm *sm, struct hd_twarp *w, uint8_t ns);
/* Recompute scheduler s's oldest resident warp. */
void hd_sm_update_oldest(struct hd_sm *sm, uint32_t s);
/* Bind warp i of CTA slot c to its slot (grant.warp_slot[i]) with its saved timing state (NULL:
 * fresh); susp keeps it from issuing. Returns a status (host OOM for its scoreboard). */
int hd_sm_warp_bind(struct hd_sm *sm, struct hd_tcta *c, uint32_t i, const struct hd_twarp *saved,
                    bool susp, uint64_t now, char *err, size_t errlen);
/* Take warp w out of its slot (scheduler, state counts, resident warps). */
void hd_sm_warp_unbind(struct hd_sm *sm, struct hd_twarp *w);
/* Give CTA slot c's allocation back (finished, or its context left the SM). */
void hd_sm_cta_vacate(struct hd_sm *sm, struct hd_tcta *c, uint64_t now);
/* Called when a warp may have finished draining (done, nothing in flight). */
void hd_sm_warp_check_drained(struct hd_sm *sm, struct hd_twarp *w, uint64_t now);
/* Count scheduler s's stall reason for this cycle (it issued nothing). */
void hd_sm_count_stall(struct hd_sm *sm, uint32_t s);
static inline const struct hd_func_kernel *hd_sm_warp_kernel(const struct hd_sm *sm,
                                                             const struct hd_twarp *w)
{
    return sm->cta[w->cta].la->l->k;
}
static inline void hd_bit_set(uint64_t *b, uint32_t i, bool v)
{
    if (v)
        b[i / 64] |= 1ull << (i % 64);
    else
        b[i / 64] &= ~(1ull << (i % 64));
}
/* }==== */

/* {==== sm_issue.c ==== */
bool hd_sm_issue(struct hd_sm *sm, uint64_t now, int *status, char *err, size_t errlen);
/* Release the scoreboard marks of code[pc]'s destinations for warp w. */
void hd_sm_sb_release(struct hd_sm *sm, struct hd_twarp *w, uint32_t pc);
/* The same for a warp of kernel k wherever its timing state is (a slot or a saved context). */
void hd_twarp_sb_release(const struct hd_func_kernel *k, struct hd_twarp *w, uint32_t pc);
/* }==== */

/* {==== sm_fetch.c ==== */
int hd_sm_icache_init(struct hd_sm *sm);
bool hd_sm_fetch(struct hd_sm *sm, uint64_t now);
/* An instruction-cache line arrived (tag from a request). */
void hd_sm_icache_fill(struct hd_sm *sm, uint32_t fill, uint64_t now);
/* The warp's fetch state after its ibuffer emptied or was flushed. */
void hd_sm_fetch_reset(struct hd_sm *sm, struct hd_twarp *w, uint32_t pc);
/* }==== */

/* {==== sm_opcoll.c ==== */
int hd_sm_opcoll_init(struct hd_sm *sm);
/* A free collector unit for unit type u, or HD_SM_NONE. */
uint32_t hd_sm_cu_find(const struct hd_sm *sm, uint8_t u);
/* Take CU c for warp w's instruction at pc (timing view ti). */
void hd_sm_cu_alloc(struct hd_sm *sm, uint32_t c, struct hd_twarp *w, uint32_t pc,
                    const struct hd_tinstr *ti, bool has_dst, uint64_t now);
bool hd_sm_dispatch(struct hd_sm *sm, uint64_t now);
bool hd_sm_read_operands(struct hd_sm *sm, uint64_t now);
/* Schedule an event `delay` cycles ahead. Returns false on allocation failure. */
bool hd_sm_event(struct hd_sm *sm, uint64_t now, uint32_t delay, uint8_t type, uint32_t warp,
                 uint32_t pc, uint32_t n);
bool hd_sm_events(struct hd_sm *sm, uint64_t now);
/* }==== */

/* {==== ctx_engine.c ==== */
int hd_sm_ctx_init(struct hd_sm *sm);
void hd_sm_ctx_free(struct hd_sm *sm);
/* The warp slot of logical warp `ref` if it is in a slot of this SM, else NULL (every memory
 * response asks: inline). */
static inline struct hd_twarp *hd_sm_wref_local(struct hd_sm *sm, struct hd_wref ref)
{
    struct hd_ctx *x = hd_ctx_get(sm->pool, ref.ctx);
    if (!x || x->epoch != ref.epoch || x->off_slots || x->sm != sm->id ||
        (x->state != HD_CTX_RESIDENT && x->state != HD_CTX_SUSPENDING &&
         x->state != HD_CTX_RESTORING))
        return NULL;
    const struct hd_tcta *c = &sm->cta[x->slot];
    if (!c->used || c->ctx != x || ref.warp >= c->grant.nwarps || (x->absent >> ref.warp & 1u) ||
        c->grant.warp_slot[ref.warp] == HD_ALLOC_NO_SLOT)
        return NULL; /* (absent: its timing state is in x->saved, sm_residency.c; no slot: it
                        drained and gave its slot back, sm_residency.c hd_sm_res_drained) */
    return &sm->w[c->grant.warp_slot[ref.warp]];
}
/* One memory response of logical warp `ref` (kind, load pc): applied wherever the warp is now. */
void hd_sm_ctx_deliver(struct hd_sm *sm, struct hd_wref ref, uint8_t kind, uint32_t pc,
                       uint64_t now);
/* Storage in x for the timing state of nwarps warps with nregs scoreboard entries each (saved,
 * saved_sb). Returns false on host allocation failure. */
bool hd_sm_ctx_saved_storage(struct hd_ctx *x, uint32_t nwarps, uint32_t nregs);
/* Queue CTA slot `slot` for the context engine (served in order). */
void hd_sm_engq_push(struct hd_sm *sm, uint32_t slot);
/* A CONTEXT-tagged response (save write acknowledged, restore read returned). */
void hd_sm_ctx_response(struct hd_sm *sm, uint64_t payload, uint64_t now);
/* The lifecycle stage of the tick: forwarded responses, quiescence of suspending CTAs, the
 * context engine and its codec. Returns progress; a failure (codec mismatch, assertion, host
 * memory) sets *status with the message in err. */
bool hd_sm_ctx_tick(struct hd_sm *sm, uint64_t now, int *status, char *err, size_t errlen);
/* ctx_pack.c: what the save of CTA c writes ([context] save): items, bytes, codec. */
int hd_sm_ctx_plan(struct hd_sm *sm, struct hd_tcta *c, char *err, size_t errlen);
/* One cycle of the preemption controller for the engine's oldest operation `head`: its status
 * in, *out = what the engine may do this cycle (ctx_ctl.h). */
struct hd_ctx_ctl_out;
int hd_sm_ctx_ctl_cycle(struct hd_sm *sm, struct hd_ctx *head, uint64_t now,
                        struct hd_ctx_ctl_out *out, char *err, size_t errlen);
/* One cycle of the codec for the engine's oldest operation `head` (may be NULL); it takes new
 * registers only when offer_ok (the controller's codec_o). */
int hd_sm_ctx_codec_cycle(struct hd_sm *sm, struct hd_ctx *head, bool offer_ok, uint64_t now,
                          char *err,
                          size_t errlen);
/* This SM's codec, made through the GPU's factory when first needed (a restore may come to an
 * SM that never saved). */
int hd_sm_ctx_codec_ensure(struct hd_sm *sm, char *err, size_t errlen);
/* {==== ctx_points.c: selective preemption points ([context] points = selective) ==== */
/* One cycle of the SM's pp_decode block (issue stage); a wrong decode fails with a message. */
int hd_sm_pp_cycle(struct hd_sm *sm, uint64_t now, char *err, size_t errlen);
/* A fetch of [pc, pc+n) for warp w: queue the words of the points in it for the decoder.
 * Returns false when the queue has no room (the fetch waits a cycle). */
bool hd_sm_pp_fetch(struct hd_sm *sm, struct hd_twarp *w, const struct hd_tkernel *tk,
                    uint32_t pc, uint32_t n);
/* Warp w of a CTA being suspended for op: stop it now, or let it run on to its point. */
void hd_sm_pp_suspend_warp(struct hd_sm *sm, struct hd_twarp *w, enum hd_ctx_op op, uint64_t now);
/* A to_pp warp about to issue: true when it must not (it stopped at its point, or waits for the
 * point's decode). */
bool hd_sm_pp_hold(struct hd_sm *sm, struct hd_twarp *w, uint64_t now);
/* Warp w's next instruction is at a pp point: its pp and dummy take an issue slot each before it
 * (true: this slot was one of them, counted in pp_issue_slots). */
bool hd_sm_pp_virtual(struct hd_sm *sm, struct hd_twarp *w);
/* Has suspending CTA c warps still running to their points? Past pp_wait_limit they are stopped
 * where they are (counted) and the answer is false. */
bool hd_sm_pp_waiting(struct hd_sm *sm, struct hd_tcta *c, uint64_t now);
void hd_sm_pp_free(struct hd_sm *sm);
/* Warp w is about to issue the instruction at pc in normal execution: if pc is a preemption
 * point, count its live words against the allocator's registers per thread (Lin L630-L636). */
void hd_sm_pp_arrival(struct hd_sm *sm, const struct hd_twarp *w, uint32_t pc);
/* }==== */
/* A warp's CTA retires: account a suspension that it made moot. */
void hd_sm_ctx_retired(struct hd_sm *sm, struct hd_tcta *c, uint64_t now);
/* Logical reference of warp w. */
static inline struct hd_wref hd_sm_wref(const struct hd_sm *sm, const struct hd_twarp *w)
{
    const struct hd_ctx *c = sm->cta[w->cta].ctx;
    return (struct hd_wref){c->id, (uint8_t)w->fw->id, c->epoch};
}
/* }==== */

/* {==== sm_spill.c: register spill code (tkernel.h) ==== */
/* The scoreboard mark that holds warp w's next spill fill or store (HD_SB_FREE: it may issue),
 * or -1 when none is due. */
int hd_sm_spill_head(const struct hd_sm *sm, const struct hd_twarp *w);
/* Issue warp w's next spill fill or store if one is due: 1 issued, 0 not now (no collector),
 * -1 none due. */
int hd_sm_spill_issue(struct hd_sm *sm, struct hd_twarp *w, uint64_t now);
/* Warp w issued the instruction at pc (lanes `exec`): its stores become due. */
void hd_sm_spill_issued(struct hd_sm *sm, struct hd_twarp *w, uint32_t pc, uint32_t exec);
/* }==== */

/* {==== sm_signals.c: signals for policies (issue 25 item 6, mech.h) ==== */
/* Warp w changed state from os to ns (hd_sm_warp_set_state, while a hook takes stall events). */
void hd_sm_sig_state(struct hd_sm *sm, struct hd_twarp *w, uint8_t os, uint8_t ns);
/* Take the memory system's L1D miss notices of this SM (while a hook takes stall events). */
void hd_sm_sig_notices(struct hd_sm *sm, uint64_t now);
/* The last request of load tracker t (logical warp ref) came back (while a hook takes load
 * events); call after the response was applied. */
void hd_sm_sig_load_returned(struct hd_sm *sm, struct hd_wref ref, uint32_t pc, bool l1_miss,
                             uint64_t now);
/* }==== */

/* {==== sm_ldst.c ==== */
int hd_sm_ldst_init(struct hd_sm *sm);
/* The memory operation of a spill fill or store of `words` words from spill word `word` of the
 * lanes in `mask` (local memory, interleaved per thread as every local access). */
void hd_sm_memop_spill(struct hd_sm *sm, const struct hd_twarp *w, uint32_t mask, uint32_t word,
                       uint32_t words, bool store, struct hd_memop *op);
/* Build the memory operation of a trace (addresses -> requests / bank degree). */
void hd_sm_memop_build(struct hd_sm *sm, const struct hd_twarp *w,
                       const struct hd_func_trace *tr, struct hd_memop *op);
/* Try to start memory CU c on a load/store unit. */
bool hd_sm_ldst_dispatch(struct hd_sm *sm, uint32_t c, uint64_t now);
bool hd_sm_ldst_send(struct hd_sm *sm, uint64_t now);
bool hd_sm_mem_receive(struct hd_sm *sm, uint64_t now);
/* One completed request of logical warp ref (last_of: the load whose last request it was, or
 * HD_SM_NONE): applied to the warp here, or forwarded to wherever it is now. */
void hd_sm_warp_response(struct hd_sm *sm, struct hd_wref ref, uint32_t last_of, uint64_t now);
/* Take one completed request (a load's last one if `load`) off warp w's counts (mem_out, and
 * inflight and lt_out for a load), w being logical warp ref in a slot of this SM or in its saved
 * context (`saved`). A count already at 0 is a lifecycle bug: nothing is taken, sm->fault is set
 * with the SM, context, warp and cycle, and the run stops at the end of the SM's tick. */
bool hd_sm_warp_uncount(struct hd_sm *sm, struct hd_twarp *w, struct hd_wref ref, bool load,
                        bool saved, uint64_t now);
/* }==== */

/* {==== sm_oloc_port.c: operand locations that can miss (sm_oloc.h; only with a policy) ==== */
/* Install policy ops/impl (hd_sm_set_oloc); own: destroy it with the SM. False: no memory. */
bool hd_sm_oloc_install(struct hd_sm *sm, const struct hd_oloc_ops *ops, void *impl, bool own);
void hd_sm_oloc_free(struct hd_sm *sm);
/* Collector c's words located for warp w's instruction ti (bank offset off), at allocation. */
void hd_sm_oloc_locate(struct hd_sm *sm, uint32_t c, const struct hd_twarp *w,
                       const struct hd_tinstr *ti, uint32_t off, uint64_t now);
/* One cycle of collector cu's reads, fills and retries. Returns progress. */
bool hd_sm_oloc_read(struct hd_sm *sm, struct hd_cu *cu, uint64_t now);
/* May the writeback of warp `warp`'s instruction at pc happen now (its destination ports' write
 * slots)? False: it waits a cycle (nothing taken). */
bool hd_sm_oloc_write(struct hd_sm *sm, uint32_t warp, uint32_t pc, uint64_t now);
/* A global load's destinations written by its last response: counted on their ports. */
void hd_sm_oloc_load_written(struct hd_sm *sm, struct hd_twarp *w, uint32_t pc, uint64_t now);
/* An ld/st.shared of `degree` passes dispatched now: the cycles it waits for the scratchpad banks
 * (shared with the policy's scratchpad ports), which it then holds. */
uint32_t hd_sm_oloc_shared_wait(struct hd_sm *sm, uint32_t degree, uint64_t now);
/* The policy's own scratchpad pass of cycle now (spad_want / spad_took), after the collector's
 * reads and fills. Returns true when one was granted. */
bool hd_sm_oloc_own(struct hd_sm *sm, uint64_t now);
/* A memory fill's response (HD_TAG_OLOC payload). */
void hd_sm_oloc_response(struct hd_sm *sm, uint64_t payload, uint64_t now);
/* }==== */

#endif
