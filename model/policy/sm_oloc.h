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
 */
#ifndef HD_SM_OLOC_H
#define HD_SM_OLOC_H

#include <stdbool.h>
#include <stdint.h>

enum hd_oloc_kind { HD_OLOC_REGBANK, HD_OLOC_SCRATCHPAD, HD_OLOC_OPCACHE, HD_OLOC_SWAPPED };

struct hd_oloc_query {
    uint32_t warp;      /* warp slot */
    uint32_t cta_slot;
    uint32_t launch;    /* launch id */
    uint32_t pc;        /* kernel-wide PC of the instruction */
    uint32_t reg;       /* the word's register number (physical, or PTX with reg_bank_source) */
    uint32_t bank;      /* the register bank it would be read from by default */
};

struct hd_oloc {
    uint8_t kind;       /* enum hd_oloc_kind */
    uint16_t port;      /* in the SM's port space (see above) */
    uint16_t latency;   /* cycles added before the instruction may dispatch */
};

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
