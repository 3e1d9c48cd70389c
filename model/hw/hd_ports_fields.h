/* SPDX-License-Identifier: MIT
 * hd_ports_fields.h - expands the rows of HD_PORTS_DEF (a rtl/<block>/<block>_ports.def) of
 * direction HD_PORTS_DIR (IN or OUT) into struct fields (hd_block.h layout). Include it inside a
 * struct body, with both macros defined:
 *     #define HD_PORTS_DEF "regpat_comp_ports.def"
 *     #define HD_PORTS_DIR IN
 *     struct hd_regpat_comp_in {
 *     #include "hd_ports_fields.h"
 *     };
 * Deliberately without an include guard: it is included once per struct.
 * A block whose named configurations ([block] loop_configs) give a HD_PORT_W row different widths
 * in one build defines HD_PORTS_WIDE_WORDS (words) before including: every wide field then has
 * that many words (the widest configuration's), so one struct layout serves every configuration.
 */
#define HD_PF_CAT3_(a, b, c) a##b##_##c
#define HD_PF_CAT3(a, b, c) HD_PF_CAT3_(a, b, c)
#define HD_PF_IN_IN(n) uint64_t n;
#define HD_PF_OUT_IN(n)
#define HD_PF_IN_OUT(n)
#define HD_PF_OUT_OUT(n) uint64_t n;
#ifdef HD_PORTS_WIDE_WORDS
#define HD_PFW_WORDS_(w) (HD_PORTS_WIDE_WORDS)
#else
#define HD_PFW_WORDS_(w) HD_WORDS(w)
#endif
#define HD_PFW_IN_IN(n, w) uint32_t n[HD_PFW_WORDS_(w)];
#define HD_PFW_OUT_IN(n, w)
#define HD_PFW_IN_OUT(n, w)
#define HD_PFW_OUT_OUT(n, w) uint32_t n[HD_PFW_WORDS_(w)];
#define HD_BLOCK(n, lat, doc)
#define HD_CLOCK(n)
#define HD_RESET(n)
#define HD_PORT(d, n, w, r, doc) HD_PF_CAT3(HD_PF_, d, HD_PORTS_DIR)(n)
#define HD_PORT_W(d, n, w, r, doc) HD_PF_CAT3(HD_PFW_, d, HD_PORTS_DIR)(n, w)
#include HD_PORTS_DEF
#undef HD_BLOCK
#undef HD_CLOCK
#undef HD_RESET
#undef HD_PORT
#undef HD_PORT_W
#undef HD_PF_IN_IN
#undef HD_PF_OUT_IN
#undef HD_PF_IN_OUT
#undef HD_PF_OUT_OUT
#undef HD_PFW_IN_IN
#undef HD_PFW_OUT_IN
#undef HD_PFW_IN_OUT
#undef HD_PFW_OUT_OUT
#undef HD_PFW_WORDS_
#undef HD_PF_CAT3
#undef HD_PF_CAT3_
#undef HD_PORTS_DIR
