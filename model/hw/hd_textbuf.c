/* SPDX-License-Identifier: MIT
 * hd_textbuf.c - formatted text appended to a fixed buffer (hd_textbuf.h).
 */
#include "hd_textbuf.h"

#include <stdarg.h>
#include <stdio.h>

size_t hd_textbuf_put(char *buf, size_t len, size_t n, const char *fmt, ...)
{
    if (n >= len)
        return n;
    va_list ap;
    va_start(ap, fmt);
    const int k = vsnprintf(buf + n, len - n, fmt, ap);
    va_end(ap);
    return n + (k > 0 ? (size_t)k : 0);
}
