/* SPDX-License-Identifier: MIT
 * sm_oloc.h - the operand-location hook: where an instruction's source operands live (register
 * bank, scratchpad, operand cache, swapped out to memory), each place with its own read ports
 * and latency; and the extra cycles of a shared-memory access.
 *
 * Design (style rule C9): the operand collector (sm_opcoll.c) asks the policy, for each banked
 * register word an instruction reads, where the word is: a kind, a port and a latency. Ports are
 * numbered in one space per SM: [0, reg_banks) are the register banks (reg_bank_reads reads per
 * cycle each), [reg_banks, reg_banks + nports) the policy's own ports (port_reads[i] reads per
 * cycle each: a scratchpad port, an operand cache, a swap buffer). A collector's reads contend
 * for their ports exactly as bank reads do today; the instruction may dispatch `latency` cycles
 * after its last read (the largest latency of its words: a mapping-table lookup, Zorua's +2
 * cycles; a swapped register's fill). The load/store unit adds shared() cycles to a shared
 * access (EXPARS: the scratchpad port that register fills and ld/st.shared share). No policy
 * installed (the default) is today's register file: bank = (register + warp offset) mod banks,
 * latency 0, no shared extra: the collector does not call anything then, so cycles are
 * unchanged. A policy keeps its state in impl and gets the time as an argument (rule C7);
 * hd_sm_set_oloc (sm_policy.h) installs one.
 *
 * Operand locations that can miss (issue 25 item 5; docs/oloc.md). The members after `destroy`
 * (all optional, zero = absent) extend the hook:
 *   - q.now is the cycle of the question, so a policy may move registers at cycles of its own
 *     choosing (applied lazily when it is next asked: rule C7);
 *   - locate() may answer "not here yet" (out->miss): the word must first be filled, either from
 *     a port (fill_port, read like an operand, landing fill_latency cycles later: scratchpad or
 *     operand cache) or by a memory request (fill_addr, fill_bytes: a swapped register; a real
 *     SWAP-class load through the SM's memory path). The collector issues the fill, waits, calls
 *     filled() in the cycle it lands, locates the word again (a retry) and reads it from where
 *     it is then; the instruction dispatches as always, the cycle after its last read + latency;
 *   - locate_dst() says where each destination word is written (preset: its bank). A write to a
 *     policy port takes one of its port_writes[i] write slots in the cycle of the writeback; a
 *     write that finds them taken waits a cycle, as a read does. Writes to register banks are
 *     not limited (the result bus, wb_ports, already is);
 *   - spad_ports marks the policy ports that are the scratchpad's banks: one pass per cycle
 *     serves either one warp register (a read, a write or a fill of such a port) or one
 *     conflict-degree pass of an ld/st.shared, so the two contend for ONE resource (EXPARS's
 *     bank arbitrator). spad_ports = 0: the policy's ports are separate from the shared banks.
 * None of this runs without a policy: the collector tests sm->oloc.ops and nothing else.
 */
#ifndef HD_SM_OLOC_H
#define HD_SM_OLOC_H

#include <stdbool.h>
#include <stdint.h>

struct hd_func_kernel;
struct hd_func_warp;
struct hd_annot;

enum hd_oloc_kind { HD_OLOC_REGBANK, HD_OLOC_SCRATCHPAD, HD_OLOC_OPCACHE, HD_OLOC_SWAPPED };

struct hd_oloc_query {
    uint32_t warp;      /* warp slot */
    uint32_t cta_slot;
    uint32_t launch;    /* launch id */
    uint32_t pc;        /* kernel-wide PC of the instruction */
    uint32_t reg;       /* the word's register number (physical, or PTX with reg_bank_source) */
    uint32_t bank;      /* the register bank it would be read from by default */
    uint64_t now;       /* the cycle of the question */
    bool dst;           /* a destination word (locate_dst) */
    /* ---- the functional state behind the words (issue 33 item 3: a policy whose model carries
     * register values compares them with the functional model's; others ignore these) ---- */
    const struct hd_func_kernel *k; /* the launch's kernel image (k->code[pc]: reads, writes) */
    const struct hd_annot *an;      /* its annotation store (the register allocation) */
    const struct hd_func_warp *fw;  /* the warp's functional state (its registers) */
    uint32_t cu;                    /* the collector unit (reads and issue; 0 for writes) */
    uint32_t budget;                /* registers per thread the numbers fold into (0: none) */
};

