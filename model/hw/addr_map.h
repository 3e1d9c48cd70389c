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
/* Saved CTA contexts (registers, shared memory, SIMT stacks, barriers), one context control
 * block per context id (Lin §2.6: a per-kernel context area in global memory). */
#define HD_WIN_CONTEXT_BASE (0xC7A5ull << 40)
#define HD_WIN_CONTEXT_STRIDE (1ull << 24)

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

#endif
