/* SPDX-License-Identifier: MIT
 * ptx_symtab.c - scoped string hash table (see ptx_symtab.h).
 *
 * Open addressing with linear probing, FNV-1a hashing (with a final mix), load factor at most
 * 1/2. A declaration in
 * a nested scope logs what it replaced; closing the scope replays the log backwards, either
 * restoring the shadowed entry or deleting the key (backward-shift deletion keeps probe chains
 * intact). The log stores keys, not slots, so a rehash in a nested scope is harmless.
 */
#include "ptx_symtab.h"

#include <stdlib.h>
#include <string.h>

static uint32_t hash(const char *k, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)k[i];
        h *= 16777619u;
    }
    /* FNV's low bits depend only on low bits; mix the high bits down (murmur3 finaliser) since
     * the table index is taken from the low bits. */
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

void hd_ptx_symtab_free(struct hd_ptx_symtab *s)
{
    free(s->slots);
    free(s->undo);
    free(s->scope_mark);
    memset(s, 0, sizeof *s);
}

void hd_ptx_symtab_clear(struct hd_ptx_symtab *s)
{
    /* A big table is dropped rather than wiped, so that clearing costs O(entries) amortised:
     * one function with 200k registers must not make every later function pay for it. */
    if (s->cap > 1024) {
        free(s->slots);
        s->slots = NULL;
        s->cap = 0;
    } else if (s->slots) {
        memset(s->slots, 0, (size_t)s->cap * sizeof *s->slots);
    }
    s->count = 0;
    s->depth = 0;
    s->nundo = 0;
}

/* Slot holding key, or the empty slot where it would go. Requires cap > 0. */
static uint32_t find_slot(const struct hd_ptx_symtab *s, const char *key, size_t len)
{
    uint32_t mask = s->cap - 1, i = hash(key, len) & mask;
    while (s->slots[i].key &&
           !(s->slots[i].len == len && memcmp(s->slots[i].key, key, len) == 0))
        i = (i + 1) & mask;
    return i;
}

static bool grow(struct hd_ptx_symtab *s)
{
    uint32_t ncap = s->cap ? s->cap * 2 : 64;
    if (ncap == 0 || ncap > (1u << 30))
        return false;
    struct hd_ptx_symtab_entry *old = s->slots;
    uint32_t ocap = s->cap;
    s->slots = calloc(ncap, sizeof *s->slots);
    if (!s->slots) {
        s->slots = old;
        return false;
    }
    s->cap = ncap;
    for (uint32_t i = 0; i < ocap; i++)
        if (old[i].key)
            s->slots[find_slot(s, old[i].key, old[i].len)] = old[i];
    free(old);
    return true;
}

bool hd_ptx_symtab_get(const struct hd_ptx_symtab *s, const char *key, size_t len, int64_t *value)
{
    if (!s->cap)
        return false;
    uint32_t i = find_slot(s, key, len);
    if (!s->slots[i].key)
        return false;
    *value = s->slots[i].value;
    return true;
}

static bool log_undo(struct hd_ptx_symtab *s, const struct hd_ptx_symtab_undo *u)
{
    if (s->nundo == s->undocap) {
        uint32_t ncap = s->undocap ? s->undocap * 2 : 32;
        if (ncap > (1u << 28))
            return false;
        struct hd_ptx_symtab_undo *n = realloc(s->undo, ncap * sizeof *n);
        if (!n)
            return false;
        s->undo = n;
        s->undocap = ncap;
    }
    s->undo[s->nundo++] = *u;
    return true;
}

int hd_ptx_symtab_put(struct hd_ptx_symtab *s, const char *key, size_t len, int64_t value)
{
    if (len > UINT32_MAX)
        return -1;
    if ((s->count + 1) * 2 > s->cap && !grow(s))
        return -1;
    uint32_t i = find_slot(s, key, len);
    struct hd_ptx_symtab_undo u;
    memset(&u, 0, sizeof u);
    if (s->slots[i].key) {
        if (s->slots[i].depth == s->depth)
            return 0;
        u.had_old = true;
        u.old = s->slots[i];
    }
    if (s->depth > 0) {
        u.old.key = key;
        u.old.len = (uint32_t)len;
        if (!log_undo(s, &u))
            return -1;
    }
    if (!s->slots[i].key)
        s->count++;
    s->slots[i].key = key;
    s->slots[i].len = (uint32_t)len;
    s->slots[i].depth = s->depth;
    s->slots[i].value = value;
    return 1;
}

bool hd_ptx_symtab_push(struct hd_ptx_symtab *s)
{
    if (s->depth + 1 >= s->markcap) {
        uint32_t ncap = s->markcap ? s->markcap * 2 : 8;
        uint32_t *n = realloc(s->scope_mark, ncap * sizeof *n);
        if (!n)
            return false;
        s->scope_mark = n;
        s->markcap = ncap;
    }
    s->scope_mark[++s->depth] = s->nundo;
    return true;
}

static void delete_slot(struct hd_ptx_symtab *s, uint32_t i)
{
    uint32_t mask = s->cap - 1;
    s->slots[i].key = NULL;
    s->count--;
    for (uint32_t j = (i + 1) & mask; s->slots[j].key; j = (j + 1) & mask) {
        struct hd_ptx_symtab_entry e = s->slots[j];
        s->slots[j].key = NULL;
        s->slots[find_slot(s, e.key, e.len)] = e;
    }
}

void hd_ptx_symtab_pop(struct hd_ptx_symtab *s)
{
    if (s->depth == 0)
        return;
    uint32_t mark = s->scope_mark[s->depth--];
    while (s->nundo > mark) {
        const struct hd_ptx_symtab_undo *u = &s->undo[--s->nundo];
        uint32_t i = find_slot(s, u->old.key, u->old.len);
        if (!s->slots[i].key)
            continue;
        if (u->had_old)
            s->slots[i] = u->old;
        else
            delete_slot(s, i);
    }
}
