/* SPDX-License-Identifier: MIT
 * hd_textbuf.h - appending formatted text to a fixed buffer, cut at its end: the watchdog
 * report's lines (model/timing/gpu_report.c), an SM's state (model/timing/sm.c) and an
 * allocator's own state (a mechanism's `describe` op, e.g. model/mech/gpuduet/gpuduet_alloc.c)
 * are written into the caller's message buffer one piece at a time. Neutral layer: no state.
 */
#ifndef HD_TEXTBUF_H
#define HD_TEXTBUF_H

#include <stddef.h>

/* Append printf-style text at buf[n] (buf holds len bytes, always NUL-terminated when len > 0;
 * text past the end is cut). Returns the new offset: n plus what snprintf would have written,
 * so that once past len every later call writes nothing. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
size_t hd_textbuf_put(char *buf, size_t len, size_t n, const char *fmt, ...);

#endif
