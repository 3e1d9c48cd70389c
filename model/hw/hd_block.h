/* SPDX-License-Identifier: MIT
 * hd_block.h - a hardware block's interface as data: the port table that each block's
 * rtl/<block>/<block>_ports.def expands into (hd_ports_table.h), and the generic operations on
 * I/O structs that the C references, the co-simulation, the FST writer, the docs and the port
 * check share (style rule G1).
 *
 * Design: a block's C reference has two structs, `in` (IN rows) and `out` (OUT rows). A port of
 * 1..64 bits is a uint64_t field; a wider one is an array of 32-bit words, word i holding bits
 * [32i+31:32i] (Verilator's VlWide layout). A port descriptor records where its field lives
 * (offsetof) so that one loop serves every block: masking to the width (a bit above a port's
 * width is a bit-exactness bug), comparing, formatting, and listing. Immutable tables only.
 */
#ifndef HD_BLOCK_H
#define HD_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HD_WORDS(w) (((w) + 31u) / 32u)

enum hd_port_dir { HD_DIR_IN = 0, HD_DIR_OUT = 1 };

struct hd_port_desc {
    const char *name;
    enum hd_port_dir dir;
    unsigned width;     /* bits */
    uint64_t reset;     /* value during reset (narrow ports; wide ports reset to 0) */
    const char *doc;
    size_t offset;      /* of the field in the in or out struct */
    bool wide;          /* uint32_t[HD_WORDS(width)] instead of uint64_t */
};

struct hd_block_desc {
    const char *name;
    unsigned latency;   /* cycles from an input to the output it causes */
    const char *doc;
    const char *clock, *reset;
    const struct hd_port_desc *ports;
    unsigned nports;
    size_t in_size, out_size;
};

/* 32-bit word `word` of port p in the struct `io` of its direction (0 past the port's width). */
uint32_t hd_port_word(const struct hd_port_desc *p, const void *io, unsigned word);
void hd_port_set_word(const struct hd_port_desc *p, void *io, unsigned word, uint32_t v);
/* Bit `bit` of port p. */
bool hd_port_bit(const struct hd_port_desc *p, const void *io, unsigned bit);

/* Clear the bits above each port's width in the struct of direction `dir`. Returns the number of
 * ports that had such bits set (0 for a clean struct). */
unsigned hd_block_clamp(const struct hd_block_desc *b, enum hd_port_dir dir, void *io);
/* Set every port of direction `dir` to its reset value. */
void hd_block_reset_values(const struct hd_block_desc *b, enum hd_port_dir dir, void *io);
/* Do ports p of the two structs hold the same value? */
bool hd_port_equal(const struct hd_port_desc *p, const void *a, const void *b);
/* Hex value of port p ("0x..." with exactly ceil(width/4) digits) into buf. */
void hd_port_format(const struct hd_port_desc *p, const void *io, char *buf, size_t len);
/* The port called `name`, or NULL. */
const struct hd_port_desc *hd_block_port(const struct hd_block_desc *b, const char *name);

/* One line per port, "name input|output width", clock and reset first (the port check's form). */
void hd_block_print_ports(const struct hd_block_desc *b, FILE *f);
/* The Markdown port table of docs/blocks/<block>.md. */
void hd_block_print_ports_md(const struct hd_block_desc *b, FILE *f);

#endif
