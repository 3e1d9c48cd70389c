/* SPDX-License-Identifier: MIT
 * devmem.c - device memory: sparse pages behind a hash map, allocation regions with exact bounds.
 *
 * Design: see devmem.h. The page map is linear-probing open addressing with backward-shift
 * deletion (no tombstones), grown at 50% load. Untouched pages read as zero without being
 * created, so a large hd_memcpy_d2h of a fresh allocation costs no host memory.
 */
#include "devmem.h"

#include "func_status.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {==== Page map ==== */
static size_t slot_of(uint64_t key, size_t cap)
{
    uint64_t h = key * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 20) & (cap - 1);
}

static int map_grow(struct hd_devmem *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 1024;
    uint64_t *keys = calloc(ncap, sizeof *keys);
    uint8_t **pages = calloc(ncap, sizeof *pages);
    if (!keys || !pages) {
        free(keys);
        free(pages);
        return HD_FUNC_ERR_MEMORY;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i])
            continue;
        size_t s = slot_of(m->keys[i], ncap);
        while (keys[s])
            s = (s + 1) & (ncap - 1);
        keys[s] = m->keys[i];
        pages[s] = m->pages[i];
    }
    free(m->keys);
    free(m->pages);
    m->keys = keys;
    m->pages = pages;
    m->cap = ncap;
    return HD_FUNC_OK;
}

/* The page of `vpn` or NULL if it was never touched. */
static uint8_t *map_find(const struct hd_devmem *m, uint64_t vpn)
{
    if (!m->cap)
        return NULL;
    uint64_t key = vpn + 1;
    for (size_t s = slot_of(key, m->cap);; s = (s + 1) & (m->cap - 1)) {
        if (m->keys[s] == key)
            return m->pages[s];
        if (!m->keys[s])
            return NULL;
    }
}

static void map_remove(struct hd_devmem *m, uint64_t vpn)
{
    if (!m->cap)
        return;
    uint64_t key = vpn + 1;
    size_t s = slot_of(key, m->cap);
    while (m->keys[s] != key) {
        if (!m->keys[s])
            return;
        s = (s + 1) & (m->cap - 1);
    }
    free(m->pages[s]);
    m->keys[s] = 0;
    m->pages[s] = NULL;
    m->count--;
    /* backward-shift: move later members of the probe chain into the hole */
    size_t hole = s;
    for (size_t i = (s + 1) & (m->cap - 1); m->keys[i]; i = (i + 1) & (m->cap - 1)) {
        size_t home = slot_of(m->keys[i], m->cap);
        bool movable = (hole <= i) ? (home <= hole || home > i) : (home <= hole && home > i);
        if (movable) {
            m->keys[hole] = m->keys[i];
            m->pages[hole] = m->pages[i];
            m->keys[i] = 0;
            m->pages[i] = NULL;
            hole = i;
        }
    }
    struct hd_devmem_tlb *t = &m->tlb[vpn & (HD_DEVMEM_TLB_ENTRIES - 1)];
    if (t->vpn == key) {
        t->vpn = 0;
        t->page = NULL;
    }
}

uint8_t *hd_devmem_page_slow(struct hd_devmem *m, uint64_t vpn)
{
    uint8_t *p = map_find(m, vpn);
    if (!p) {
        if ((m->count + 1) * 2 > m->cap && map_grow(m) != HD_FUNC_OK)
            return NULL;
        p = calloc(1, HD_DEVMEM_PAGE_BYTES);
        if (!p)
            return NULL;
        uint64_t key = vpn + 1;
        size_t s = slot_of(key, m->cap);
        while (m->keys[s])
            s = (s + 1) & (m->cap - 1);
        m->keys[s] = key;
        m->pages[s] = p;
        m->count++;
    }
    struct hd_devmem_tlb *t = &m->tlb[vpn & (HD_DEVMEM_TLB_ENTRIES - 1)];
    t->vpn = vpn + 1;
    t->page = p;
    return p;
}
/* }==== */

/* {==== Regions ==== */
int hd_devmem_init(struct hd_devmem *m, uint64_t capacity_bytes)
{
    memset(m, 0, sizeof *m);
    m->next_base = HD_ADDR_GLOBAL_BASE;
    m->capacity = capacity_bytes;
    return map_grow(m);
}

void hd_devmem_destroy(struct hd_devmem *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->pages[i]);
    free(m->keys);
    free(m->pages);
    free(m->regions);
    memset(m, 0, sizeof *m);
}

static uint64_t round_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) & ~(a - 1);
}

int hd_devmem_alloc(struct hd_devmem *m, uint64_t bytes, enum hd_devmem_kind kind,
                    const char *name, uint64_t *out, char *err, size_t errlen)
{
    uint64_t charged = round_up(bytes ? bytes : 1, HD_DEVMEM_ALIGN);
    if (bytes > m->capacity || charged > m->capacity - m->in_use) {
        snprintf(err, errlen,
                 "out of device memory: %" PRIu64 " bytes requested, %" PRIu64 " of %" PRIu64
                 " bytes in use",
                 bytes, m->in_use, m->capacity);
        return HD_FUNC_ERR_MEMORY;
    }
    if (m->nregions == m->cap_regions) {
        size_t ncap = m->cap_regions ? m->cap_regions * 2 : 64;
        struct hd_devmem_region *r = realloc(m->regions, ncap * sizeof *r);
        if (!r) {
            snprintf(err, errlen, "host out of memory tracking device allocations");
            return HD_FUNC_ERR_MEMORY;
        }
        m->regions = r;
        m->cap_regions = ncap;
    }
    struct hd_devmem_region *r = &m->regions[m->nregions++];
    r->base = m->next_base;
    r->size = bytes;
    r->kind = (uint8_t)kind;
    r->name = name;
    /* leave one unmapped page between regions so that running off the end is never silent */
    m->next_base = round_up(r->base + charged, HD_DEVMEM_PAGE_BYTES) + HD_DEVMEM_PAGE_BYTES;
    m->in_use += charged;
    *out = r->base;
    return HD_FUNC_OK;
}

