/* SPDX-License-Identifier: MIT
 * config.h - the GPU configuration: one struct generated from params.def, its defaults, the INI
 * reader, and the printers (help text, statistics echo, Markdown documentation).
 *
 * Design: params.def is the single source of every parameter (style rule C5). This header expands
 * it into the fields of struct hd_config (named <section>_<key>, e.g. cfg.sm_num_schedulers) and
 * config.c into a descriptor table that the reader, printers and range checks walk. A
 * configuration is a plain value: it is copied into each unit's params and never changed while a
 * simulation runs. Files are INI ("[section]", "key = value", '#' or ';' comments); unknown
 * sections or keys and bad values are errors "file:line: key 'X': message" (rule C6). A file sets
 * only what it names; every other key keeps its default (configs/ files list every key anyway).
 */
#ifndef HD_CONFIG_H
#define HD_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* {==== Enumerated parameter types ==== */
/* Each enum type `name` is one list HD_CFG_ENUM_<name>(V) of V(name, CONSTANT, "spelling", "doc")
 * rows, and one entry in HD_CFG_ENUM_TYPES. A parameter uses it with type ENUM(name). */
#define HD_CFG_ENUM_sched(V)                                                                       \
    V(sched, HD_SCHED_LRR, "lrr", "loose round-robin over ready warps")                            \
    V(sched, HD_SCHED_GTO, "gto", "greedy-then-oldest: keep issuing one warp until it stalls")     \
    V(sched, HD_SCHED_TWO_LEVEL, "two_level", "two-level: a small active set fed by a pending pool") \
    V(sched, HD_SCHED_LOCALITY, "locality",                                                        \
      "Gong ch.6 warp groups chosen by the launch's hint (hint 0: lrr)")                           \
    V(sched, HD_SCHED_CTA_AWARE, "cta_aware",                                                      \
      "CTA-aware (OWL-style): oldest CTA group first, round-robin inside it")                      \
    V(sched, HD_SCHED_MASCAR, "mascar",                                                            \
      "MASCAR-style: one owner warp first while memory is saturated, else GTO")                    \
    V(sched, HD_SCHED_LTLWS_LRR, "ltlws_lrr",                                                      \
      "EXPARS's lazy two-level: LRR until the first warp exits, then two-level with W_Opt active " \
      "warps from the issue counts (docs/expars.md)")                                              \
    V(sched, HD_SCHED_LTLWS_GTO, "ltlws_gto", "EXPARS's lazy two-level over GTO (as ltlws_lrr)")

/* Timing model (model/timing): which executor runs launches, CTA distribution, kernel
 * selection, and where register-bank numbers come from. */
#define HD_CFG_ENUM_tmode(V)                                                                       \
    V(tmode, HD_TMODE_CYCLE, "cycle", "the cycle-level timing model (model/timing)")              \
    V(tmode, HD_TMODE_FUNCTIONAL, "functional", "functional execution only, no cycles")
#define HD_CFG_ENUM_ctadist(V)                                                                     \
    V(ctadist, HD_CTADIST_ROUND_ROBIN, "round_robin",                                              \
      "one CTA per SM in turn, starting after the SM that got the last one (GPGPU-Sim)")           \
    V(ctadist, HD_CTADIST_FILL_FIRST, "fill_first",                                                \
      "fill the lowest-numbered SM that has room first")                                          \
    V(ctadist, HD_CTADIST_SM_MASK, "sm_mask",                                                      \
      "round-robin over the SMs whose bit (SM % 32) the launch's hint sets (hint 0: all SMs)")   \
    V(ctadist, HD_CTADIST_LOCALITY, "locality",                                                    \
      "Gong ch.6: hint 0 round-robin; hints 1-3 chunks of cta_dist_chunk adjacent CTAs per SM")
#define HD_CFG_ENUM_admit(V)                                                                       \
    V(admit, HD_ADMIT_ALL, "all", "every SM admits every launch (resources permitting)")          \
    V(admit, HD_ADMIT_LAUNCH_QUOTA, "launch_quota",                                               \
      "an SM holds at most admit_quota CTAs of one launch")                                       \
    V(admit, HD_ADMIT_KERNEL_QUOTA, "kernel_quota",                                               \
      "an SM holds at most admit_quota CTAs of one kernel (over its launches)")
