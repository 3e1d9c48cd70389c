/* SPDX-License-Identifier: MIT
 * warp.h - the state of one warp: registers, local memory, SIMT stack, call frames, exit and
 * barrier status.
 *
 * Design: registers are stored per PTX register per lane in 64-bit slots, structure of arrays
 * (regs[r * 32 + lane]); values are kept zero-extended to their type's width. Registers and local
 * memory are reached through pointers that the owner (the CTA, later an allocation/mapping layer)
 * provides. The SIMT stack follows the immediate-post-dominator scheme: each entry holds a PC, the
 * reconvergence PC and a lane mask; the top entry is the one that runs. After every step the stack
 * is normalized (entries that reached their reconvergence point or lost all lanes are popped), so
 * the next PC and active mask can be read without side effects. Calls push a frame that records
 * where the callee's stack part begins. Everything mutable is in this struct plus the register
 * and local-memory arrays, so a context switch saves exactly those (hd_func_warp_save/restore).
 */
#ifndef HD_FUNC_WARP_H
#define HD_FUNC_WARP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HD_FUNC_WARP_SIZE 32
#define HD_FUNC_SIMT_DEPTH 64
#define HD_FUNC_CALL_DEPTH 32
#define HD_FUNC_PC_NONE (-1) /* reconvergence at exit/return */

struct hd_func_simt_entry {
    int32_t pc;    /* next instruction of these lanes */
    int32_t rpc;   /* where they reconverge with the entry below, or HD_FUNC_PC_NONE */
    uint32_t mask;
};

struct hd_func_call_frame {
    int32_t call_pc;  /* the call instruction (its return-value operand is read at ret) */
    uint32_t base;    /* stack index of the callee's first entry */
};

struct hd_func_warp {
    uint32_t id;      /* warp index within its CTA (%warpid) */
    uint32_t valid;   /* lanes that hold a thread */
    uint32_t exited;  /* lanes whose thread has exited */
    uint32_t carry;   /* CC.CF of each lane (add.cc/addc/...) */
    uint32_t sp;      /* entries on the SIMT stack */
    uint32_t nframes;
    bool done;        /* all threads exited */
    /* barrier wait */
    bool at_barrier;
    uint8_t bar_id;
    uint8_t bar_red;  /* enum hd_mode of a pending bar.red (result written at release) or 0 */
    int32_t bar_dst;  /* register receiving the bar.red result, -1 if none */
    uint32_t bar_mask;/* lanes that arrived (receive the bar.red result) */
    uint32_t bar_pc;
    uint64_t instrs;  /* warp instructions executed */
    struct hd_func_simt_entry stack[HD_FUNC_SIMT_DEPTH];
    struct hd_func_call_frame frames[HD_FUNC_CALL_DEPTH];
    uint16_t tid[3][HD_FUNC_WARP_SIZE]; /* %tid of each lane */
    /* storage provided by the owner */
    uint64_t *regs;       /* [nregs * 32] */
    uint32_t nregs;
    uint8_t *local;       /* [32 * local_bytes], lane-major */
    uint64_t local_bytes; /* per lane */
};

/* Set up warp `id` of a CTA with block shape `block`, `nthreads` threads in the CTA, at the
 * kernel's first instruction. `regs` and `local` must be zeroed storage of the sizes above. */
void hd_func_warp_init(struct hd_func_warp *w, uint32_t id, const uint32_t block[3],
                       uint32_t nthreads, uint64_t *regs, uint32_t nregs, uint8_t *local,
                       uint64_t local_bytes);

/* The next PC and active lanes (false when the warp is done). Pure. */
static inline bool hd_func_warp_next(const struct hd_func_warp *w, uint32_t *pc, uint32_t *active)
{
    if (w->done || w->sp == 0)
        return false;
    *pc = (uint32_t)w->stack[w->sp - 1].pc;
    *active = w->stack[w->sp - 1].mask;
    return true;
}

/* Pop entries that reached their reconvergence PC or lost all lanes, and call frames whose
 * callee part is gone; marks the warp done when nothing is left. */
void hd_func_warp_normalize(struct hd_func_warp *w);

/* {==== Context save/restore (preemption studies) ==== */
/* Bytes needed to save the warp completely: this struct, its registers and its local memory. */
size_t hd_func_warp_context_bytes(const struct hd_func_warp *w);
void hd_func_warp_save(const struct hd_func_warp *w, void *buf);
/* Restore into `w`, whose storage pointers (regs, local) are kept and must have the same sizes
 * as the saved warp's. Returns false if the sizes differ. */
bool hd_func_warp_restore(struct hd_func_warp *w, const void *buf);
/* }==== */

#endif
