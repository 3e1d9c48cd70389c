/* SPDX-License-Identifier: MIT
 * ptx_arena.h - the bump allocator that owns every byte of a parsed PTX module.
 *
 * Small allocations come from 64 KiB chunks; large ones (and arrays that grow while parsing) get
 * their own block so that growing them never wastes the old copy. Every block is on one list and
 * is released by hd_ptx_arena_destroy(). The arena counts the bytes it holds and refuses to go
 * past its limit, which is how the front end bounds its memory on hostile input: an allocation
 * that fails returns NULL and the parser turns that into a located error.
 */
#ifndef HD_PTX_ARENA_H
#define HD_PTX_ARENA_H

#include <stddef.h>

struct hd_ptx_arena;

struct hd_ptx_arena *hd_ptx_arena_create(size_t limit_bytes);
void hd_ptx_arena_destroy(struct hd_ptx_arena *a);
/* Zeroed memory aligned for any object, or NULL when the limit would be exceeded. */
void *hd_ptx_arena_alloc(struct hd_ptx_arena *a, size_t bytes);
/* Grow (or allocate, when p is NULL) a block to `bytes`, keeping its contents and zeroing the new
 * tail. `p` must come from hd_ptx_arena_alloc or this function on the same arena. */
void *hd_ptx_arena_grow(struct hd_ptx_arena *a, void *p, size_t old_bytes, size_t bytes);
/* A NUL-terminated copy of s[0..len). */
char *hd_ptx_arena_strndup(struct hd_ptx_arena *a, const char *s, size_t len);

#endif