struct hd_oloc {
    uint8_t kind;       /* enum hd_oloc_kind */
    uint16_t port;      /* in the SM's port space (see above) */
    uint16_t latency;   /* cycles added before the instruction may dispatch */
    uint16_t stage;     /* cycles of a pipelined lookup stage ahead of the reads (a translation,
                           e.g. a mapping table; one instruction a cycle): the instruction's
                           result comes that much later, its collector is not held: an SP/SFU/
                           DP result, a shared or constant access's data, a global access's
                           first request (the load/store unit holds it until it leaves) */
    /* "not here yet" (locate only; 0: the word is at `port`) */
    uint8_t miss;          /* enum hd_oloc_miss */
    uint16_t fill_port;    /* HD_OLOC_FILL_PORT: the port the fill reads (contends as a read) */
    uint16_t fill_latency; /* HD_OLOC_FILL_PORT: cycles from the fill's read to its landing */
    uint32_t fill_bytes;   /* HD_OLOC_FILL_MEM: bytes of the load (128: a warp register) */
    uint64_t fill_addr;    /* HD_OLOC_FILL_MEM: its address (the swap window, addr_map.h) */
    uint8_t fill_cached;   /* HD_OLOC_FILL_MEM: the load may be served by the L1 (a global load;
                              0: it bypasses the L1, as a context fill) */
};

enum hd_oloc_miss { HD_OLOC_PRESENT = 0, HD_OLOC_FILL_PORT, HD_OLOC_FILL_MEM };

struct hd_oloc_ops {
    const char *name;
    uint32_t nports;            /* ports beyond the register banks (at most 64) */
    const uint8_t *port_reads;  /* [nports] reads per cycle of each */
    /* Where the word of q lives (out is preset to the default: its bank, latency 0). */
    void (*locate)(void *impl, const struct hd_oloc_query *q, struct hd_oloc *out);
    /* Extra cycles of a shared-memory access of warp `warp` that occupies the shared banks
     * `degree` cycles from `now` (may be NULL: none). */
    uint32_t (*shared)(void *impl, uint32_t warp, uint32_t degree, uint64_t now);
    void (*destroy)(void *impl); /* may be NULL */
    /* ---- operand locations that can miss (issue 25 item 5); each may be 0 / NULL ---- */
    const uint8_t *port_writes; /* [nports] writes per cycle of each (NULL: 1 each) */
    uint64_t spad_ports;        /* bit i: port reg_banks + i is in the scratchpad banks */
    /* Where destination word q is written (out preset to its bank; miss is ignored: a write
     * allocates). */
    void (*locate_dst)(void *impl, const struct hd_oloc_query *q, struct hd_oloc *out);
    /* The fill of word q that locate() asked for has landed (cycle q->now). */
    void (*filled)(void *impl, const struct hd_oloc_query *q);
    /* ---- the scratchpad banks' arbiter in a policy's hardware (may be NULL) ---- */
    /* Each decision over the spad_ports banks at cycle now (docs/oloc.md "One scratchpad"):
     * kind 0 a register pass (read, fill or write; model = 1 when the banks are free), kind 1
     * an ld/st.shared of `degree` passes (model = its wait). Returns the decision the SM applies:
     * the model's, or the policy's block's (EXPARS's bank arbitrator in the loop, which stops
     * the run when the two differ; with --drive rtl the RTL's). */
    uint64_t (*spad_arb)(void *impl, unsigned kind, uint32_t degree, uint64_t now,
                         uint64_t model);
    /* ---- values (issue 33 item 3; may be NULL) ---- */
    /* Warp q->warp's instruction at q->pc, given collector q->cu, is about to be executed by
     * the functional model (execute at issue, docs/timing.md): its source registers still hold
     * the values it reads (q->reg is 0). Called in the issue stage just before the step. */
    void (*issue)(void *impl, const struct hd_oloc_query *q);
    /* ---- the policy's own scratchpad passes (may be NULL; docs/oloc.md "Own passes") ---- */
    /* Once per cycle, after the collector's reads and fills (the lowest priority of the
     * spad_ports banks): does the policy want one pass at cycle now (EXPARS: a register
     * prefetcher's transfer)? If so the SM arbitrates it like a register pass (spad_arb, kind
     * 0), takes the banks for the cycle when granted, and tells spad_took(granted). */
    bool (*spad_want)(void *impl, uint64_t now);
    void (*spad_took)(void *impl, uint64_t now, bool granted);
};

/* An SM's installed policy (ops NULL: the register file as it is). */
struct hd_oloc_slot {
    const struct hd_oloc_ops *ops;
    void *impl;
};

#define HD_OLOC_MAX_PORTS 64

static inline uint32_t hd_oloc_shared(const struct hd_oloc_slot *o, uint32_t warp,
                                      uint32_t degree, uint64_t now)
{
    return o->ops && o->ops->shared ? o->ops->shared(o->impl, warp, degree, now) : 0;
}

#endif
