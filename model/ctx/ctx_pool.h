/* SPDX-License-Identifier: MIT
 * ctx_pool.h - the contexts of the CTAs that have started and not finished: each CTA's
 * functional state (shared memory, barriers, its warps' registers, SIMT stacks, call frames,
 * local memory) lives here, not in the hardware CTA slot, so that a CTA can leave the SM and
 * come back on any SM (issue 11; Lin thesis §2.6-2.7, Shieh §2.1, docs/context.md).
 *
 * Design: a context has a pool-wide id that memory-request tags name (mem_tags.h) and an epoch
 * that moves on whenever the id gets a new meaning (a flush restarts the CTA, a finished CTA's
 * context is reused), so a response that outlived its CTA is recognised and dropped. While a
 * context is off the warp slots (being saved, saved, or before a restore) its warps' timing
 * state (scoreboard, in-flight counts) is kept in `saved`, where late memory responses still
 * land. Per launch: a free list of finished contexts whose storage the next CTA reuses (no
 * allocation per CTA after warm-up) and a FIFO of contexts ready to resume or restart, which the
 * CTA scheduler serves before fresh CTAs. Context structs are never freed before the pool, so
 * ids and epochs stay unique for the whole run.
 */
#ifndef HD_CTX_POOL_H
#define HD_CTX_POOL_H

#include "cta.h"

#include "ctx_idem.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HD_CTX_NONE UINT32_MAX

enum hd_ctx_state {
    HD_CTX_FREE,       /* not a CTA (in a free list) */
    HD_CTX_RESIDENT,   /* on an SM, its warps in their slots */
    HD_CTX_SUSPENDING, /* on an SM, stopped; waiting for its in-flight instructions */
    HD_CTX_SAVING,     /* the SM's context engine writes it out; slots still allocated */
    HD_CTX_SAVED,      /* off the hardware (save writes may still be completing) */
    HD_CTX_QUEUED,     /* saved or flushed, waiting in its launch's queue to be placed */
    HD_CTX_RESTORING   /* on an SM again; the engine reads it back before its warps run */
};

/* What a suspension is for. */
enum hd_ctx_op { HD_CTXOP_NONE, HD_CTXOP_SWITCH, HD_CTXOP_FLUSH };

struct hd_sm_launch;
struct hd_twarp;
struct hd_ctx_image;

/* One 32-bit word of a live register that a live or compressed save writes (ctx_pack.c). */
struct hd_ctx_item {
    uint32_t kreg;            /* kernel-wide PTX register */
    uint8_t warp;             /* warp in the CTA */
    uint8_t word;             /* 0: bits 31..0, 1: bits 63..32 */
};

/* A register's TB-level class in a TB-level save (ctx_tb.c): global classes are stored once
 * per TB (base, and stride for global strided), the others in every warp's record. */
struct hd_ctx_tbreg {
    uint32_t kreg;
    uint8_t word, cls;        /* enum hd_regpat_tb_class */
    uint32_t base, stride;
    uint32_t wwords;          /* the words its warp-level records would hold (all warps) */
};

