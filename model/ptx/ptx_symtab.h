/* SPDX-License-Identifier: MIT
 * ptx_symtab.h - a string -> integer hash table with nested scopes, for the parser's registers,
 * labels, variables and functions.
 *
 * Keys are (pointer, length) pairs that must stay valid while the table lives (the parser keeps
 * them in the module arena). Each entry remembers the scope depth it was declared at; closing a
 * scope removes the names declared in it and restores what they shadowed, so PTX's `{ ... }`
 * blocks (nvcc's call sequences re-declare `param0` in each) resolve like the PTX ISA says.
 * Memory is plain malloc, owned by the table and released by hd_ptx_symtab_free().
 */
#ifndef HD_PTX_SYMTAB_H
#define HD_PTX_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hd_ptx_symtab_entry {
    const char *key;
    uint32_t len;
    uint32_t depth;
    int64_t value;
};

struct hd_ptx_symtab_undo {
    uint32_t slot;        /* slot that was changed */
    bool had_old;         /* it held a shadowed entry (else it was empty) */
    struct hd_ptx_symtab_entry old;
};

struct hd_ptx_symtab {
    struct hd_ptx_symtab_entry *slots; /* key == NULL: empty */
    uint32_t cap, count;
    uint32_t depth;
    struct hd_ptx_symtab_undo *undo;   /* changes made in scopes deeper than 0 */
    uint32_t nundo, undocap;
    uint32_t *scope_mark;              /* nundo at each scope entry */
    uint32_t markcap;
};

void hd_ptx_symtab_free(struct hd_ptx_symtab *s);
void hd_ptx_symtab_clear(struct hd_ptx_symtab *s);
/* The value of `key`, or false when absent. */
bool hd_ptx_symtab_get(const struct hd_ptx_symtab *s, const char *key, size_t len, int64_t *value);
/* Declares key in the current scope. Returns 1 on success, 0 if it is already declared in the
 * current scope (value untouched), -1 if out of memory. */
int hd_ptx_symtab_put(struct hd_ptx_symtab *s, const char *key, size_t len, int64_t value);
bool hd_ptx_symtab_push(struct hd_ptx_symtab *s); /* false if out of memory */
void hd_ptx_symtab_pop(struct hd_ptx_symtab *s);

#endif