static size_t find_index(const struct hd_devmem *m, uint64_t addr)
{
    /* last region with base <= addr, or nregions if none */
    size_t lo = 0, hi = m->nregions;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->regions[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? lo - 1 : m->nregions;
}

int hd_devmem_free(struct hd_devmem *m, uint64_t addr, enum hd_devmem_kind kind, char *err,
                   size_t errlen)
{
    size_t i = find_index(m, addr);
    if (i == m->nregions || m->regions[i].base != addr || m->regions[i].kind != kind) {
        snprintf(err, errlen, "free of 0x%" PRIx64 ": not the start of a live %s", addr,
                 kind == HD_DEVMEM_USER ? "device allocation" : "module variable");
        return HD_FUNC_ERR_MEMORY;
    }
    struct hd_devmem_region r = m->regions[i];
    uint64_t first = r.base >> HD_DEVMEM_PAGE_BITS;
    uint64_t last = (r.base + (r.size ? r.size : 1) - 1) >> HD_DEVMEM_PAGE_BITS;
    for (uint64_t v = first; v <= last; v++)
        map_remove(m, v);
    memmove(&m->regions[i], &m->regions[i + 1], (m->nregions - i - 1) * sizeof r);
    m->nregions--;
    m->hit = 0;
    m->in_use -= round_up(r.size ? r.size : 1, HD_DEVMEM_ALIGN);
    return HD_FUNC_OK;
}

const struct hd_devmem_region *hd_devmem_lookup(struct hd_devmem *m, uint64_t addr, uint64_t size)
{
    size_t i = find_index(m, addr);
    if (i == m->nregions)
        return NULL;
    const struct hd_devmem_region *r = &m->regions[i];
    if (size > r->size || addr - r->base > r->size - size)
        return NULL;
    m->hit = i;
    return r;
}
/* }==== */

/* {==== Bulk copies ==== */
static int check_range(struct hd_devmem *m, uint64_t addr, uint64_t bytes, const char *what,
                       char *err, size_t errlen)
{
    if (bytes == 0)
        return HD_FUNC_OK;
    if (addr + bytes < addr || !hd_devmem_lookup(m, addr, bytes)) {
        snprintf(err, errlen,
                 "%s of %" PRIu64 " bytes at 0x%" PRIx64
                 " is not inside one device allocation",
                 what, bytes, addr);
        return HD_FUNC_ERR_MEMORY;
    }
    return HD_FUNC_OK;
}

int hd_devmem_write(struct hd_devmem *m, uint64_t addr, const void *src, uint64_t bytes,
                    char *err, size_t errlen)
{
    int st = check_range(m, addr, bytes, "write", err, errlen);
    const uint8_t *s = src;
    while (st == HD_FUNC_OK && bytes > 0) {
        uint64_t in_page = HD_DEVMEM_PAGE_BYTES - (addr & (HD_DEVMEM_PAGE_BYTES - 1));
        uint64_t n = bytes < in_page ? bytes : in_page;
        uint8_t *d = hd_devmem_host(m, addr);
        if (!d) {
            snprintf(err, errlen, "host out of memory for device pages");
            return HD_FUNC_ERR_MEMORY;
        }
        memcpy(d, s, n);
        s += n;
        addr += n;
        bytes -= n;
    }
    return st;
}

int hd_devmem_read(struct hd_devmem *m, uint64_t addr, void *dst, uint64_t bytes, char *err,
                   size_t errlen)
{
    int st = check_range(m, addr, bytes, "read", err, errlen);
    uint8_t *d = dst;
    while (st == HD_FUNC_OK && bytes > 0) {
        uint64_t in_page = HD_DEVMEM_PAGE_BYTES - (addr & (HD_DEVMEM_PAGE_BYTES - 1));
        uint64_t n = bytes < in_page ? bytes : in_page;
        const uint8_t *p = map_find(m, addr >> HD_DEVMEM_PAGE_BITS);
        if (p)
            memcpy(d, p + (addr & (HD_DEVMEM_PAGE_BYTES - 1)), n);
        else
            memset(d, 0, n);
        d += n;
        addr += n;
        bytes -= n;
    }
    return st;
}

int hd_devmem_fill(struct hd_devmem *m, uint64_t addr, uint8_t value, uint64_t bytes, char *err,
                   size_t errlen)
{
    int st = check_range(m, addr, bytes, "memset", err, errlen);
    while (st == HD_FUNC_OK && bytes > 0) {
        uint64_t in_page = HD_DEVMEM_PAGE_BYTES - (addr & (HD_DEVMEM_PAGE_BYTES - 1));
        uint64_t n = bytes < in_page ? bytes : in_page;
        uint64_t vpn = addr >> HD_DEVMEM_PAGE_BITS;
        if (value != 0 || map_find(m, vpn)) { /* zeroing an untouched page: nothing to do */
            uint8_t *d = hd_devmem_host(m, addr);
            if (!d) {
                snprintf(err, errlen, "host out of memory for device pages");
                return HD_FUNC_ERR_MEMORY;
            }
            memset(d, value, n);
        }
        addr += n;
        bytes -= n;
    }
    return st;
}
/* }==== */
