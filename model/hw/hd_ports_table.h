/* SPDX-License-Identifier: MIT
 * hd_ports_table.h - expands HD_PORTS_DEF into a block descriptor (hd_block.h) named
 * HD_PORTS_BLOCK_VAR, over the structs HD_PORTS_IN_T and HD_PORTS_OUT_T, with a compile-time
 * check of every row's width class (HD_PORT 1..64 bits, HD_PORT_W any width: above 64, or a
 * width a named configuration may take above 64, zorua_coord's warp masks) and that a wide row's
 * field holds its words (hd_ports_fields.h, HD_PORTS_WIDE_WORDS). Include it at file
 * scope in the block's C reference (.c), once:
 *     #define HD_PORTS_DEF "regpat_comp_ports.def"
 *     #define HD_PORTS_IN_T struct hd_regpat_comp_in
 *     #define HD_PORTS_OUT_T struct hd_regpat_comp_out
 *     #define HD_PORTS_BLOCK_VAR hd_regpat_comp_block
 *     #include "hd_ports_table.h"
 * HD_TAG(name, width, doc) rows (model-side fields for waveforms) become the descriptor's tags.
 */
#define HD_PT_T_IN HD_PORTS_IN_T
#define HD_PT_T_OUT HD_PORTS_OUT_T
#define HD_BLOCK(n, lat, doc)
#define HD_CLOCK(n)
#define HD_RESET(n)
#define HD_PORT(d, n, w, r, doc)                                                                   \
    _Static_assert((w) >= 1 && (w) <= 64, "HD_PORT " #n ": width must be 1..64 (HD_PORT_W above)");
#define HD_PORT_W(d, n, w, r, doc)                                                                 \
    _Static_assert((w) >= 1 && sizeof(((HD_PT_T_##d *)0)->n) >= 4u * HD_WORDS(w),                 \
                   "HD_PORT_W " #n ": width must be 1 or more and fit its field's words");
#define HD_TAG(n, w, doc)                                                                          \
    _Static_assert((w) >= 1 && (w) <= 64, "HD_TAG " #n ": width must be 1..64");
#include HD_PORTS_DEF
#undef HD_PORT
#undef HD_PORT_W
#undef HD_TAG

static const struct hd_port_desc hd_ports_table_rows_[] = {
#define HD_PORT(d, n, w, r, doc) {#n, HD_DIR_##d, (w), (r), doc, offsetof(HD_PT_T_##d, n), false},
#define HD_PORT_W(d, n, w, r, doc) {#n, HD_DIR_##d, (w), (r), doc, offsetof(HD_PT_T_##d, n), true},
#include HD_PORTS_DEF
#undef HD_PORT
#undef HD_PORT_W
};
/* Model-side tag fields (HD_TAG rows); a block without any gets one unused row. */
static const struct hd_tag_desc hd_ports_table_tags_[] = {
#define HD_PORT(d, n, w, r, doc)
#define HD_PORT_W(d, n, w, r, doc)
#define HD_TAG(n, w, doc) {#n, (w), doc},
#include HD_PORTS_DEF
    {NULL, 0, NULL}};
#undef HD_PORT
#undef HD_PORT_W
#undef HD_TAG
#undef HD_BLOCK
#undef HD_CLOCK
#undef HD_RESET

#define HD_PORT(d, n, w, r, doc)
#define HD_PORT_W(d, n, w, r, doc)
#define HD_BLOCK(n, lat, dc) .name = #n, .latency = (lat), .doc = dc,
#define HD_CLOCK(n) .clock = #n,
#define HD_RESET(n) .reset = #n,
const struct hd_block_desc HD_PORTS_BLOCK_VAR = {
#include HD_PORTS_DEF
    .ports = hd_ports_table_rows_,
    .nports = sizeof hd_ports_table_rows_ / sizeof hd_ports_table_rows_[0],
    .in_size = sizeof(HD_PORTS_IN_T),
    .out_size = sizeof(HD_PORTS_OUT_T),
    .tags = hd_ports_table_tags_,
    .ntags = sizeof hd_ports_table_tags_ / sizeof hd_ports_table_tags_[0] - 1,
};
_Static_assert(sizeof hd_ports_table_tags_ / sizeof hd_ports_table_tags_[0] - 1 <= HD_BLOCK_MAX_TAGS,
               "too many HD_TAG rows (HD_BLOCK_MAX_TAGS)");
#undef HD_BLOCK
#undef HD_CLOCK
#undef HD_RESET
#undef HD_PORT
#undef HD_PORT_W
#undef HD_PT_T_IN
#undef HD_PT_T_OUT
