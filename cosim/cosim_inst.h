/* SPDX-License-Identifier: MIT
 * cosim_inst.h - one hardware block instance run in lockstep: its C reference (the same object
 * code the model links) and, when built, its Verilated RTL, compared port by port every cycle
 * (style rule G2, after Ibex's Cosim: step returns false and appends a record on a mismatch).
 *
 * Design: the generic part knows a block only through its port table (hd_block.h) and two ops
 * structs: the reference's reset/step and the RTL backend's create/reset/step/destroy (C++ glue
 * in cosim/vl/, expanded from the same ports.def). step(in) returns the outputs of the cycle
 * from the side that drives the model (reference or RTL). The instance keeps the last `hist`
 * cycles (inputs, both outputs, the model's tag) for the FST window around a mismatch.
 * Mismatches and failed RTL assertions (SVA) are never only counted: each makes a text record,
 * and the caller stops. The C reference comes from the block registry (hw_ref.h).
 */
#ifndef HD_COSIM_INST_H
#define HD_COSIM_INST_H

#include "hd_block.h"
#include "hd_cover.h"
#include "hw_ref.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hd_cosim_rtl_ops {
    const char *block;          /* its block name (the port table's) */
    /* plusargs: NULL, or space-separated "+name" arguments the RTL sees ($test$plusargs) */
    void *(*create)(const char *plusargs);
    void (*reset)(void *h);     /* reset asserted for two clock edges, then released */
    void (*step)(void *h, const void *in, void *out); /* out = outputs in the cycle, then the edge */
    /* An assertion (SVA) that failed in the last step: "HdName (file.sv:line)"; NULL if none. */
    const char *(*failure)(void *h);
    void (*destroy)(void *h);
    /* RTL-internal signals (issue 16 item 5), only in the variant of hd_cosim_rtl_find_internal
     * (NULL elsewhere): signal k's name relative to the block ("valid_q", "gen.cnt_q",
     * "tab(3)") and width; its value as 32-bit words, least significant first, sampled in the
     * last step when the outputs were read (before the clock edge). */
    unsigned (*nsignals)(void *h);
    const char *(*signal)(void *h, unsigned k, unsigned *width);
    const uint32_t *(*value)(void *h, unsigned k);
};

/* The RTL backend of a block, or NULL when this build has none (no Verilator). */
const struct hd_cosim_rtl_ops *hd_cosim_rtl_find(const char *block);
/* The same block verilated with every internal signal public (--public-flat-rw; the ops'
 * signal entries set), or NULL when this build has none (HD_COSIM_INTERNAL=OFF, fault build). */
const struct hd_cosim_rtl_ops *hd_cosim_rtl_find_internal(const char *block);
/* "verilator" or "none", for reports. */
const char *hd_cosim_rtl_kind(void);

/* What the model was doing in a block cycle (shown beside the ports in FST windows): the model
 * time and the block's own model-side fields (its HD_TAG rows, hd_block_desc.tags, in order). */
struct hd_cosim_tag {
    uint64_t now;       /* model time (cycle, or warp instructions in functional mode) */
    uint64_t f[HD_BLOCK_MAX_TAGS];
    bool valid;
};

struct hd_cosim_inst {
    const struct hd_block_desc *b;
    char name[64];              /* "sm3.regpat_comp" */
    const struct hd_hw_ref_block *ref;
    void *ref_state;
    const struct hd_cosim_rtl_ops *rtl; /* NULL: reference only */
    void *rtl_h;
    bool drive_rtl;             /* the model uses the RTL's outputs */
    uint64_t cycle;             /* cycles of this instance */
    void *ref_out, *rtl_out;    /* this cycle's outputs */
    /* history ring: hist entries of [in | ref_out | rtl_out | tag | global cycle] */
    unsigned hist, count;
    size_t rec;
    uint8_t *ring;
    /* mismatch records */
    char *errors;
    size_t elen, ecap;
    uint64_t mismatches;
    uint64_t sva_failures;      /* steps in which an RTL assertion failed */
    struct hd_cover *cov;       /* functional coverage of every step (NULL: off) */
};

/* Create with history depth `hist` (>= 1); the port table is ref->b's; plusargs go to the RTL
 * (NULL: none). Returns 0 or -1 (out of memory). */
int hd_cosim_inst_init(struct hd_cosim_inst *x, const char *name, const struct hd_hw_ref_block *ref,
                       const struct hd_cosim_rtl_ops *rtl, bool drive_rtl, unsigned hist,
                       const char *plusargs);
void hd_cosim_inst_free(struct hd_cosim_inst *x);
/* Count the block's coverage bins (hd_cover.h) over every later step: x->cov. 0, or -1 (the
 * block declares no bins, or no memory). */
int hd_cosim_inst_cover(struct hd_cosim_inst *x);
/* Reset both sides (reference and RTL) mid-run; the coverage sees a reset. */
void hd_cosim_inst_reset(struct hd_cosim_inst *x);
/* One lockstep cycle with inputs `in` (the block's in struct): *out = the driving side's
 * outputs. `gcycle` is the session's global cycle (FST time). Returns false on a mismatch or a
 * failed RTL assertion (a record naming cycle, instance, block and port or assertion was
 * appended). */
bool hd_cosim_step(struct hd_cosim_inst *x, const void *in, void *out, uint64_t gcycle,
                   const struct hd_cosim_tag *tag);
/* History entry `age` cycles back (0 = the last cycle), or false if older than kept. */
bool hd_cosim_hist(const struct hd_cosim_inst *x, unsigned age, const void **in,
                   const void **ref_out, const void **rtl_out, const struct hd_cosim_tag **tag,
                   uint64_t *gcycle);

#endif