struct hd_ctx {
    uint32_t id;
    uint16_t epoch;
    uint8_t state;            /* enum hd_ctx_state */
    uint8_t op;               /* enum hd_ctx_op while suspending */
    bool idempotent;          /* flush bit: no global store or atomic yet (restart is safe) */
    bool restart;             /* queued to restart from the beginning (flushed) */
    bool has_fc;              /* fc holds storage */
    struct hd_sm_launch *la;
    struct hd_func_cta fc;
    uint32_t sm, slot;        /* where it is (RESIDENT .. SAVING, RESTORING) */
    struct hd_twarp *saved;   /* [fc.nwarps] timing state while off the warp slots */
    uint8_t *saved_sb;        /* their scoreboards */
    uint32_t saved_regs;      /* registers per scoreboard in saved_sb */
    bool off_slots;           /* timing state is in `saved`, not in warp slots */
    uint64_t bytes;           /* bytes of the last save (registers, shared memory, warp state) */
    uint32_t reqs, sent, acked;   /* the context engine's requests of the current save/restore */
    /* what the save writes and the restore reads (ctx_pack.c) */
    struct hd_ctx_image *img;     /* its requests in Lin's layout, packed segments (ctx_image.h) */
    struct hd_ctx_item *items;    /* [nitems] the live words written, in order */
    uint32_t nitems, cap_items;
    uint32_t enc_next, enc_done;  /* compressor: offered, returned */
    uint32_t rec_total, rec_done; /* warp records, and those the packer has flushed */
    uint32_t dec_next, dec_done;  /* unpacker: taken; decompressor: returned */
    uint32_t dec_seg;             /* packed segments given to the unpacker */
    bool encoding, decoding;
    /* TB-level compression (save = compressed_tb at a barrier point, ctx_tb.c) */
    bool tb, classifying;         /* this save is TB-level; its classification pass runs */
    uint32_t tb_k, tb_nw, cls_next, cls_done; /* registers per warp, warps, (register, warp)
                                     inputs given, classes returned */
    struct hd_ctx_tbreg *tbr;     /* [tb_k] the classes */
    uint32_t cap_tbr;
    uint64_t t_signal, t_quiet, t_place; /* latency accounting */
    uint64_t t_first;         /* cycle of its (re)start from the first instruction */
    uint64_t t_left;          /* the cycle it last left an SM (finished, switched out or
                                 flushed: its resources free for a placement in that cycle; 0:
                                 never): a drain's true end (ctx_preempt.c) */
    uint64_t insts;           /* warp instructions it executed since then */
    uint32_t switches;        /* times it was saved */
    uint32_t flushes;         /* times it was flushed (restarted) */
    uint32_t preq;            /* the preemption request that suspended it (timing_stats.h
                                 preempt[] index), or HD_CTX_NONE */
    uint32_t next;            /* link: free list or resume queue */
    /* warp-granular residency (sm_residency.c) while RESIDENT */
    uint32_t absent;          /* warps switched out: their timing state is in saved[] */
    uint32_t wmoving;         /* warps whose context is moving out or in on chip */
    uint64_t idem_lines[HD_IDEM_WORDS]; /* global lines loaded since its (re)start, for
                                 [context] flush_bit = idempotence (ctx_idem.h) */
    /* Lin's accumulated per-warp spill latency (L1067-L1079, issue 24 item 9): per warp of the
     * current save the cycle its last register request (record or pattern vector) was sent
     * (0: none; then, from wspill[cap_wspill], the cycle of its first one), and at the save's end the sum over those warps of (that cycle - the cycle the
     * warp stopped at its point, at the earliest the signal) and how many warps */
    uint64_t *wspill;
    uint32_t cap_wspill;
    uint64_t wspill_sum;
    uint32_t wspill_warps;
    /* Lin Fig 2.4 ([context] inplace_split): asked to leave with its registers only (the
     * save writes no shared memory), and once saved its shared memory parked on SM park_sm
     * (the allocator's handle park_h, at park_base): it resumes on that SM only, taking the
     * same block back (sm.c) */
    bool keep_smem, smem_parked;
    uint32_t park_sm, park_h;
    uint64_t park_base;
    /* [context] save_order = warp (ctx_wsave.c): this save's registers go warp by warp, each
     * warp queued for the SM's save engine as soon as it is drained at its point (wqueued),
     * wpending of the queued records not yet out of the packer, wall once the CTA is quiet and
     * every warp is queued (its shared memory, stacks and CCB entry follow its last record) */
    bool wsave, wall;
    uint32_t wqueued, wpending;
    /* Lin Fig 2.14's latency split (issue 24 item 9): cycles in which the engine sent, or
     * waited to send, requests of each part of this save (registers with their pattern
     * vectors, shared memory, SIMT stacks with the CCB entry); pc_last: the last cycle counted
     * + 1 per part, so a cycle counts once per part */
    uint64_t pc_cycles[3], pc_last[3];
    /* Lin's per-warp spill as service time (issue 24): at the save's end, the sum over the
     * warps with registers saved of the cycles from the warp's first register request sent to
     * its last, both included (wspill[cap_wspill + w] holds the first, wspill[w] the last), so
     * without the wait before its first request (behind other warps, the drain, the codec) */
    uint64_t wservice_sum;
    /* Lin 2.5.5 ([context] inplace_stop): asked to stop in place (its save writes its SIMT
     * stacks only), and once saved its registers parked with its shared memory on park_sm at
     * park_reg_base (sm.c; smem_parked is then set too: it resumes on that SM only) */
    bool keep_regs, regs_parked;
    uint32_t park_reg_base;
    /* Lin Fig 2.15 (issue 24): cycles this save had the SM's save pipeline busy (sending, or
     * waiting for the compressor and packer), each SM cycle counted for one save only, so the
     * sum over a request's saves is the union on that SM (ctx_wsave.h hd_ctx_busy_cycle) */
    uint64_t pc_busy;
    /* [context] switch_model = stall_tb (ctx_engine.c): the cycle (fractional) until which
     * this context's own stall holds its port */
    double stall_free;
    /* switch_model = stall_req: the save's requests all sent (the engine moved on) while its
     * stall still runs (eng_done), or its stall over before the engine was done (acks_done);
     * the CTA leaves its SM when both are (ctx_engine.c) */
    bool eng_done, acks_done;
};

