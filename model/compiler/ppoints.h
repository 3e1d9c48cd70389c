/* SPDX-License-Identifier: MIT
 * ppoints.h - Lin's selective preemption points (thesis §2.5, digest §2.5/§3.2): the compiler
 * pass that chooses where a preempted warp may stop, and the liveness vectors its `pp` /
 * `bar.pp` / dummy instructions carry.
 *
 * What is chosen, per kernel image (its annotation store, annot.h), in the entry function:
 *   - every innermost natural loop (a loop whose body holds no other loop header) gets one point:
 *     its barrier if it has exactly one; the barrier with the fewest live words if it has
 *     several; else the instruction of the body with the fewest live words;
 *   - the instructions outside every loop, in PC order, are cut into windows of K; each full
 *     window gets one point (its barrier with the fewest live words if it has one, else its
 *     instruction with the fewest live words); the last, partial window gets one only if it
 *     holds a barrier. So a kernel with no loop, no barrier and fewer than K instructions has no
 *     point at all and a preempted warp runs to its end (Lin: "behaves like SM-draining").
 *   Live words: the annotation store's live-in words at the PC, values that occupy a register
 *   only; ties go to the smaller divergence-aware count, then to the lower PC (digest §8.1 #7
 *   leaves both open).
 * A point at PC p is either `pp` (a NOP inserted before p, followed by its dummy instruction:
 * two extra instructions) or `bar.pp` (the barrier at p itself, no extra instruction). `pp`
 * carries live_in(p), the dummy the divergence-aware union row (liveness.h); `bar.pp` carries
 * live_in(p) only (no divergence is possible at a barrier, §2.3).
 * Vectors (§3.2, digest §8.1 #5): 54 bits over physical registers (the register allocator's
 * numbers; a 64-bit value sets both of its registers): bit i < 53 = R_i live; bit 53 = some
 * register >= R53 live (the hardware then saves R53..R63). Without a register allocation
 * (annot.h ra_ok false) every vector is bit 53 alone ("save everything"). Device functions get
 * no points (their live rows would miss the caller's registers; nvcc inlines Lin's kernels).
 * The annotation store gets a column "pp": 1 + the point's index in the table, 0 elsewhere.
 * Deterministic: only PCs and counts decide.
 */
#ifndef HD_PPOINTS_H
#define HD_PPOINTS_H

#include "annot.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HD_PP_VEC_BITS 54u       /* liveness vector width (bits [53:0] of the instruction) */
#define HD_PP_VEC_HIGH 53u       /* the "some register >= R53 is live" bit */
#define HD_PP_K_MIN 100u
#define HD_PP_K_MAX 1000u
#define HD_PP_COLUMN "pp"

enum hd_pp_kind { HD_PP_PP = 1, HD_PP_BARPP = 2 };

/* Why a point is where it is. */
enum hd_pp_why { HD_PP_LOOP_BARRIER, HD_PP_LOOP_MIN, HD_PP_WINDOW_BARRIER, HD_PP_WINDOW_MIN };

struct hd_ppoint {
    uint32_t pc;           /* kernel-wide: the warp stops with this as its next PC */
    uint8_t kind;          /* enum hd_pp_kind */
    uint8_t why;           /* enum hd_pp_why */
    uint8_t extra;         /* instructions added (pp + dummy: 2; bar.pp: 0) */
    uint32_t loop_head;    /* a loop point: its loop header's PC; else UINT32_MAX */
    uint32_t live_words;   /* live words at pc (held values) */
    uint32_t div_words;    /* divergence-aware live words at pc */
    uint64_t vec;          /* live_in(pc) as the 54-bit vector */
    uint64_t vec_div;      /* the dummy instruction's vector (= vec for bar.pp) */
};

struct hd_ppoints {
    uint32_t k;            /* the K of the window rule */
    struct hd_ppoint *pt;  /* [n], in increasing PC */
    uint32_t n;
    uint32_t loops;        /* innermost loops found (each has one point) */
    uint32_t extra;        /* instructions the points add to the code */
    int col;               /* the "pp" column of the annotation store */
};

/* Choose the points of annotation store a with window size k (HD_PP_K_MIN..HD_PP_K_MAX), fill
 * its "pp" column and return the table in *out. Returns 0, or -1 with a message (k out of range,
 * host memory). */
int hd_ppoints_build(struct hd_annot *a, uint32_t k, struct hd_ppoints **out, char *err,
                     size_t errlen);
void hd_ppoints_free(struct hd_ppoints *pp);

/* The point at kernel-wide pc, or NULL. */
const struct hd_ppoint *hd_ppoints_at(const struct hd_ppoints *pp, const struct hd_annot *a,
                                      uint32_t pc);
/* The 54-bit vector of the live data registers before pc (divergent: the union row). */
uint64_t hd_ppoints_vector(const struct hd_annot *a, uint32_t pc, bool divergent);
/* Registers a vector tells the hardware to save: bits [52:0], plus R53..R63 when bit 53 is set. */
unsigned hd_ppoints_vec_regs(uint64_t vec);
const char *hd_ppoints_why_name(unsigned why);

#endif
