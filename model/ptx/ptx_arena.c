/* SPDX-License-Identifier: MIT
 * ptx_arena.c - bump allocator with a byte limit (see ptx_arena.h).
 *
 * Layout: a doubly linked list of blocks, each a header followed by its payload. The newest
 * "chunk" block serves small requests by bumping an offset; requests above HD_ARENA_BIG get a
 * block of their own, which hd_ptx_arena_grow() can realloc in place of copying. A payload
 * pointer of a big block is recognised by its header's magic tag.
 */
#include "ptx_arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HD_ARENA_CHUNK (64u * 1024u)
#define HD_ARENA_BIG (4u * 1024u)
#define HD_ARENA_MAGIC 0x48444152u /* "HDAR" */

struct hd_arena_block {
    struct hd_arena_block *prev, *next;
    size_t size;   /* payload bytes */
    size_t used;   /* bump offset (chunks only) */
    uint32_t magic; /* HD_ARENA_MAGIC for a big block, 0 for a chunk */
    uint32_t pad;
    max_align_t align[]; /* payload */
};

struct hd_ptx_arena {
    struct hd_arena_block *head; /* newest first */
    struct hd_arena_block *chunk; /* current bump chunk or NULL */
    size_t held, limit;
};

struct hd_ptx_arena *hd_ptx_arena_create(size_t limit_bytes)
{
    struct hd_ptx_arena *a = calloc(1, sizeof *a);
    if (a)
        a->limit = limit_bytes;
    return a;
}

void hd_ptx_arena_destroy(struct hd_ptx_arena *a)
{
    if (!a)
        return;
    struct hd_arena_block *b = a->head;
    while (b) {
        struct hd_arena_block *n = b->next;
        free(b);
        b = n;
    }
    free(a);
}

static void link_block(struct hd_ptx_arena *a, struct hd_arena_block *b)
{
    b->prev = NULL;
    b->next = a->head;
    if (a->head)
        a->head->prev = b;
    a->head = b;
}

static struct hd_arena_block *new_block(struct hd_ptx_arena *a, size_t payload, uint32_t magic)
{
    if (payload > a->limit || a->held > a->limit - payload)
        return NULL;
    struct hd_arena_block *b = calloc(1, sizeof *b + payload);
    if (!b)
        return NULL;
    b->size = payload;
    b->magic = magic;
    a->held += payload;
    link_block(a, b);
    return b;
}

static size_t round_up(size_t n)
{
    const size_t al = sizeof(max_align_t);
    return (n + al - 1) / al * al;
}

void *hd_ptx_arena_alloc(struct hd_ptx_arena *a, size_t bytes)
{
    if (bytes == 0)
        bytes = 1;
    if (bytes > SIZE_MAX / 2)
        return NULL;
    bytes = round_up(bytes);
    if (bytes > HD_ARENA_BIG) {
        struct hd_arena_block *b = new_block(a, bytes, HD_ARENA_MAGIC);
        return b ? (void *)b->align : NULL;
    }
    if (!a->chunk || a->chunk->size - a->chunk->used < bytes) {
        a->chunk = new_block(a, HD_ARENA_CHUNK, 0);
        if (!a->chunk)
            return NULL;
    }
    void *p = (char *)a->chunk->align + a->chunk->used;
    a->chunk->used += bytes;
    return p;
}

void *hd_ptx_arena_grow(struct hd_ptx_arena *a, void *p, size_t old_bytes, size_t bytes)
{
    if (!p)
        return hd_ptx_arena_alloc(a, bytes);
    if (bytes <= old_bytes)
        return p;
    if (bytes > SIZE_MAX / 2)
        return NULL;
    struct hd_arena_block *b =
        (struct hd_arena_block *)((char *)p - offsetof(struct hd_arena_block, align));
    if (old_bytes > HD_ARENA_BIG && b->magic == HD_ARENA_MAGIC) {
        size_t nsize = round_up(bytes);
        if (nsize - b->size > a->limit || a->held > a->limit - (nsize - b->size))
            return NULL;
        struct hd_arena_block *prev = b->prev, *next = b->next;
        struct hd_arena_block *nb = realloc(b, sizeof *nb + nsize);
        if (!nb)
            return NULL;
        memset((char *)nb->align + nb->size, 0, nsize - nb->size);
        a->held += nsize - nb->size;
        nb->size = nsize;
        if (prev)
            prev->next = nb;
        else
            a->head = nb;
        if (next)
            next->prev = nb;
        return nb->align;
    }
    void *q = hd_ptx_arena_alloc(a, bytes);
    if (q)
        memcpy(q, p, old_bytes);
    return q;
}

char *hd_ptx_arena_strndup(struct hd_ptx_arena *a, const char *s, size_t len)
{
    if (len == SIZE_MAX)
        return NULL;
    char *d = hd_ptx_arena_alloc(a, len + 1);
    if (d) {
        memcpy(d, s, len);
        d[len] = '\0';
    }
    return d;
}