/* Per launch: its free contexts and its queue of contexts to place again. */
struct hd_ctx_list {
    uint32_t free_head;
    uint32_t q_head, q_tail, q_len;
};

struct hd_sm;

struct hd_ctx_pool {
    struct hd_ctx **c;        /* [n] */
    uint32_t n, cap;
    uint32_t spare;           /* contexts without storage (their launch finished) */
    struct hd_sm **sms;       /* [nsms]: where forwarded responses go (set by the GPU) */
    uint32_t nsms;
    uint32_t evicted;         /* contexts in the SMs' outboxes, not yet queued by the GPU */
};

int hd_ctx_pool_init(struct hd_ctx_pool *p);
void hd_ctx_pool_free(struct hd_ctx_pool *p);
static inline struct hd_ctx *hd_ctx_get(const struct hd_ctx_pool *p, uint32_t id)
{
    return id < p->n ? p->c[id] : NULL;
}
/* A context for CTA `linear` of launch la (l its functional launch), state RESIDENT, reusing a
 * finished context of the same launch when there is one. NULL with a message on host OOM. */
struct hd_ctx *hd_ctx_acquire(struct hd_ctx_pool *p, struct hd_sm_launch *la,
                              struct hd_ctx_list *list, const struct hd_func_launch *l,
                              uint64_t linear, uint32_t smid, char *err, size_t errlen);
/* The CTA finished: back to its launch's free list (storage kept), epoch moves on. */
void hd_ctx_finish(struct hd_ctx_pool *p, struct hd_ctx_list *list, struct hd_ctx *c);
/* Restart from the beginning (flush): functional state reset, epoch moves on. */
void hd_ctx_reset_for_restart(struct hd_ctx *c);
/* The launch is over: free the storage of its contexts (ids stay, for later launches). */
void hd_ctx_forget_launch(struct hd_ctx_pool *p, struct hd_ctx_list *list);
/* After an aborted run: every context loses its storage and its launch (lists must be reset
 * by their owners). */
void hd_ctx_pool_reset(struct hd_ctx_pool *p);
/* Queue c to be placed again (resumed or restarted). */
void hd_ctx_queue_push(struct hd_ctx_pool *p, struct hd_ctx_list *list, struct hd_ctx *c);
/* The first queued context, or NULL; pop removes it. */
struct hd_ctx *hd_ctx_queue_peek(const struct hd_ctx_pool *p, const struct hd_ctx_list *list);
struct hd_ctx *hd_ctx_queue_pop(struct hd_ctx_pool *p, struct hd_ctx_list *list);

#endif
