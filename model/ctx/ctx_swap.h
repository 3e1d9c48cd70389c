/* SPDX-License-Identifier: MIT
 * ctx_swap.h - the swap engine of one SM (issue 25 item 4; docs/mover.md): registers,
 * scratchpad (shared memory) data and warp contexts moved to and from the SM's swap window in
 * global memory (addr_map.h HD_WIN_SWAP_BASE) as SWAP-class traffic (mem_iface.h
 * HD_MCLASS_SWAP) through the memory system, each with a record of what was swapped where, so
 * that it can be brought back (Zorua §4.3 swapping registers and scratchpad to memory; Virtual
 * Thread's inactive contexts beyond the on-chip space).
 *
 * API (the seam for mechanisms and the stress mode):
 *   hd_sm_swap_out(sm, &piece, tag, now)  a record (index) for the piece; its
 *       ceil(bytes / segment_bytes) stores are sent `[context] requests_per_cycle` per cycle
 *       while the memory interface accepts, in the record's slot of the SM's window;
 *   hd_sm_swap_in(sm, rec, now)  read the piece back (loads around the L1, the same segments);
 *   the done callback hears (tag, rec, direction) when the last acknowledgement or load of a
 *       direction has returned; hd_sm_swap_drop(sm, rec) frees the record.
 * Window: per SM HD_WIN_SWAP_BASE + sm x HD_WIN_SWAP_STRIDE (16 MiB), HD_SWAP_SLOTS slots of
 * HD_SWAP_SLOT_BYTES; record r lives in slot r. Partial segments carry their data bytes only
 * (like the save path, ctx_image.h).
 *
 * Design: the engine moves no functional data (its owner keeps it, as the context pool does);
 * requests are tagged HD_TAG_CONTEXT with HD_SWAP_TAG_BIT (mem_tags.h), so responses come back
 * through the context engine's response path (ctx_engine.c), and carry the record's
 * generation, so a response for a record freed and reused meanwhile is dropped.
 */
#ifndef HD_CTX_SWAP_H
#define HD_CTX_SWAP_H

#include <stdbool.h>
#include <stdint.h>

#define HD_SWAP_SLOT_BYTES (64u * 1024u)
#define HD_SWAP_SLOTS 256u
#define HD_SWAP_TAG_BIT (1ull << 49)
#define HD_SWAP_TAG_IN (1ull << 48)
#define HD_SWAP_NONE UINT32_MAX

enum hd_swap_kind { HD_SWAP_REGS, HD_SWAP_SMEM, HD_SWAP_WARP };
enum hd_swap_state {
    HD_SWS_FREE,
    HD_SWS_OUT,      /* stores being sent / acknowledged */
    HD_SWS_AWAY,     /* in memory */
    HD_SWS_IN,       /* loads being sent / returning */
    HD_SWS_BACK      /* on chip again (until dropped) */
};

/* What is swapped: `bytes` of kind `kind` of warp `warp` (REGS, WARP) or at byte `off` of the
 * shared memory (SMEM) of context `ctx`, for launch `kernel`. */
struct hd_swap_piece {
    uint8_t kind;
    uint32_t ctx, warp, kernel;
    uint64_t off, bytes;
};

struct hd_swap_rec {
    struct hd_swap_piece pc;
    uint8_t state;
    uint16_t gen;
    uint64_t addr;                   /* first byte in the swap window */
    uint32_t reqs, sent, acked;
    uint64_t tag;                    /* the caller's */
    uint64_t t_start;                /* cycle the current direction started */
    uint32_t next;                   /* send-queue link */
};

struct hd_sm;
typedef void (*hd_swap_done_fn)(void *arg, struct hd_sm *sm, uint32_t rec, bool in,
                                uint64_t now);

struct hd_ctx_swap {
    struct hd_swap_rec rec[HD_SWAP_SLOTS];
    uint32_t sq_head, sq_tail;       /* records with requests to send, FIFO */
    uint32_t nlive;                  /* records not FREE */
    uint32_t nbusy;                  /* records OUT or IN */
    hd_swap_done_fn done;
    void *arg;
};

/* Start swapping a piece out: its record, or HD_SWAP_NONE (no free slot, bytes 0 or above
 * HD_SWAP_SLOT_BYTES). */
uint32_t hd_sm_swap_out(struct hd_sm *sm, const struct hd_swap_piece *pc, uint64_t tag,
                        uint64_t now);
/* Bring record rec back (it must be AWAY). Returns 0 or -1. */
int hd_sm_swap_in(struct hd_sm *sm, uint32_t rec, uint64_t now);
/* Free a record that is AWAY or BACK. */
void hd_sm_swap_drop(struct hd_sm *sm, uint32_t rec);
const struct hd_swap_rec *hd_sm_swap_rec(struct hd_sm *sm, uint32_t rec);
/* One cycle of sending; true if a request was sent. */
bool hd_sm_swap_step(struct hd_sm *sm, uint64_t now);
/* A response tagged by the engine (payload with HD_SWAP_TAG_BIT). */
void hd_sm_swap_response(struct hd_sm *sm, uint64_t payload, uint64_t now);
static inline bool hd_ctx_swap_busy(const struct hd_ctx_swap *s)
{
    return s && s->nbusy > 0;
}

#endif
