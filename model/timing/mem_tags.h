/* SPDX-License-Identifier: MIT
 * mem_tags.h - the tags an SM puts on its memory requests (hd_mem_req.tag, returned unchanged):
 * which of its request sources waits for the response and for whom.
 *
 * Design: the top 4 bits name the source, the rest its payload. Responses of a warp are named by
 * a logical reference (CTA context id, warp in the CTA, context epoch), never by a hardware slot,
 * so a response for a warp that was evicted meanwhile reaches it wherever it is now (another
 * slot, another SM, or its saved context), and one for a flushed CTA (the epoch moved on) is
 * dropped (docs/context.md).
 *   LOAD     payload = the SM's load-tracker index (the tracker holds the warp reference)
 *   STORE    payload = warp reference of the store's warp (completion counted for fences)
 *   IFETCH   payload = instruction-cache fill index (sm_fetch.c)
 *   CONTEXT  payload = context id and epoch of a save or restore request (ctx_engine.c)
 *   OLOC     payload = collector, word and serial of an operand's fill (sm_oloc_port.c)
 */
#ifndef HD_MEM_TAGS_H
#define HD_MEM_TAGS_H

#include <stdint.h>

enum hd_tag_type { HD_TAG_LOAD = 1, HD_TAG_STORE = 2, HD_TAG_IFETCH = 3, HD_TAG_CONTEXT = 4,
                  HD_TAG_OLOC = 5 };

#define HD_TAG_SHIFT 60
#define HD_TAG_PAYLOAD_MASK ((1ull << HD_TAG_SHIFT) - 1)

static inline uint64_t hd_tag_make(enum hd_tag_type type, uint64_t payload)
{
    return ((uint64_t)type << HD_TAG_SHIFT) | (payload & HD_TAG_PAYLOAD_MASK);
}

static inline unsigned hd_tag_type(uint64_t tag)
{
    return (unsigned)(tag >> HD_TAG_SHIFT);
}

static inline uint64_t hd_tag_payload(uint64_t tag)
{
    return tag & HD_TAG_PAYLOAD_MASK;
}

/* A logical warp: CTA context id (32 bits), warp in the CTA (8), context epoch (16). */
struct hd_wref {
    uint32_t ctx;
    uint8_t warp;
    uint16_t epoch;
};

static inline uint64_t hd_wref_pack(struct hd_wref r)
{
    return (uint64_t)r.ctx | (uint64_t)r.warp << 32 | (uint64_t)r.epoch << 40;
}

static inline struct hd_wref hd_wref_unpack(uint64_t p)
{
    return (struct hd_wref){(uint32_t)p, (uint8_t)(p >> 32), (uint16_t)(p >> 40)};
}

#endif