#define HD_CFG_ENUM_ksel(V)                                                                        \
    V(ksel, HD_KSEL_OLDEST, "oldest", "the oldest launch that still has CTAs to place first")     \
    V(ksel, HD_KSEL_ROUND_ROBIN, "round_robin",                                                   \
      "rotate among the running launches that have CTAs to place")
#define HD_CFG_ENUM_alloc(V)                                                                       \
    V(alloc, HD_ALLOC_PARTITIONED, "partitioned",                                                  \
      "lowest free slots, first-fit contiguous register and shared-memory blocks per CTA")         \
    V(alloc, HD_ALLOC_LIN_TABLES, "lin_tables",                                                    \
      "registers and shared memory through Lin's two 16-entry allocation tables (first fit; "     \
      "victims by their minimum spill query)")                                                    \
    V(alloc, HD_ALLOC_ALIGNED, "aligned",                                                          \
      "Shieh's dual-kernel SM: at most two launches, the preempting launch's CTAs only at "       \
      "positions aligned to their footprint (victims: the smallest candidate set)")                \
    V(alloc, HD_ALLOC_WLM, "wlm",                                                                  \
      "warp-level management (Xiang et al., Zorua's WLM baseline): warp slots and registers per "  \
      "warp, partial CTAs admitted, shared memory per CTA (model/mech/zorua)")                     \
    V(alloc, HD_ALLOC_ZORUA, "zorua",                                                              \
      "Zorua: registers, shared memory and warp slots through mapping tables with free lists, "    \
      "oversubscribed into swap up to o_thresh ([zorua], model/mech/zorua)")                       \
    V(alloc, HD_ALLOC_EXPARS, "expars",                                                            \
      "EXPARS: more CTAs than the register file holds, a mix CTA's high registers in a region at " \
      "the top of the shared memory, read through a 2 KB operand cache (docs/expars.md)")          \
    V(alloc, HD_ALLOC_GPUDUET, "gpuduet",                                                          \
      "Lin ch.3 GPUDuet: unified on-chip storage (128 B units, allocation bitmap), extra TBs, "    \
      "warp- or TB-level switching by the limiting resource (model/mech/gpuduet)")                 \
    V(alloc, HD_ALLOC_GPUDUET_TB, "gpuduet_tb",                                                    \
      "GPUDuet with TB-level switching only (Lin ch.3's GPUDuet_TB baseline)")                     \
    V(alloc, HD_ALLOC_VT, "vt",                                                                    \
      "Virtual Thread: extra TBs inactivated on chip at TB level, their registers and shared "     \
      "memory kept in place (capacity bounded by the register file and shared memory)")          \
    V(alloc, HD_ALLOC_WARPMAN, "warpman",                                                          \
      "Warpman (Xiang et al. HPCA 2014; EXPARS's baseline, digest sec. 2.10): whole CTAs, plus "   \
      "one partial CTA whose warps start as registers free; per-warp release (model/mech/warpman)")
#define HD_CFG_ENUM_regbank(V)                                                                     \
    V(regbank, HD_REGBANK_PHYSICAL, "physical",                                                   \
      "bank = physical register from the register allocator (model/compiler/regalloc.h)")        \
    V(regbank, HD_REGBANK_PTX, "ptx", "bank = kernel-wide PTX register index")
/* Which pipeline a timing class issues to ([pipeline] unit_*; GPGPU-Sim 3.x's SFU_OP and
 * ALU_SFU_OP, model/timing/sm_issue.c). */
#define HD_CFG_ENUM_xunit(V)                                                                       \
    V(xunit, HD_XUNIT_SP, "sp", "the SP pipelines (DP ones for FP64 when dp_units > 0)")          \
    V(xunit, HD_XUNIT_SFU, "sfu", "the SFU pipelines (GPGPU-Sim 3.x's SFU_OP)")                   \
    V(xunit, HD_XUNIT_SP_OR_SFU, "sp_or_sfu",                                                      \
      "an SP collector if one is free at issue, else an SFU one (GPGPU-Sim 3.x's ALU_SFU_OP)")

