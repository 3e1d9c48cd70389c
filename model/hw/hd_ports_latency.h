/* SPDX-License-Identifier: MIT
 * hd_ports_latency.h - expands the HD_BLOCK row of HD_PORTS_DEF into an enumerator
 * HD_LATENCY_<block> (cycles from an input to its output). Include it inside an enum body.
 */
#define HD_BLOCK(n, lat, doc) HD_LATENCY_##n = (lat),
#define HD_CLOCK(n)
#define HD_RESET(n)
#define HD_PORT(d, n, w, r, doc)
#define HD_PORT_W(d, n, w, r, doc)
#include HD_PORTS_DEF
#undef HD_BLOCK
#undef HD_CLOCK
#undef HD_RESET
#undef HD_PORT
#undef HD_PORT_W
