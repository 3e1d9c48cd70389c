/* SPDX-License-Identifier: MIT
 * addr_map.h - the reserved windows of the memory system's address space: where the SMs place
 * traffic that is not a kernel's own global address (local memory, kernel parameters in the
 * constant cache, instruction fetch, saved CTA contexts, swapped registers).
 *
 * Design: one place for every window, so that no two sources collide and a memory-system
 * statistic can be attributed to a window by its address. The windows are timing addresses
 * only: the functional model keeps the data (device memory, the CTA context pool); requests
 * carry no data. Device memory (hd_malloc) lies far below all of them. Each window is split
 * into fixed strides per owner (a launch, a kernel image, a CTA context) so owners never share
 * a cache line.
 */
#ifndef HD_ADDR_MAP_H
#define HD_ADDR_MAP_H

#include <stdint.h>

/* Local memory: per (SM, warp slot) block, 4-byte words interleaved over the 32 lanes. */
#define HD_WIN_LOCAL_BASE (1ull << 52)
/* Swapped registers and shared memory (virtualization mechanisms), per owner stride. */
#define HD_WIN_SWAP_BASE (0x5A9Aull << 40)
#define HD_WIN_SWAP_STRIDE (1ull << 24)
/* Kernel parameters in the constant cache, one window per launch (CUDA allows 32764 bytes). */
#define HD_WIN_PARAM_BASE (0xBA5Eull << 40)
#define HD_WIN_PARAM_STRIDE (1ull << 16)
/* Instruction memory, one window per kernel image (the instruction cache fetches lines). */
#define HD_WIN_CODE_BASE (0xC0DEull << 40)
#define HD_WIN_CODE_STRIDE (1ull << 24)
/* Saved CTA contexts (registers, shared memory, SIMT stacks, barriers), one area per context id
 * (Lin §2.6 Fig 2.12; the layout inside an area is struct hd_ctx_layout below). */
#define HD_WIN_CONTEXT_BASE (0xC7A5ull << 40)
#define HD_WIN_CONTEXT_STRIDE (1ull << 24)
/* The per-kernel context control blocks (Lin §2.6): one CCB per launch, an array of TB-context
 * entries of three 64-bit global-memory pointers (register context, shared memory context,
 * SIMT stack context; 0 = the resource stayed in place), 24 bytes each at a 32-byte stride.
 * Entry e belongs to the context whose id is e: ids are dense and bounded by the CTAs of the
 * launch that have started and not finished (Lin's M, the TBs the GPU can hold, when a kernel
 * is preempted as a whole). */
#define HD_WIN_CCB_BASE (0xCCB0ull << 40)
#define HD_WIN_CCB_STRIDE (1ull << 28)
#define HD_CCB_ENTRY_STRIDE 32u
#define HD_CCB_ENTRY_BYTES 24u

static inline uint64_t hd_win_param(uint64_t launch)
{
    return HD_WIN_PARAM_BASE + launch * HD_WIN_PARAM_STRIDE;
}

static inline uint64_t hd_win_code(uint64_t kernel_image)
{
    return HD_WIN_CODE_BASE + kernel_image * HD_WIN_CODE_STRIDE;
}

static inline uint64_t hd_win_context(uint64_t ctx_id)
{
    return HD_WIN_CONTEXT_BASE + ctx_id * HD_WIN_CONTEXT_STRIDE;
}

static inline uint64_t hd_win_ccb_entry(uint64_t launch, uint64_t ctx_id)
{
    return HD_WIN_CCB_BASE + launch * HD_WIN_CCB_STRIDE + ctx_id * HD_CCB_ENTRY_STRIDE;
}

/* A TB's context area (Lin Fig 2.12), offsets from hd_win_context(id), every part 128-byte
 * aligned: the warps' pattern vectors (pv_bytes each: 16 bytes per 64 registers, loaded first
 * on a restore), the register context (one slot of slot_bytes per warp, sized for the warp's
 * registers uncompressed; compressed values stored contiguously from the slot's start), the
 * shared memory context (the CTA's allocation) and the SIMT stack context (every unfinished
 * warp's stack entries, call frames and header, back to back). */
struct hd_ctx_layout {
    uint64_t pv, regs, smem, stack, end; /* offsets */
    uint64_t pv_bytes, slot_bytes;       /* per warp */
};

static inline uint64_t hd_round128(uint64_t b)
{
    return (b + 127u) & ~(uint64_t)127u;
}

/* The layout for nwarps warps of at most max_words 32-bit register words each (pattern vectors
 * only if packed), smem bytes of shared memory and stack_bytes of SIMT stack context. */
static inline struct hd_ctx_layout hd_ctx_layout_make(uint32_t nwarps, uint64_t max_words,
                                                      int packed, uint64_t smem,
                                                      uint64_t stack_bytes)
{
    struct hd_ctx_layout l;
    l.pv_bytes = packed ? 16u * ((max_words + 63u) / 64u) : 0;
    l.slot_bytes = max_words * 128u;
    l.pv = 0;
    l.regs = hd_round128(nwarps * l.pv_bytes);
    l.smem = l.regs + nwarps * l.slot_bytes;
    l.stack = l.smem + hd_round128(smem);
    l.end = l.stack + hd_round128(stack_bytes);
    return l;
}

#endif
