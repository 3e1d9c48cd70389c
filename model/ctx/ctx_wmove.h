/* SPDX-License-Identifier: MIT
 * ctx_wmove.h - the mover's side of the warp-granular residency seam (issue 25 items 1, 3, 4;
 * docs/mover.md "Warps switched out through the mover", docs/timing.md "Warp-granular
 * residency"): with [sm] warp_mover = onchip or swap, a warp switched out of its slot
 * (sm_residency.h) moves its bytes - its share of its CTA's register allocation plus one
 * 128-byte unit of warp state - through the SM's on-chip context mover into the L1D context
 * region (ctx_mover.h, ctx_uspace.h; GPUDuet's switch into spare on-chip storage), or through
 * the swap engine to the SM's swap window as SWAP-class traffic (ctx_swap.h; Zorua's swap to
 * memory), and back the same way on switch-in; the residency code hears the completion through
 * hd_sm_warp_moved.
 *
 * Out of space: onchip puts a warp that finds the L1D region full (or a piece beyond its
 * capacity) into the swap engine instead (warp_mover_spills); a warp for which the swap engine
 * has no free record, and a warp placed absent that never left (logical capacities: nothing of
 * it is stored anywhere), take the default fixed latency (warp_mover_fixed). A switch-out is
 * never refused by the mover: the residency code has already moved the warp's timing state.
 */
#ifndef HD_CTX_WMOVE_H
#define HD_CTX_WMOVE_H

#include <stdbool.h>

struct hd_sm;
struct hd_sm_vres;

/* Install the mover [sm] warp_mover names (onchip or swap) on SM sm (the GPU's set-up does, as
 * it installs the stress modes). Returns false on host OOM. */
bool hd_sm_wmove_install(struct hd_sm *sm);
/* The substrate's part of it (ctx_vres.c frees it with the substrate). */
void hd_sm_wmove_free(struct hd_sm_vres *v);

#endif
