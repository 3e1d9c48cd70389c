/* SPDX-License-Identifier: MIT
 * cosim_regpat.h - full-GPU co-simulation of the register pattern blocks (Lin thesis §2.3.3):
 * the warp-level compressor, the decompressor and the TB-level classifier of every SM, fed with
 * the live registers of every resident warp at context samples, in lockstep with their RTL.
 *
 * Design: a session is a model observer (model/func/observer.h). Every `every` model cycles
 * (context sample) each resident CTA's warps have their registers pushed through the SM's
 * compressor one 32-bit vector register per block cycle, every register that holds a physical
 * register, with live_i from the liveness at the warp's PC (divergence-aware when the SIMT stack
 * is deeper than one entry; hd_liveness): dead registers are driven too (live_i = 0, pattern 00,
 * nothing stored, nothing written back; counted apart from the statistics of live registers);
 * each result goes on to the decompressor, whose output is written back into the warp (a
 * save/restore round trip: the model then runs on what the hardware restored). When all warps of a CTA leave a barrier together
 * (Lin's bar.pp point) the CTA's live registers go warp by warp through the compressor into the
 * TB-level classifier. The three blocks of an SM step together; each step runs the C reference
 * and, on the chosen SMs, the Verilated RTL, and compares every output port (cosim_inst.h). The
 * side that drives the model (decompressor input, write-back, statistics) is the reference, or
 * the RTL with drive_rtl. On a mismatch the session stops the run, keeps the records and writes
 * an FST window (+ .gtkw) of the failing SM's blocks. Statistics reproduce Lin's Fig 2.6/2.8/2.9.
 */
#ifndef HD_COSIM_REGPAT_H
#define HD_COSIM_REGPAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define HD_COSIM_MAX_SMS 256

struct hd_cosim_opts {
    uint64_t every;          /* context-sample period in model cycles (0: none) */
    bool tb_level;           /* TB-level samples at barrier points */
    bool rtl;                /* lockstep with the RTL (when the build has it) */
    bool drive_rtl;          /* the model uses the RTL's outputs */
    bool sm_all;             /* RTL on every SM, else on sms[] */
    bool sms[HD_COSIM_MAX_SMS];
    const char *fst_path;    /* on-demand window (NULL: none) */
    uint64_t win_a, win_b;   /* model-time window of fst_path, inclusive */
    const char *fst_internal; /* regpat blocks whose RTL internal signals go in fst_path (NULL) */
    const char *fail_fst;    /* FST written on a mismatch */
    unsigned window;         /* block cycles kept before a mismatch */
    const char *plusargs;    /* "+name ..." for the RTL ($test$plusargs), NULL: none */
    const char *record;      /* write compressor input vectors here (replay stimulus) */
    uint64_t record_max;
    bool coverage;           /* count the blocks' coverage bins (hd_cover.h) */
};

struct hd_regpat_stats {
    uint64_t samples, warp_samples;        /* context samples (CTA), warps sampled */
    uint64_t regs, pat[4];                 /* live vector registers, by pattern code */
    uint64_t pat32[4];                     /* the same registers analysed 32 lanes wide ("_vec") */
    uint64_t full_bytes, live_bytes, comp_bytes; /* context sizes (cosim_regpat.c: "context") */
    uint64_t full_raised;                  /* warps whose live words exceeded the allocation */
    uint64_t tb_points, tb_skipped;        /* barrier points analysed / skipped (warps apart) */
    uint64_t tb_regs, tb_cls[6];           /* logical registers per TB, by TB-level class */
    uint64_t tb_full_bytes, tb_live_bytes, tb_warp_bytes, tb_comp_bytes;
    uint64_t block_cycles, rtl_cycles, roundtrip_errors;
    uint64_t dead_regs, tb_dead;           /* dead registers driven (live_i = 0), TB-level too */
};

struct hd_cosim_regpat;

/* Create for a GPU of num_sms SMs. NULL with a message on bad options or no memory. */
struct hd_cosim_regpat *hd_cosim_regpat_create(const struct hd_cosim_opts *o, uint32_t num_sms,
                                               char *err, size_t errlen);
void hd_cosim_regpat_destroy(struct hd_cosim_regpat *s);
/* The observer to install (heddle_observe.h); it lives as long as the session. */
const struct hd_func_observer *hd_cosim_regpat_observer(struct hd_cosim_regpat *s);
/* After the run: flush the on-demand FST. Returns 0 or -1 with a message. */
int hd_cosim_regpat_finish(struct hd_cosim_regpat *s, char *err, size_t errlen);

const struct hd_regpat_stats *hd_cosim_regpat_stats(const struct hd_cosim_regpat *s);
/* Mismatch records (empty when none) and whether the session stopped on one. */
bool hd_cosim_regpat_failed(const struct hd_cosim_regpat *s);
void hd_cosim_regpat_print_errors(const struct hd_cosim_regpat *s, FILE *f);
/* With opts.coverage: the three blocks' coverage tables summed over the SMs (hd_cover.h); bins
 * not hit are listed (a workload need not reach every bin). */
void hd_cosim_regpat_print_coverage(const struct hd_cosim_regpat *s, const char *who, FILE *f);
/* Instances compared against RTL, and the backend ("verilator" / "none"). */
unsigned hd_cosim_regpat_rtl_instances(const struct hd_cosim_regpat *s);

/* The Fig 2.6/2.8/2.9 table: a header line and one row per workload. */
void hd_regpat_stats_header(FILE *f);
void hd_regpat_stats_row(FILE *f, const char *workload, const struct hd_regpat_stats *st);

#endif