/* Memory system (model/mem, docs/memory.md). */
#define HD_CFG_ENUM_memmodel(V)                                                                    \
    V(memmodel, HD_MEMMODEL_FIXED, "fixed",                                                        \
      "fixed latency and per-SM bandwidth ([mem_fixed])")                                          \
    V(memmodel, HD_MEMMODEL_FULL, "full",                                                          \
      "L1 data and constant caches, crossbar, L2 slices, GDDR5 DRAM (model/mem)")
#define HD_CFG_ENUM_missq(V)                                                                       \
    V(missq, HD_MISSQ_FIFO, "fifo", "oldest request first (GPGPU-Sim)")                            \
    V(missq, HD_MISSQ_READS_FIRST, "reads_first",                                                  \
      "oldest read or atomic before older writes, unless the oldest waited missq_age_limit")
#define HD_CFG_ENUM_shatom(V)                                                                      \
    V(shatom, HD_SHATOM_SERIALIZE, "serialize",                                                    \
      "lanes of an atomic on the same word are served one after another (the hardware)")           \
    V(shatom, HD_SHATOM_BROADCAST, "broadcast",                                                    \
      "same-word lanes count once, as for loads (GPGPU-Sim)")
#define HD_CFG_ENUM_sethash(V)                                                                     \
    V(sethash, HD_SETHASH_LINEAR, "linear", "set = line number mod sets")                          \
    V(sethash, HD_SETHASH_XOR, "xor",                                                              \
      "set = line number xor the next higher index-width bit groups of it, mod sets")
#define HD_CFG_ENUM_icntarb(V)                                                                     \
    V(icntarb, HD_ICNTARB_RR, "rr", "FIFO inputs, round-robin grant per output")                   \
    V(icntarb, HD_ICNTARB_ISLIP, "islip", "virtual output queues, iSLIP matching")
#define HD_CFG_ENUM_dramsched(V)                                                                   \
    V(dramsched, HD_DRAMSCHED_FRFCFS, "frfcfs", "first-ready first-come-first-served")           \
    V(dramsched, HD_DRAMSCHED_FCFS, "fcfs", "first-come-first-served (oldest request only)")

#define HD_CFG_ENUM_preempt(V)                                                                     \
    V(preempt, HD_PREEMPT_NONE, "none", "never preempt: a waiting launch waits for free SMs")       \
    V(preempt, HD_PREEMPT_SWITCH, "switch",                                                        \
      "context switch: save every occupied register and shared-memory byte (Lin's Occup)")         \
    V(preempt, HD_PREEMPT_DRAIN, "drain", "stop placing the victim's CTAs; wait for resident ones") \
    V(preempt, HD_PREEMPT_FLUSH, "flush",                                                          \
      "drop idempotent CTAs and restart them later (refused for a CTA that wrote memory)")
#define HD_CFG_ENUM_ctxsave(V)                                                                     \
    V(ctxsave, HD_CTXSAVE_OCCUPIED, "occupied",                                                    \
      "every allocated register and shared-memory byte (Lin's Occup)")                             \
    V(ctxsave, HD_CTXSAVE_LIVE, "live",                                                            \
      "the live registers at each warp's next PC (divergence-aware union row), shared memory")     \
    V(ctxsave, HD_CTXSAVE_COMPRESSED, "compressed",                                                \
      "the live registers through the register pattern compressor (regpat, in the loop)")         \
    V(ctxsave, HD_CTXSAVE_COMPRESSED_TB, "compressed_tb",                                          \
      "compressed, and at a barrier point TB-level: global classes once per TB (Lin 2.3.3)")
#define HD_CFG_ENUM_ppoints(V)                                                                     \
    V(ppoints, HD_PPOINTS_ANY, "any", "a switched-out warp stops at once, at any instruction")      \
    V(ppoints, HD_PPOINTS_SELECTIVE, "selective",                                                  \
      "it runs on to its next preemption point (Lin's pp / bar.pp, model/compiler/ppoints.h)")
