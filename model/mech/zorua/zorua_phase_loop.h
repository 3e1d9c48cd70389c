/* SPDX-License-Identifier: MIT
 * zorua_phase_loop.h - Zorua's phase specifiers in the loop (Sec. 3.6, 3.2 event ii): per kernel
 * image the phases of model/compiler/zphase.h with each phase's register need in register sets,
 * and per launch which kernel image it runs; the operand path (zorua_oloc.c) raises the phase
 * event when a warp's instruction is in another group than its last: a phase a barrier begins
 * has no specifier (L314), so it is in the group of the specifier before it and needs what the
 * group needs (session 17: each barrier's phase was an event with its own need).
 *
 * Design. A phase's need is 1 + the highest register set holding a register live in it (the
 * register allocator's physical numbers: Zorua's sets of reg_set registers), so the sets above
 * it are dead throughout the phase and may be released (rows grow and shrink at the top,
 * zorua_mt.h); without a register allocation a kernel has no phases here. A phase specifier
 * costs one fetch cycle at its PC (the annotation store's fetch_extra). Built once per kernel
 * image, when its first launch is set up (the kernel_annot hook, mech.h), shared by every SM.
 * No globals.
 */
#ifndef HD_ZORUA_PHASE_LOOP_H
#define HD_ZORUA_PHASE_LOOP_H

#include "annot.h"

#include <stdbool.h>
#include <stdint.h>

#define ZPH_MAX_KERNELS 64
#define ZPH_MAX_LAUNCHES 256

struct zph_kernel {
    uint32_t kernel;             /* the stable kernel id */
    const struct hd_annot *an;
    int col;                     /* its "zphase" column (1 + phase index per PC; 0: none) */
    uint32_t nph;
    uint16_t *need;              /* [nph] register sets the phase's group needs (the most of
                                    its phases') */
    uint16_t *group;             /* [nph] the phase whose specifier states its needs */
};

struct zph {
    uint32_t reg_set;
    struct zph_kernel k[ZPH_MAX_KERNELS];
    uint32_t nk;
    struct { uint32_t launch, k; } l[ZPH_MAX_LAUNCHES]; /* launch -> k[] (ring) */
    uint32_t nl;
};

/* Launch `launch` runs kernel `kernel` (its store an): compute the kernel's phases once. */
void zph_launch(struct zph *z, uint32_t launch, uint32_t kernel, struct hd_annot *an);
/* The phases of launch's kernel, or NULL (none known). */
const struct zph_kernel *zph_of(const struct zph *z, uint32_t launch);
void zph_free(struct zph *z);

#endif
