/* SPDX-License-Identifier: MIT
 * mem_iface.h - the port between the SMs and the memory system: a request record and a small
 * ops struct that every memory model implements.
 *
 * Design: an SM sends requests (one coalesced segment or sector of a warp's access, or one
 * instruction-cache line) when can_send() allows it, and later receives the completed ones for
 * that SM through recv(), in completion order. Requests carry no data (the functional model has
 * already done the access at issue); they carry what a timing model of caches, interconnect and
 * DRAM needs: address, size, kind, state space, SM, kernel (launch id) and the cycle it was sent,
 * plus an opaque tag that comes back unchanged. Everything that completes is returned, stores
 * included (fences wait for them). The memory model is ticked once per core cycle after the SMs'
 * sends of the previous cycle; `now` is always passed in (rule C7), never read from a global.
 * Implementations: mem_fixed.c (fixed latency, per-SM bandwidth; [mem] model = fixed),
 * and model/mem/mem_full.c (GPGPU-Sim-style L1 / crossbar / L2 / DRAM, the default).
 */
#ifndef HD_MEM_IFACE_H
#define HD_MEM_IFACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum hd_mem_kind { HD_MEM_LOAD = 0, HD_MEM_STORE, HD_MEM_ATOMIC, HD_MEM_IFETCH, HD_MEM_KINDS };

/* Traffic classes (hd_mem_req.cls): demand traffic of the kernels, and the non-demand traffic
 * that preemption and virtualization mechanisms add (context save/restore, swap). The memory
 * system accounts each class separately and may give non-demand classes a lower priority
 * ([context] priority, docs/context.md). */
enum hd_mem_class { HD_MCLASS_DEMAND = 0, HD_MCLASS_CONTEXT, HD_MCLASS_SWAP, HD_MCLASS_COUNT };

/* Request flags (hd_mem_req.flags). */
enum hd_mem_flag {
    HD_MEMF_BYPASS_L1 = 1u << 0 /* a load with PTX cache operator .cg or .cv: not cached in the
                                   L1 (the L2 serves it); a model without an L1 ignores it */
};

/* Where a completed read was served (hd_mem_req.served): its L1 (a hit: every piece of it hit),
 * the L2, or DRAM (the deepest level any piece needed). A model without an L1 (mem_fixed.c)
 * leaves HD_SERVED_UNKNOWN, which the SM treats as "not an L1 hit". */
enum hd_mem_served { HD_SERVED_UNKNOWN = 0, HD_SERVED_L1, HD_SERVED_L2, HD_SERVED_DRAM };

struct hd_mem_req {
    uint64_t addr;        /* first byte (aligned to the segment, sector or line) */
    uint64_t tag;         /* the sender's; returned unchanged */
    uint64_t issue_cycle; /* the cycle it was sent */
    uint64_t done_cycle;  /* set by the memory model when it completes */
    uint32_t bytes;
    uint32_t kernel;      /* launch id, for per-kernel traffic accounting */
    uint16_t sm;
    uint8_t kind;         /* enum hd_mem_kind */
    uint8_t space;        /* enum hd_space: GLOBAL, LOCAL, CONST or PARAM (these two only to a
                             model with a constant cache, see const_line); NONE for a fetch */
    uint8_t flags;        /* enum hd_mem_flag bits */
    uint8_t cls;          /* enum hd_mem_class */
    uint8_t served;       /* set at completion by a model that knows it: where a read was
                             served (enum hd_mem_served); HD_SERVED_UNKNOWN otherwise */
    uint64_t sectors;     /* bit i: the warp touched bytes [addr + 32 i, addr + 32 i + 32);
                             0 = every byte of [addr, addr + bytes) (the coalescer's sector mask,
                             model/mem/coalesce.h) */
};

struct hd_mem_ops {
    const char *name;
    /* May SM r->sm send r this cycle? (bandwidth, queue space) */
    bool (*can_send)(const void *impl, const struct hd_mem_req *r, uint64_t now);
    /* Send r (copied). Returns false, changing nothing, if can_send() would say no. */
    bool (*send)(void *impl, const struct hd_mem_req *r, uint64_t now);
    /* Up to `max` requests of SM `sm` completed by `now`, oldest first, into out. */
    unsigned (*recv)(void *impl, unsigned sm, struct hd_mem_req *out, unsigned max, uint64_t now);
    /* Advance one cycle. Returns true if something moved (for the watchdog). */
    bool (*tick)(void *impl, uint64_t now);
    /* Nothing in flight? */
    bool (*idle)(const void *impl);
    /* Requests of SM `sm` in flight (sent, not yet received). */
    unsigned (*pending)(const void *impl, unsigned sm);
    /* The earliest cycle > now at which something completes or can move, UINT64_MAX if none
     * (lets the GPU skip cycles in which nothing can happen). */
    uint64_t (*next_event)(const void *impl, uint64_t now);
    /* One line describing what is in flight (deadlock reports). */
    void (*describe)(const void *impl, char *buf, size_t len);
    /* Drop everything in flight (after an aborted run). */
    void (*flush)(void *impl);
    void (*destroy)(void *impl);
};

struct hd_mem {
    const struct hd_mem_ops *ops;
    void *impl;
    /* Optional (NULL: ops->next_event bounds it): the earliest cycle > now at which a request
     * of SM `sm` completes, UINT64_MAX if none; lets an SM that only waits for memory sleep. */
    uint64_t (*next_event_sm)(const void *impl, unsigned sm, uint64_t now);
    /* Line size of the model's constant cache, 0 if it has none: then the SM times .const and
     * .param loads itself ([pipeline] const_latency) and sends no CONST/PARAM requests. */
    uint32_t const_line;
    /* Optional (NULL: the model has no L1 miss notices): turn on the notices of SM loads that
     * missed the L1D at their lookup (a miss that allocated or merged into an MSHR entry, or a
     * load that bypassed the L1), and take up to `max` of SM `sm`'s, oldest first, as the
     * requests' tags. Off by default (no cost); the SM turns them on when a hook subscribes to
     * its stall events (mech.h), so the L1 miss of a load is known while the warp waits. */
    void (*l1_notices_on)(void *impl);
    unsigned (*l1_miss_notices)(void *impl, unsigned sm, uint64_t *tags, unsigned max);
};

#endif