#define HD_CFG_ENUM_preemptpol(V)                                                                  \
    V(preemptpol, HD_PREEMPTPOL_SM, "sm",                                                          \
      "free whole SMs that hold only lower-priority CTAs, every CTA with [context] preempt")       \
    V(preemptpol, HD_PREEMPTPOL_INPLACE, "inplace",                                                \
      "switch out only the allocator's minimum victim set for one CTA of the launch (Lin 2.2)")  \
    V(preemptpol, HD_PREEMPTPOL_SHIEH, "shieh",                                                    \
      "per SM the candidate victim set of least overhead within the latency bound, a technique "  \
      "per TB (Shieh Algorithm 1); the others keep running beside the newcomer")                  \
    V(preemptpol, HD_PREEMPTPOL_CHIMERA, "chimera",                                                \
      "whole SMs in Chimera's order, a technique per TB, drains estimated by mean residency")     \
    V(preemptpol, HD_PREEMPTPOL_CHIMERA_PLUS, "chimera_plus",                                      \
      "chimera with Shieh's lower-variance CPI drain estimate")                                   \
    V(preemptpol, HD_PREEMPTPOL_ORACLE, "oracle",                                                  \
      "shieh with each TB's true drain time from a profiling run ([context] oracle_profile)")
#define HD_CFG_ENUM_preemptsms(V)                                                                  \
    V(preemptsms, HD_PREEMPTSMS_OCCUPANCY, "occupancy",                                            \
      "as many SMs as the launch's CTAs left need at its occupancy on an empty SM")               \
    V(preemptsms, HD_PREEMPTSMS_STANDALONE, "standalone",                                          \
      "as many SMs as its standalone run spreads them over: one per CTA left, up to every SM")    \
    V(preemptsms, HD_PREEMPTSMS_ALL, "all", "every SM: the launch takes the GPU (Shieh L192)")
#define HD_CFG_ENUM_flushbit(V)                                                                    \
    V(flushbit, HD_FLUSHBIT_STORE, "store", "a CTA's flush bit is cleared by its first global "     \
      "store or atomic, whatever its kernel")                                                     \
    V(flushbit, HD_FLUSHBIT_IDEMPOTENCE, "idempotence",                                            \
      "a kernel marked idempotent stays flushable; another's CTA until its first atomic or global " \
      "store (Shieh 3.3, Chimera's relaxed idempotence)")
#define HD_CFG_ENUM_switchmodel(V)                                                                 \
    V(switchmodel, HD_SWITCHMODEL_TRAFFIC, "traffic",                                              \
      "a context switch writes and reads its bytes through the memory system")                    \
    V(switchmodel, HD_SWITCHMODEL_STALL, "stall",                                                  \
      "it stalls the CTA for its bytes over the SM's fair share of the DRAM bandwidth, no memory " \
      "traffic (Shieh 4.1: the thesis's simulation)")                                          \
    V(switchmodel, HD_SWITCHMODEL_STALL_TB, "stall_tb",                                            \
      "each CTA stalls for its own bytes over the SM's fair share, the SM's CTAs in parallel, no " \
      "memory traffic (Shieh 4.1 with Eq 3.1's max over the TBs: each TB's L_CS alone)")        \
    V(switchmodel, HD_SWITCHMODEL_STALL_REQ, "stall_req",                                          \
      "as stall_tb, but each CTA's stall runs from the preemption request and its requests are "   \
      "not paced by the engine: it leaves at max(request + L_CS, drained) (Shieh 4.1: TBs "      \
      "stalled for the estimated time, which is then exact)")
#define HD_CFG_ENUM_saveorder(V)                                                                   \
    V(saveorder, HD_SAVEORDER_TB, "tb",                                                            \
      "a CTA's save starts when every warp of it is drained; the SM's CTAs one after another")    \
    V(saveorder, HD_SAVEORDER_WARP, "warp",                                                        \
      "each warp's registers go to the save engine as soon as that warp is drained (Lin Fig 2.13)")
#define HD_CFG_ENUM_ctxprio(V)                                                                     \
    V(ctxprio, HD_CTXPRIO_LOW, "low", "context traffic leaves the miss queue after demand traffic") \
    V(ctxprio, HD_CTXPRIO_EQUAL, "equal", "context and demand traffic in arrival order")
#define HD_CFG_ENUM_vpiece(V)                                                                      \
    V(vpiece, HD_VPIECE_ANY, "any", "a random piece: a warp's registers, its context or shared memory") \
    V(vpiece, HD_VPIECE_REGS, "regs", "a random warp's share of the CTA's register allocation")  \
    V(vpiece, HD_VPIECE_WARP, "warp", "a random warp's registers and warp state (SIMT stack, frames)") \
    V(vpiece, HD_VPIECE_SMEM, "smem", "a random 128-byte-aligned range of the CTA's shared memory")
