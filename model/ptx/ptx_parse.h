/* SPDX-License-Identifier: MIT
 * ptx_parse.h - entry points of the PTX front end (lexer + parser -> struct hd_module).
 *
 * The parser accepts the PTX that nvcc 13 emits (PTX ISA 9.x, .target sm_xx, .address_size 64) and
 * rejects anything else with one message "file:line:col: error: ..." in err[errlen]. It never
 * crashes or hangs on arbitrary bytes (it is fuzzed), and bounds its own memory.
 */
#ifndef HD_PTX_PARSE_H
#define HD_PTX_PARSE_H

#include "ptx_ir.h"

/* Parse `len` bytes of PTX text (need not be NUL-terminated). `filename` is used in messages.
 * Returns NULL on error with the located message in err. */
struct hd_module *hd_ptx_parse(const char *text, size_t len, const char *filename, char *err,
                               size_t errlen);
/* Read and parse a file; I/O errors are reported as "file: cannot read: reason". */
struct hd_module *hd_ptx_parse_file(const char *path, char *err, size_t errlen);
/* Read a whole PTX file, at most HD_PTX_MAX_INPUT bytes (256 MiB). Returns the text (malloc'd,
 * *len bytes, not NUL-terminated), or NULL with "file: reason" in err ("is a directory",
 * "larger than 256 MiB", the errno text) and errno set. */
char *hd_ptx_read_file(const char *path, size_t *len, char *err, size_t errlen);
void hd_ptx_module_free(struct hd_module *m);

/* Index of the function named `name` in m->funcs, or -1. */
int hd_ptx_find_func(const struct hd_module *m, const char *name);
/* Byte offset of each parameter in the kernel's parameter buffer (natural alignment, or .align). */
uint64_t hd_ptx_param_offset(const struct hd_func *f, uint32_t param_index);
uint64_t hd_ptx_param_bytes(const struct hd_func *f); /* total parameter buffer size */

/* Write one instruction as PTX text (for ptx-info, traces and error messages). */
void hd_ptx_format_instr(const struct hd_func *f, const struct hd_instr *in, char *buf, size_t len);

#endif
