/* SPDX-License-Identifier: MIT
 * devmem.h - device memory: a sparse, page-based 64-bit address space with tracked allocations.
 *
 * Design: data lives in 4 KiB host pages, created on first touch and found through an
 * open-addressing hash map keyed by page number, with a small direct-mapped translation cache in
 * front of it (part of the state, so a copy of the state is a complete memory image). Validity
 * is tracked separately from data: a sorted array of regions (user allocations and the module
 * variables of .global/.const space), each with exact byte bounds. An access is legal only if it
 * lies entirely inside one region; everything else is a fault for the caller to report.
 * Regions start on page boundaries and addresses are never reused (a bump pointer), so a freed
 * region releases its pages and a stale pointer faults instead of reading someone else's data.
 * The generic address map (where the shared, local and param windows sit) is defined here too.
 */
#ifndef HD_DEVMEM_H
#define HD_DEVMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* {==== The generic address map ==== */
/* Global memory (and .const variables) live at HD_ADDR_GLOBAL_BASE and up. The shared, local and
 * kernel-param windows are 4 GiB ranges of the generic space; a generic address inside one is
 * window base + the address in that state space (cvta / cvta.to / isspacep use this map). */
#define HD_ADDR_WINDOW_BYTES 0x0000000100000000ull
#define HD_ADDR_SHARED_BASE 0x0000100000000000ull
#define HD_ADDR_LOCAL_BASE 0x0000200000000000ull
#define HD_ADDR_PARAM_BASE 0x0000300000000000ull
#define HD_ADDR_GLOBAL_BASE 0x00007f0000000000ull
/* }==== */

#define HD_DEVMEM_PAGE_BITS 12
#define HD_DEVMEM_PAGE_BYTES (1u << HD_DEVMEM_PAGE_BITS)
#define HD_DEVMEM_TLB_ENTRIES 256
#define HD_DEVMEM_ALIGN 256 /* hd_malloc alignment promise (regions are page-aligned anyway) */

enum hd_devmem_kind {
    HD_DEVMEM_USER = 0,   /* hd_malloc */
    HD_DEVMEM_GLOBAL_VAR, /* module-scope .global variable */
    HD_DEVMEM_CONST_VAR   /* module-scope .const variable */
};

struct hd_devmem_region {
    uint64_t base, size;
    uint8_t kind;     /* enum hd_devmem_kind */
    const char *name; /* variable name for module variables (owned by the module IR), else NULL */
};

struct hd_devmem_tlb {
    uint64_t vpn;   /* page number + 1 (0: empty) */
    uint8_t *page;
};

struct hd_devmem {
    /* page map */
    uint64_t *keys;  /* page number + 1, 0 = empty slot */
    uint8_t **pages;
    size_t cap, count;
    struct hd_devmem_tlb tlb[HD_DEVMEM_TLB_ENTRIES];
    /* regions, sorted by base */
    struct hd_devmem_region *regions;
    size_t nregions, cap_regions;
    size_t hit;          /* index of the last region an access matched */
    uint64_t next_base;  /* bump pointer (page-aligned) */
    uint64_t capacity;   /* bytes that may be allocated in all */
    uint64_t in_use;
};

/* Returns 0 or HD_FUNC_ERR_MEMORY (host allocation failure). */
int hd_devmem_init(struct hd_devmem *m, uint64_t capacity_bytes);
void hd_devmem_destroy(struct hd_devmem *m);

/* Allocate a region of `bytes` (0 allowed: a unique address that no access may touch). Returns
 * 0, or HD_FUNC_ERR_MEMORY when the capacity would be exceeded (message in err). */
int hd_devmem_alloc(struct hd_devmem *m, uint64_t bytes, enum hd_devmem_kind kind,
                    const char *name, uint64_t *out, char *err, size_t errlen);
/* Free the region that starts at `addr`; it must be a live region of kind `kind`. */
int hd_devmem_free(struct hd_devmem *m, uint64_t addr, enum hd_devmem_kind kind, char *err,
                   size_t errlen);

/* The region containing [addr, addr + size), or NULL. Updates the hit cache. */
const struct hd_devmem_region *hd_devmem_lookup(struct hd_devmem *m, uint64_t addr, uint64_t size);

/* Is [addr, addr + size) inside one region? Fast path for the executor. */
static inline bool hd_devmem_valid(struct hd_devmem *m, uint64_t addr, uint64_t size)
{
    if (m->nregions > 0) {
        const struct hd_devmem_region *r = &m->regions[m->hit];
        if (addr >= r->base && size <= r->size && addr - r->base <= r->size - size)
            return true;
    }
    return hd_devmem_lookup(m, addr, size) != NULL;
}

uint8_t *hd_devmem_page_slow(struct hd_devmem *m, uint64_t vpn);

/* Host pointer to the byte at `addr` (valid up to the end of its page), creating the page on
 * first touch; NULL only when the host is out of memory. No validity check. */
static inline uint8_t *hd_devmem_host(struct hd_devmem *m, uint64_t addr)
{
    uint64_t vpn = addr >> HD_DEVMEM_PAGE_BITS;
    struct hd_devmem_tlb *t = &m->tlb[vpn & (HD_DEVMEM_TLB_ENTRIES - 1)];
    if (t->vpn == vpn + 1)
        return t->page + (addr & (HD_DEVMEM_PAGE_BYTES - 1));
    uint8_t *p = hd_devmem_page_slow(m, vpn);
    return p ? p + (addr & (HD_DEVMEM_PAGE_BYTES - 1)) : NULL;
}

/* Range-checked copies for the runtime (may cross pages). Return 0 or HD_FUNC_ERR_MEMORY with
 * a message naming the range. */
int hd_devmem_write(struct hd_devmem *m, uint64_t addr, const void *src, uint64_t bytes,
                    char *err, size_t errlen);
int hd_devmem_read(struct hd_devmem *m, uint64_t addr, void *dst, uint64_t bytes, char *err,
                   size_t errlen);
int hd_devmem_fill(struct hd_devmem *m, uint64_t addr, uint8_t value, uint64_t bytes, char *err,
                   size_t errlen);

#endif