#define HD_CFG_ENUM_quiesce(V)                                                                     \
    V(quiesce, HD_QUIESCE_PIPELINE, "pipeline",                                                    \
      "a stopped warp is quiet with only loads in flight; their data lands after the save")       \
    V(quiesce, HD_QUIESCE_WRITEBACK, "writeback",                                                  \
      "a stopped warp is drained: nothing in the pipeline, no pending register write (Lin L930)")
#define HD_CFG_ENUM_wmover(V)                                                                      \
    V(wmover, HD_WMOVER_FIXED, "fixed", "a warp move takes ceil(bytes / [sm] warp_move_bytes) cycles") \
    V(wmover, HD_WMOVER_ONCHIP, "onchip",                                                          \
      "the on-chip context mover into the L1D context region (swap engine when it is full)")       \
    V(wmover, HD_WMOVER_SWAP, "swap", "the swap engine: SWAP-class traffic to the SM's swap window")
/* Gong ch.6 locality-aware distribution: which CTAs count as adjacent (cta_dist_locality.h) */
#define HD_CFG_ENUM_chunkorder(V)                                                                  \
    V(chunkorder, HD_CHUNK_LINEAR, "linear",                                                       \
      "chunks of consecutive linear CTA indices (x fastest): horizontal neighbours together")     \
    V(chunkorder, HD_CHUNK_COLUMN, "column",                                                       \
      "chunks of consecutive CTAs in y-fastest order: vertical neighbours together")             \
    V(chunkorder, HD_CHUNK_KEEP, "keep",                                                           \
      "each SM owns one range of consecutive linear CTA indices for the whole launch: a freed "    \
      "slot takes the next CTA of its SM's range (across waves)")

#define HD_CFG_ENUM_TYPES(X) X(ppoints) X(sched) X(tmode) X(ctadist) X(ksel) X(regbank) X(xunit) X(alloc) X(shatom) \
    X(missq) X(memmodel) X(sethash) X(icntarb) X(dramsched) X(preempt) X(ctxprio) X(ctxsave) \
    X(preemptpol) X(vpiece) X(admit) X(quiesce) \
    X(preemptsms) X(flushbit) X(switchmodel) X(wmover) X(chunkorder) X(saveorder)

#define HD_CFG_ENUM_ITEM_(type, id, spelling, doc) id,
#define HD_CFG_ENUM_DECL_(type) enum hd_cfg_##type { HD_CFG_ENUM_##type(HD_CFG_ENUM_ITEM_) };
HD_CFG_ENUM_TYPES(HD_CFG_ENUM_DECL_)
#undef HD_CFG_ENUM_DECL_
#undef HD_CFG_ENUM_ITEM_
/* }==== */

/* {==== The configuration struct ==== */
#define HD_CFG_STR_MAX 64
struct hd_cfg_str {
    char s[HD_CFG_STR_MAX];
};

#define HD_CFG_CTYPE_U32 uint32_t
#define HD_CFG_CTYPE_U64 uint64_t
#define HD_CFG_CTYPE_F64 double
#define HD_CFG_CTYPE_BOOL bool
#define HD_CFG_CTYPE_STR struct hd_cfg_str
#define HD_CFG_CTYPE_ENUM(name) enum hd_cfg_##name

struct hd_config {
#define HD_PARAM(sec, key, type, def, min, max, doc) HD_CFG_CTYPE_##type sec##_##key;
#include "params.def"
#undef HD_PARAM
};
/* }==== */

/* {==== Parameter descriptors (for tools that walk the table) ==== */
enum hd_cfg_type { HD_CFG_U32, HD_CFG_U64, HD_CFG_F64, HD_CFG_BOOL, HD_CFG_STR, HD_CFG_ENUM };

struct hd_cfg_enum_value {
    int value;
    const char *name;
    const char *doc;
};

struct hd_cfg_param {
    const char *section;
    const char *key;
    enum hd_cfg_type type;
    size_t offset;                          /* of the field in struct hd_config */
    double min, max;                        /* U32/U64/F64 */
    const struct hd_cfg_enum_value *values; /* ENUM: the allowed values */
    unsigned nvalues;
    const char *doc;
};

/* The descriptor table, in params.def order. */
const struct hd_cfg_param *hd_config_params(unsigned *count);
/* The parameter "section.key" (or NULL). */
const struct hd_cfg_param *hd_config_find(const char *section, const char *key);
/* Spelling of an enum value of parameter p ("?" if out of range). */
const char *hd_config_enum_name(const struct hd_cfg_param *p, int value);
/* }==== */

/* An unsigned number as configuration files and command lines write it: decimal or 0x hex,
 * optionally followed by K, M or G (x1024^n) and an optional "iB". Returns 0, or -1 (out
 * unchanged) for anything else, including overflow. */
int hd_config_parse_uint(const char *s, uint64_t *out);

/* {==== Loading and setting ==== */
void hd_config_defaults(struct hd_config *out);
/* Defaults, then the file at `path`, then the cross-parameter checks. Returns 0, or -1 with
 * "path:line: key 'X': message" (or "path: message") in err. On error *out is unspecified. */
int hd_config_load(const char *path, struct hd_config *out, char *err, size_t errlen);
/* Apply INI text (on top of what *cfg holds). `name` is used in messages. No cross checks. */
int hd_config_parse(struct hd_config *cfg, const char *text, size_t len, const char *name,
                    char *err, size_t errlen);
/* Set one parameter from text: "section.key" and a value spelled as in a file. Returns 0, or -1
 * with "key 'X': message" in err. */
int hd_config_set(struct hd_config *cfg, const char *section_key, const char *value, char *err,
                  size_t errlen);
/* Set parameter p from its text form (as hd_config_set). */
int hd_config_set_param(struct hd_config *cfg, const struct hd_cfg_param *p, const char *value,
                        char *err, size_t errlen);
/* hd_config_load, and when the file is a GPGPU-Sim gpgpusim.config, `warn` receives one warning
 * naming the options that were ignored ("path: warning: ...", or "" when there is none; warn may
 * be NULL). hd_config_load itself prints nothing. */
int hd_config_load_ex(const char *path, struct hd_config *out, char *warn, size_t warnlen,
                      char *err, size_t errlen);
/* GPGPU-Sim import (config_gpgpusim.c). Is `text` a GPGPU-Sim option file (its first line that
 * is not a '#' comment starts with "-name")? */
bool hd_config_is_gpgpusim(const char *text, size_t len);
/* Apply a GPGPU-Sim option file on top of *cfg: each option with a Heddle equivalent sets it
 * (the table is in docs/config.md); the others are listed in `ignored` ("-a, -b, ...", may be
 * NULL) and counted in *nignored (may be NULL). gpu.name becomes the file's name. Returns 0, or
 * -1 with "name:line: option '-X': message" in err. No cross checks. */
int hd_config_parse_gpgpusim(struct hd_config *cfg, const char *text, size_t len,
                             const char *name, char *ignored, size_t ignlen, unsigned *nignored,
                             char *err, size_t errlen);
/* Checks that involve several keys (e.g. max_threads a multiple of warp_size). */
int hd_config_validate(const struct hd_config *cfg, char *err, size_t errlen);
bool hd_config_equal(const struct hd_config *a, const struct hd_config *b);
/* }==== */

/* {==== Printing ==== */
/* The value of p in cfg, spelled as a file would (buf is always NUL-terminated). */
void hd_config_format_value(const struct hd_config *cfg, const struct hd_cfg_param *p, char *buf,
                            size_t len);
/* The whole configuration as an INI file that hd_config_parse reads back to an equal config;
 * `prefix` starts every line (e.g. "# " inside a statistics report, or ""). */
void hd_config_write(const struct hd_config *cfg, FILE *out, const char *prefix);
/* `--help-config`: every parameter with type, default, range and doc. */
void hd_config_help(FILE *out);
/* docs/config.md, generated. */
void hd_config_doc_markdown(FILE *out);
/* Its section on importing GPGPU-Sim configurations (called by hd_config_doc_markdown). */
void hd_config_gpgpusim_doc(FILE *out);
/* }==== */

#endif
