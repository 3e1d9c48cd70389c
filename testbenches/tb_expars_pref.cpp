// SPDX-License-Identifier: MIT
// tb_expars_pref.cpp - SystemC testbench of expars_pref (Verilator --sc): first a case worked by
// hand (warp 3 with R20, R21 and R37 at Start_Reg 20 queued at the back, warp 5 at the front;
// warp 5 starts on a free cache, its fetch of 3 transfers lands at 100 + 3 + 2; warp 3 then waits
// behind lines pinned by warp 5 and steals after Limit cycles; drops from the queue's middle and
// in flight; a bundle without scratchpad registers; a bundle of more than Need registers), then
// every warp slot queued (the queue full), then seeded requests in the model's order (a PREF's
// words then its PUSH; TICKs with the cycle advancing, a DONE after each start; random line
// status with pinned lines of other warps; DROPs; now and then a PUSH without its words, which
// reads the vector last written or, after a reset, zeros) with a reset every 4,000 cycles, then
// (appended after --cycles) about 2,000 cycles of cases the model's order makes rare: resets while
// the head waits, stamps that go back, sparse vectors from R0, a drop from the full queue. The
// whole stream keeps the block's contract (legalize: a DROP before a BVT write to a queued warp,
// as the model does); TICK's start_i is random (unused). Every
// output compared with the C reference every cycle; coverage bins reported (all required). Before
// that, the reference's functions at 13 run-time geometries (the model's) against the
// testbench's own model, and the port packing of line status and of the answer (namespace geo).
extern "C" {
#include "expars_pref.h"
}
#include "Vexpars_pref.h"
#define HD_PORTS_DEF "expars_pref_ports.def"
#define TB_TOP Vexpars_pref
#define TB_IN struct hd_expars_pref_in
#define TB_OUT struct hd_expars_pref_out
#define TB_STATE struct hd_expars_pref_state
#define TB_REF_RESET hd_expars_pref_ref_reset
#define TB_REF_STEP hd_expars_pref_ref_step
#define TB_BLOCK hd_expars_pref_block
#define TB_REF_IDLE hd_expars_pref_ref_idle
#include "tb_harness.h"

#include <cstddef>
#include <string>

static const uint64_t kNMask = (1ull << EXPARS_PREF_NW) - 1;
static const unsigned kWords = EXPARS_PREF_NR / 64;

static TB_IN zero()
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    return in;
}

static TB_IN req(unsigned op, unsigned warp)
{
    TB_IN in = zero();
    in.op_v_i = 1;
    in.op_i = op;
    in.warp_i = warp;
    return in;
}

// A PREF: its vector's words, then the PUSH.
static void pref(std::vector<TB_IN> &s, unsigned warp, const uint64_t *vec, unsigned start,
                 bool front)
{
    for (unsigned k = 0; k < kWords; k++) {
        TB_IN in = req(HD_EXPARS_PREF_BVT, warp);
        in.idx_i = k;
        in.word_i = vec[k];
        s.push_back(in);
    }
    TB_IN in = req(HD_EXPARS_PREF_PUSH, warp);
    in.start_i = start;
    in.front_i = front;
    s.push_back(in);
}

static TB_IN tick(uint64_t now, unsigned start, const hd_expars_pref_line *lines)
{
    TB_IN in = req(HD_EXPARS_PREF_TICK, 0);
    in.now_i = now & kNMask;
    in.start_i = start;
    hd_expars_pref_pack_lines(&in, lines, EXPARS_PREF_Lines);
    return in;
}

static TB_IN done(uint64_t now, unsigned n, unsigned lat)
{
    TB_IN in = req(HD_EXPARS_PREF_DONE, 0);
    in.now_i = now & kNMask;
    in.n_i = n;
    in.lat_i = lat;
    return in;
}

// The contract (expars_pref.h): a queued warp's vector is not rewritten. The model drops a queued
// warp before it writes its new PREF, and so does the stream: before a BVT write to a warp that
// the reference has queued at that point, a DROP of it (the resets move with the stream). A
// PUSH of a queued warp stays (a second entry, or refused when the queue is full).
static void legalize(std::vector<TB_IN> &stim, std::vector<uint64_t> &resets)
{
    std::vector<TB_IN> out;
    std::vector<uint64_t> rs;
    size_t nr = 0;
    hd_expars_pref_state sh;
    hd_expars_pref_ref_reset(&sh);
    TB_OUT o;
    for (size_t c = 0; c < stim.size(); c++) {
        for (; nr < resets.size() && resets[nr] == c; nr++) {
            rs.push_back(out.size());
            hd_expars_pref_ref_reset(&sh);
        }
        const TB_IN &in = stim[c];
        if ((in.op_v_i & 1u) && in.op_i == HD_EXPARS_PREF_BVT &&
            hd_expars_pref_queued(&sh.p, (uint32_t)in.warp_i)) {
            const TB_IN d = req(HD_EXPARS_PREF_DROP, (unsigned)in.warp_i);
            out.push_back(d);
            hd_expars_pref_ref_step(&sh, &d, &o);
        }
        out.push_back(in);
        hd_expars_pref_ref_step(&sh, &in, &o);
    }
    stim.swap(out);
    resets.swap(rs);
}

// {==== The reference at other geometries
// The model's prefetcher runs the same functions at its run-time geometry ([expars] oc_lines,
// oc_ways, the SM's warps, 256-register vectors, 64 registers per bundle), which the block's
// fixed configuration never reaches. So the testbench also runs hd_expars_pref_init/apply at
// other geometries against a model of its own (namespace geo: the header's rules written again,
// a std::vector queue, stamps compared as signed numbers), and checks the port packing of
// line status. Every answer and the whole state are compared after every request; a difference
// fails the run with the geometry, the request and the field.
namespace geo {
static const uint64_t kMask = (1ull << EXPARS_PREF_NW) - 1;
struct Model {
    unsigned warps, lines, ways, words, need;
    uint32_t limit;
    uint64_t bvt[HD_EXPARS_PREF_MAX_WARPS][HD_EXPARS_PREF_MAX_WORDS];
    std::vector<unsigned> q;
    std::vector<unsigned> tl[HD_EXPARS_PREF_MAX_WARPS]; // per warp the list of its last PUSH
    std::vector<unsigned> hl;                           // the head's, copied when it became it
    bool busy, stall;
    uint32_t warp, done, since;
};
struct Ans {
    bool busy, rel, conflict, steal, start;
    unsigned rel_warp, warp, n, dropped;
    std::vector<unsigned> need;
};

static Model make(unsigned warps, unsigned lines, unsigned ways, unsigned words, unsigned need,
                  uint32_t limit)
{
    Model m;
    m.warps = warps > HD_EXPARS_PREF_MAX_WARPS ? HD_EXPARS_PREF_MAX_WARPS : warps;
    m.lines = lines > HD_EXPARS_PREF_MAX_LINES ? HD_EXPARS_PREF_MAX_LINES : lines;
    m.ways = ways == 0 || ways > m.lines ? 1 : ways;
    m.words = words == 0 || words > HD_EXPARS_PREF_MAX_WORDS ? 1 : words;
    m.need = need == 0 || need > HD_EXPARS_PREF_MAX_NEED ? HD_EXPARS_PREF_MAX_NEED : need;
    m.limit = limit;
    std::memset(m.bvt, 0, sizeof m.bvt);
    m.busy = m.stall = false;
    m.warp = m.done = m.since = 0;
    return m;
}

// Is stamp a later than stamp b (their NW-bit difference a positive signed number)?
static bool later(uint32_t a, uint32_t b)
{
    int64_t d = (int64_t)((a - b) & kMask);
    if (d >= (int64_t)1 << (EXPARS_PREF_NW - 1))
        d -= (int64_t)1 << EXPARS_PREF_NW;
    return d > 0;
}

// Warp w's registers to fetch: those at or above start in its vector, lowest first, need at most.
static std::vector<unsigned> regs(const Model &m, unsigned w, unsigned start)
{
    std::vector<unsigned> v;
    for (unsigned k = 0; k < m.words; k++)
        for (unsigned b = 0; b < 64; b++)
            if ((m.bvt[w][k] >> b & 1u) && 64 * k + b >= start && v.size() < m.need)
                v.push_back(64 * k + b);
    return v;
}

// Every set has at least as many lines free, unpinned or w's own as w's registers of that set.
static bool fits(const Model &m, unsigned w, const std::vector<unsigned> &need,
                 const hd_expars_pref_line *l)
{
    const unsigned sets = m.lines / m.ways;
    std::vector<unsigned> want(sets, 0), usable(sets, 0);
    for (unsigned r : need)
        if (sets)
            want[r % sets]++;
    for (unsigned j = 0; j < sets * m.ways; j++)
        if (!l[j].valid || !l[j].pinned || l[j].warp == w)
            usable[j / m.ways]++;
    for (unsigned s = 0; s < sets; s++)
        if (want[s] > usable[s])
            return false;
    return true;
}

static Ans apply(Model &m, unsigned op, unsigned w, unsigned idx, uint64_t word, bool front,
                 unsigned start, uint32_t now, unsigned n, unsigned lat,
                 const hd_expars_pref_line *l)
{
    Ans a{};
    switch (op) {
    case HD_EXPARS_PREF_BVT:
        if (w < m.warps && idx < m.words)
            m.bvt[w][idx] = word;
        break;
    case HD_EXPARS_PREF_PUSH:
        if (w < m.warps) {
            const std::vector<unsigned> v = regs(m, w, start);
            a.n = (unsigned)v.size();
            if (a.n && m.q.size() < m.warps) {
                m.tl[w] = v;
                if (front || m.q.empty())
                    m.hl = v;
                m.q.insert(front ? m.q.begin() : m.q.end(), w);
            }
        }
        break;
    case HD_EXPARS_PREF_DROP:
        for (size_t i = 0; i < m.q.size(); i++)
            if (m.q[i] == w) {
                m.q.erase(m.q.begin() + (long)i);
                if (i == 0 && !m.q.empty()) // the next warp is the head: its list now
                    m.hl = m.tl[m.q[0]];
                a.dropped |= 1u;
                break;
            }
        if (m.busy && m.warp == w) {
            m.busy = false;
            a.dropped |= 2u;
        }
        break;
    case HD_EXPARS_PREF_TICK: {
        now = (uint32_t)(now & kMask);
        if (m.busy && later(m.done, now)) {
            a.busy = true;
            break;
        }
        if (m.busy) {
            a.rel = true;
            a.rel_warp = m.warp;
            m.busy = false;
        }
        if (m.q.empty())
            break;
        const unsigned h = m.q[0];
        const std::vector<unsigned> need = m.hl; // (TICK's start is not used)
        if (!fits(m, h, need, l)) {
            a.conflict = true;
            if (!m.stall || later(m.since, now))
                m.since = now;
            m.stall = true;
            if (((now - m.since) & kMask) < m.limit)
                break;
            a.steal = true;
        }
        m.stall = false;
        a.start = true;
        a.warp = h;
        a.n = (unsigned)need.size();
        a.need = need;
        m.q.erase(m.q.begin());
        if (!m.q.empty())
            m.hl = m.tl[m.q[0]];
        m.busy = true;
        m.warp = h;
        m.done = (uint32_t)((now + 1ull) & kMask);
        break;
    }
    case HD_EXPARS_PREF_DONE:
        if (m.busy)
            m.done = (uint32_t)((now + (uint64_t)(n ? n + lat : 1)) & kMask);
        break;
    default:
        break;
    }
    return a;
}

// The reference's answer and state against the model's: "" or the first difference.
static std::string diff(const Model &m, const Ans &e, const hd_expars_pref &p,
                        const hd_expars_pref_ans &a, unsigned probe)
{
    char b[200];
    auto f = [&b](const char *what, uint64_t ref, uint64_t want) {
        std::snprintf(b, sizeof b, "%s: reference %#llx, model %#llx", what,
                      (unsigned long long)ref, (unsigned long long)want);
        return std::string(b);
    };
    if (a.busy != e.busy) return f("answer busy", a.busy, e.busy);
    if (a.rel != e.rel) return f("answer rel", a.rel, e.rel);
    if (a.rel && a.rel_warp != e.rel_warp) return f("answer rel_warp", a.rel_warp, e.rel_warp);
    if (a.conflict != e.conflict) return f("answer conflict", a.conflict, e.conflict);
    if (a.steal != e.steal) return f("answer steal", a.steal, e.steal);
    if (a.start != e.start) return f("answer start", a.start, e.start);
    if (a.start && a.warp != e.warp) return f("answer warp", a.warp, e.warp);
    if (a.n != e.n) return f("answer n", a.n, e.n);
    for (unsigned i = 0; a.start && i < e.n; i++)
        if (a.need[i] != e.need[i]) return f("answer need[i]", a.need[i], e.need[i]);
    if (a.dropped != e.dropped) return f("answer dropped", a.dropped, e.dropped);
    if (a.qn != m.q.size()) return f("answer qn", a.qn, m.q.size());
    if (p.nwarps != m.warps) return f("nwarps", p.nwarps, m.warps);
    if (p.nlines != m.lines) return f("nlines", p.nlines, m.lines);
    if (p.ways != m.ways) return f("ways", p.ways, m.ways);
    if (p.words != m.words) return f("words", p.words, m.words);
    if (p.need != m.need) return f("need", p.need, m.need);
    if (p.limit != m.limit) return f("limit", p.limit, m.limit);
    if (p.qn != m.q.size()) return f("qn", p.qn, m.q.size());
    for (unsigned i = 0; i < m.q.size(); i++)
        if (p.q[i] != m.q[i]) return f("queue entry", p.q[i], m.q[i]);
    if (!m.q.empty() && p.hd_n != m.hl.size()) return f("the head's count", p.hd_n, m.hl.size());
    for (unsigned i = 0; !m.q.empty() && i < m.hl.size(); i++)
        if (p.hd_need[i] != m.hl[i]) return f("the head's list", p.hd_need[i], m.hl[i]);
    for (unsigned x : m.q) {
        if (p.tk_n[x] != m.tl[x].size()) return f("a queued warp's count", p.tk_n[x], m.tl[x].size());
        for (unsigned i = 0; i < m.tl[x].size(); i++)
            if (p.tk_need[x][i] != m.tl[x][i]) return f("a queued warp's list", p.tk_need[x][i], m.tl[x][i]);
    }
    if (p.busy != m.busy) return f("busy", p.busy, m.busy);
    if (m.busy && p.warp != m.warp) return f("the fetch's warp", p.warp, m.warp);
    if (m.busy && p.done != m.done) return f("the fetch's landing stamp", p.done, m.done);
    if (p.stall != m.stall) return f("stall", p.stall, m.stall);
    if (m.stall && p.since != m.since) return f("the wait's start stamp", p.since, m.since);
    for (unsigned w = 0; w < HD_EXPARS_PREF_MAX_WARPS; w++)
        for (unsigned k = 0; k < HD_EXPARS_PREF_MAX_WORDS; k++)
            if (p.bvt[w][k] != m.bvt[w][k]) return f("a BVT word", p.bvt[w][k], m.bvt[w][k]);
    bool queued = false;
    for (unsigned x : m.q)
        queued |= x == probe;
    if (hd_expars_pref_queued(&p, probe) != queued)
        return f("queued(probe)", hd_expars_pref_queued(&p, probe), queued);
    if (hd_expars_pref_in_flight(&p, probe) != (m.busy && m.warp == probe))
        return f("in_flight(probe)", hd_expars_pref_in_flight(&p, probe), m.busy && m.warp == probe);
    return "";
}

// One geometry: n seeded requests; the number run, or -1 after a reported difference.
static long run(const unsigned *g, tb::Rng &r, long n)
{
    hd_expars_pref p;
    std::memset(&p, 0xa5, sizeof p); // init must define every field
    hd_expars_pref_init(&p, g[0], g[1], g[2], g[3], g[4], g[5]);
    Model m = make(g[0], g[1], g[2], g[3], g[4], g[5]);
    const unsigned pool = m.warps < 4 ? m.warps + 2 : r.below(2) ? 4 : m.warps + 2;
    const unsigned nr = 64 * m.words;
    uint32_t now = r.next();
    hd_expars_pref_line l[HD_EXPARS_PREF_MAX_LINES];
    for (long i = 0; i < n; i++) {
        const unsigned k = r.below(16);
        const unsigned w = r.below(pool);
        const unsigned start = r.below(3) ? r.below(nr + 4) : r.below(4);
        unsigned op, idx = 0, dn = 0, lat = 0;
        uint64_t word = 0;
        bool front = false;
        if (k < 4) { // a vector word (sometimes past the vector or the warps)
            op = HD_EXPARS_PREF_BVT;
            idx = r.below(m.words + 1);
            word = r.below(4) == 0 ? 0 : ((uint64_t)r.next() << 32 | r.next()) &
                                          ((uint64_t)r.next() << 32 | r.next());
            if (r.below(4) == 0)
                word &= 0xffull << r.below(57);
        } else if (k < 7) {
            op = HD_EXPARS_PREF_PUSH;
            front = r.below(2);
        } else if (k < 9) {
            op = HD_EXPARS_PREF_DROP;
        } else if (k < 14) {
            op = HD_EXPARS_PREF_TICK;
            const unsigned mode = r.below(5);
            for (unsigned j = 0; j < HD_EXPARS_PREF_MAX_LINES; j++) {
                l[j].valid = mode != 0 && (mode == 4 || r.below(4) != 0);
                l[j].pinned = mode == 4 || (mode >= 2 && r.below(mode == 3 ? 4 : 2) != 0);
                l[j].warp = r.below(pool);
                l[j].reg = r.below(nr);
            }
        } else {
            op = HD_EXPARS_PREF_DONE;
            dn = r.below(3) ? r.below(2 * m.need + 1) : 0;
            lat = r.below(16);
        }
        const unsigned adv = r.below(64);
        now += adv < 12 ? 0 : adv < 58 ? 1 + r.below(4) : adv < 62 ? r.below(80) : r.next();
        hd_expars_pref_req q;
        std::memset(&q, 0, sizeof q);
        q.op = op;
        q.warp = w;
        q.idx = idx;
        q.word = word;
        q.front = front;
        q.start = start;
        q.now = now;
        q.n = dn;
        q.lat = lat;
        q.lines = l;
        hd_expars_pref_ans a;
        std::memset(&a, 0xa5, sizeof a); // apply must define every answer field
        hd_expars_pref_apply(&p, &q, &a);
        const Ans e = apply(m, op, w, idx, word, front, start, now, dn, lat, l);
        const std::string d = diff(m, e, p, a, r.below(pool));
        if (!d.empty()) {
            std::printf("tb_expars_pref: GEOMETRY MISMATCH warps %u lines %u ways %u words %u "
                        "need %u limit %u, request %ld (op %u warp %u idx %u start %u now %u "
                        "n %u lat %u): %s\n", g[0], g[1], g[2], g[3], g[4], g[5], i, op, w, idx,
                        start, now, dn, lat, d.c_str());
            return -1;
        }
    }
    return n;
}

// The port packing of line status: every line's fields at its place, cut to the port's widths,
// the lines past nlines (and past the block's) all zero.
static int packing(tb::Rng &r)
{
    const unsigned ls = 2 + EXPARS_PREF_WW + EXPARS_PREF_RW;
    for (int t = 0; t < 200; t++) {
        hd_expars_pref_line l[HD_EXPARS_PREF_MAX_LINES];
        for (unsigned j = 0; j < HD_EXPARS_PREF_MAX_LINES; j++)
            l[j] = {r.below(2) != 0, r.below(2) != 0, r.next() & 0xffffu, r.next() & 0xffffu};
        const unsigned nl = r.below(EXPARS_PREF_Lines + 3);
        struct {
            TB_IN in;
            uint32_t guard[4];
        } g;
        std::memset(&g, 0xff, sizeof g);
        TB_IN &in = g.in;
        hd_expars_pref_pack_lines(&in, l, nl);
        const size_t past = offsetof(TB_IN, lines_i) + sizeof in.lines_i;
        for (size_t k = past; k < sizeof g; k++)
            if (reinterpret_cast<const unsigned char *>(&g)[k] != 0xff) {
                std::printf("tb_expars_pref: PACKING MISMATCH: a write past lines_i (byte %zu "
                            "of the request, %u lines packed)\n", k - past, nl);
                return 1;
            }
        for (unsigned b = 0; b < 32 * (unsigned)(sizeof in.lines_i / 4); b++) {
            const unsigned j = b / ls, f = b % ls;
            unsigned want = 0;
            if (j < nl && j < EXPARS_PREF_Lines)
                want = f == 0 ? l[j].valid : f == 1 ? l[j].pinned
                     : f < 2 + EXPARS_PREF_WW ? l[j].warp >> (f - 2) & 1u
                                               : l[j].reg >> (f - 2 - EXPARS_PREF_WW) & 1u;
            if ((in.lines_i[b / 32] >> (b % 32) & 1u) != want) {
                std::printf("tb_expars_pref: PACKING MISMATCH lines_i bit %u (line %u field bit "
                            "%u, %u lines packed): %u, want %u\n", b, j, f, nl,
                            in.lines_i[b / 32] >> (b % 32) & 1u, want);
                return 1;
            }
        }
        // the answer's packing: the unused need entries 0 whatever the answer holds past n (the
        // model's reference may list up to 64 registers: n past Need), every other byte defined
        hd_expars_pref_ans a;
        a.busy = r.below(2);
        a.rel = r.below(2);
        a.conflict = r.below(2);
        a.steal = r.below(2);
        a.start = r.below(2);
        a.rel_warp = r.below(1u << EXPARS_PREF_WW);
        a.warp = r.below(1u << EXPARS_PREF_WW);
        a.n = r.below(2 * EXPARS_PREF_Need + 1);
        a.dropped = r.below(4);
        a.qn = r.below(EXPARS_PREF_Warps + 1);
        for (unsigned i = 0; i < HD_EXPARS_PREF_MAX_NEED; i++)
            a.need[i] = (uint16_t)r.below(1u << EXPARS_PREF_RW);
        TB_OUT o, e;
        std::memset(&o, 0xa5, sizeof o);
        hd_expars_pref_pack_ans(&o, &a);
        std::memset(&e, 0, sizeof e);
        e.res_v_o = 1;
        e.busy_o = a.busy;
        e.rel_v_o = a.rel;
        e.rel_warp_o = a.rel_warp;
        e.conflict_o = a.conflict;
        e.steal_o = a.steal;
        e.start_v_o = a.start;
        e.warp_o = a.warp;
        e.n_o = a.n;
        for (unsigned i = 0; i < a.n && i < EXPARS_PREF_Need; i++)
            for (unsigned b = 0; b < EXPARS_PREF_RW; b++)
                e.need_o[(i * EXPARS_PREF_RW + b) / 32] |= (uint32_t)(a.need[i] >> b & 1u)
                                                           << ((i * EXPARS_PREF_RW + b) % 32);
        e.dropped_o = a.dropped;
        e.qn_o = a.qn;
        if (std::memcmp(&o, &e, sizeof o) != 0) {
            std::printf("tb_expars_pref: PACKING MISMATCH: the answer's outputs (n %u)\n", a.n);
            return 1;
        }
    }
    return 0;
}
} // namespace geo

// Geometries: the block's; the model's (64 warps, 4 words, 64 registers, 16 lines in 1, 2, 4
// or 16 ways; 64 lines); a few warps; one line; a partial set; no warps, no lines; and
// arguments the init clamps (too many warps and lines, no ways, words or need, more ways than
// lines, too many words and registers). Returns 0 or 1.
static int geometry_check(uint64_t seed)
{
    static const unsigned g[][6] = {
        {EXPARS_PREF_Warps, EXPARS_PREF_Lines, EXPARS_PREF_Ways, EXPARS_PREF_NR / 64,
         EXPARS_PREF_Need, EXPARS_PREF_Limit},
        {64, 16, 1, 4, 64, 64}, {64, 16, 4, 4, 64, 64}, {48, 16, 2, 1, 16, 8},
        {64, 16, 16, 4, 64, 3}, {64, 64, 8, 4, 64, 64}, {8, 8, 1, 2, 5, 3},
        {1, 1, 1, 1, 1, 2}, {64, 12, 5, 3, 7, 1}, {0, 0, 1, 4, 16, 64},
        {100, 100, 0, 0, 0, 5}, {64, 16, 32, 9, 200, 64}, {63, 65, 65, 5, 65, 2}};
    tb::Rng r{seed * 7919 + 3};
    long n = 0;
    for (const auto &x : g) {
        const long k = geo::run(x, r, 2000);
        if (k < 0)
            return 1;
        n += k;
    }
    if (geo::packing(r))
        return 1;
    std::printf("tb_expars_pref: prefetcher functions at %zu geometries: %ld requests, answers and "
                "state as the testbench's model; line packing checked\n", sizeof g / sizeof g[0], n);
    return 0;
}
// }====

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    if (geometry_check(o.seed))
        return 1;
    const unsigned wmax = EXPARS_PREF_Warps, lmax = (1u << EXPARS_PREF_LW) - 1;
    const unsigned kmax = (1u << EXPARS_PREF_KW) - 1;
    std::vector<TB_IN> stim;
    std::vector<uint64_t> resets;
    stim.push_back(zero());
    hd_expars_pref_line free_lines[HD_EXPARS_PREF_MAX_LINES] = {};
    hd_expars_pref_line pinned5[HD_EXPARS_PREF_MAX_LINES] = {};
    for (unsigned j = 0; j < EXPARS_PREF_Lines; j++)
        pinned5[j] = {true, true, 5, j};
    // worked by hand: warp 3 (R20, R21, R37 at Start_Reg 20; R4 below it) at the back, warp 5
    // (R22, R23, R24) at the front
    uint64_t v3[HD_EXPARS_PREF_MAX_WORDS] = {}, v5[HD_EXPARS_PREF_MAX_WORDS] = {};
    v3[0] = (1ull << 4) | (1ull << 20) | (1ull << 21) | (1ull << 37);
    v5[0] = (1ull << 22) | (1ull << 23) | (1ull << 24);
    pref(stim, 3, v3, 20, false);
    pref(stim, 5, v5, 20, true);
    stim.push_back(tick(100, 20, free_lines)); // warp 5 starts: R22-R24
    stim.push_back(done(100, 3, 2));           // lands at 105
    stim.push_back(tick(101, 20, free_lines)); // busy
    stim.push_back(tick(104, 20, free_lines)); // busy
    stim.push_back(tick(105, 20, pinned5));    // warp 5 released; warp 3 waits (lines pinned)
    stim.push_back(tick(106, 20, pinned5));
    stim.push_back(tick(105 + EXPARS_PREF_Limit - 1, 20, pinned5)); // still waits
    // steals and starts with R20, R21, R37: the Start_Reg of its PUSH, not the TICK's 0
    stim.push_back(tick(105 + EXPARS_PREF_Limit, 0, pinned5));
    stim.push_back(done(105 + EXPARS_PREF_Limit, 0, 2));            // every register hit
    stim.push_back(tick(106 + EXPARS_PREF_Limit, 20, free_lines));  // warp 3 released
    // drops: warps 1, 2, 7 queued, 2 dropped from the middle; 1 starts and is dropped in flight
    for (unsigned w : {1u, 2u, 7u})
        pref(stim, w, v5, 20, false);
    stim.push_back(req(HD_EXPARS_PREF_DROP, 2));
    stim.push_back(tick(300, 20, free_lines));
    stim.push_back(req(HD_EXPARS_PREF_DROP, 1));
    stim.push_back(req(HD_EXPARS_PREF_DROP, 9)); // neither queued nor in flight
    stim.push_back(done(301, 2, 2));             // nothing in flight: ignored
    stim.push_back(tick(302, 20, free_lines));   // warp 7 starts at once
    // a bundle without scratchpad registers, then one of every register (Need of them fetched)
    pref(stim, 4, v3, 40, false);
    uint64_t all[HD_EXPARS_PREF_MAX_WORDS];
    for (unsigned k = 0; k < HD_EXPARS_PREF_MAX_WORDS; k++)
        all[k] = ~0ull;
    pref(stim, 6, all, 1, false);
    stim.push_back(done(302, 2 * EXPARS_PREF_Need, lmax));
    stim.push_back(tick(302 + 2 * EXPARS_PREF_Need + lmax, 1, free_lines));
    stim.push_back(tick(303 + 2 * EXPARS_PREF_Need + lmax, 1, free_lines));
    // the top warp slot, the last vector word, a warp slot past Warps (ignored)
    uint64_t top[HD_EXPARS_PREF_MAX_WORDS] = {};
    top[kWords - 1] = 1ull << 63;
    pref(stim, wmax - 1, top, EXPARS_PREF_NR - 1, true);
    if (wmax < (1u << EXPARS_PREF_WW))
        pref(stim, wmax, top, 0, false);
    // every warp slot queued: the queue full (after a reset and idle cycles)
    resets.push_back(stim.size());
    for (int k = 0; k < 3; k++)
        stim.push_back(zero());
    for (unsigned w = 0; w < wmax; w++)
        pref(stim, w, v3, 20, w % 2);
    stim.push_back(req(HD_EXPARS_PREF_PUSH, 0)); // full: not queued again
    stim.back().start_i = 20;
    stim.push_back(zero());
    // seeded: the model's order
    // Each segment of 4,000 cycles draws its warps from a pool of 4, 16 or every slot (a small
    // pool makes drops hit queued and in-flight warps) and its own push rate.
    uint64_t now = 1000;
    unsigned pool = 4, push = 3;
    while (stim.size() < o.cycles) {
        if (stim.size() % 4000 == 3999) {
            resets.push_back(stim.size());
            stim.push_back(zero());
            now = r.below(2) ? r.next() : 0;
            const unsigned pools[3] = {4, 16, wmax + 2};
            pool = pools[r.below(3)];
            push = 1 + r.below(4);
            continue;
        }
        const unsigned start = r.below(4) ? 16 + r.below(16) : r.below(EXPARS_PREF_NR);
        const unsigned k = r.below(16);
        if (k == 0) {
            stim.push_back(zero());
        } else if (k <= push && r.below(8) == 0) {
            // a PUSH without its PREF's words: the vector last written, or none since the
            // reset (the BVT's valid bits: a word not written since the reset reads 0)
            TB_IN in = req(HD_EXPARS_PREF_PUSH, r.below(pool) % (1u << EXPARS_PREF_WW));
            in.start_i = r.below(2) ? 0 : start;
            in.front_i = r.below(2);
            stim.push_back(in);
        } else if (k <= push) {
            uint64_t v[HD_EXPARS_PREF_MAX_WORDS] = {};
            for (unsigned i = 0; i < kWords; i++)
                v[i] = r.below(4) == 0 ? 0 : ((uint64_t)r.next() << 32 | r.next()) &
                                                 ((uint64_t)r.next() << 32 | r.next());
            if (r.below(3) == 0)
                v[0] &= 0xffffffffull; // few high registers
            pref(stim, r.below(pool) % (1u << EXPARS_PREF_WW), v, start, r.below(2));
        } else if (k < 7) {
            stim.push_back(req(HD_EXPARS_PREF_DROP, r.below(pool) % (1u << EXPARS_PREF_WW)));
        } else {
            hd_expars_pref_line lines[HD_EXPARS_PREF_MAX_LINES];
            const unsigned mode = r.below(4);
            for (unsigned j = 0; j < EXPARS_PREF_Lines; j++) {
                lines[j].valid = mode != 0 && r.below(4) != 0;
                lines[j].pinned = mode >= 2 && r.below(mode == 3 ? 4 : 2) != 0;
                lines[j].warp = r.below(pool);
                lines[j].reg = r.below(EXPARS_PREF_NR);
            }
            stim.push_back(tick(now, start, lines));
            if (r.below(2)) // the DONE of a start (harmless when none started)
                stim.push_back(done(now, r.below(3) ? r.below(kmax + 1) : 0, r.below(lmax + 1)));
        }
        const unsigned adv = r.below(64);
        now += adv < 10 ? 0 : adv < 56 ? 1 + r.below(4) : adv < 63 ? r.below(80) : r.below(5000);
    }
    // Appended after the seeded stream (which stays as it was), after a reset: cases the model's
    // order makes rare. (a) A reset while the head waits, then a head that cannot start: it
    // waits from its own first cycle, the wait before the reset forgotten. (b) A TICK whose
    // stamp is before the wait's start (the stamps' signed difference; also a jump of more than
    // 2^(NW-1)): the wait restarts there. (c) Sparse vectors with register 0 at Start_Reg 0,
    // fewer registers than Need. Then seeded requests of those kinds with their own generator:
    // sparse vectors, Start_Reg 0 half the time, stamps that go back while the head waits, word
    // indices past the vector (ignored), resets while a head waits.
    {
        tb::Rng r2{o.seed * 7907 + 11};
        uint64_t t = 5000;
        uint64_t v12[HD_EXPARS_PREF_MAX_WORDS] = {}, vs[HD_EXPARS_PREF_MAX_WORDS] = {};
        v12[0] = (1ull << 20) | (1ull << 22);
        vs[0] = 0x23; // R0, R1, R5
        resets.push_back(stim.size());
        stim.push_back(zero());
        pref(stim, 1, v12, 20, false);
        stim.push_back(tick(t, 20, pinned5)); // (a) waits
        stim.push_back(zero()); // (its answer, which a reset in the next cycle would clear)
        resets.push_back(stim.size());
        stim.push_back(zero());
        pref(stim, 2, v12, 20, false);
        stim.push_back(tick(t + 2000, 20, pinned5)); // waits (no steal: it waited 0 cycles)
        stim.push_back(tick(t + 2010, 20, pinned5));
        stim.push_back(tick(t + 1990, 20, pinned5)); // (b) before the start: it restarts
        stim.push_back(tick(t + 1990 + EXPARS_PREF_Limit - 1, 20, pinned5));
        stim.push_back(tick(t + 1990 + (1ull << (EXPARS_PREF_NW - 1)) + 5, 20, pinned5));
        stim.push_back(tick(t + 1990 + EXPARS_PREF_Limit, 20, pinned5));
        stim.push_back(tick(t + 3000, 20, free_lines)); // steals or lands
        stim.push_back(tick(t + 3100, 20, free_lines));
        pref(stim, 3, vs, 0, false); // (c) 3 registers from R0
        stim.push_back(tick(t + 3200, 0, free_lines));
        stim.push_back(done(t + 3200, 3, 1));
        stim.push_back(tick(t + 3300, 0, free_lines));
        // every warp slot queued, then a drop from the middle of the full queue
        resets.push_back(stim.size());
        stim.push_back(zero());
        for (unsigned w = 0; w < wmax; w++)
            pref(stim, w, v12, 20, false);
        stim.push_back(req(HD_EXPARS_PREF_DROP, wmax / 2));
        stim.push_back(req(HD_EXPARS_PREF_DROP, wmax - 1));
        stim.push_back(tick(t + 3400, 20, free_lines));
        t += 4000;
        const uint64_t end = stim.size() + 2000;
        unsigned waiting = 0;
        while (stim.size() < end) {
            const unsigned k = r2.below(16), w = r2.below(6);
            const unsigned start = r2.below(2) ? 0 : r2.below(EXPARS_PREF_NR);
            if (k == 0 && waiting && r2.below(4) == 0) {
                resets.push_back(stim.size());
                stim.push_back(zero());
                waiting = 0;
            } else if (k < 4) {
                uint64_t v[HD_EXPARS_PREF_MAX_WORDS] = {};
                const unsigned bits = r2.below(EXPARS_PREF_Need + 4);
                for (unsigned i = 0; i < bits; i++) {
                    const unsigned b = r2.below(4) == 0 ? r2.below(4) : r2.below(EXPARS_PREF_NR);
                    v[b / 64] |= 1ull << (b % 64);
                }
                if (r2.below(2))
                    v[0] |= 1u;
                pref(stim, w, v, start, r2.below(2));
            } else if (k == 4) {
                TB_IN in = req(HD_EXPARS_PREF_BVT, w); // maybe past the vector: ignored
                in.idx_i = r2.below(1u << EXPARS_PREF_IW);
                in.word_i = (uint64_t)r2.next() << 32 | r2.next();
                stim.push_back(in);
            } else if (k == 5) {
                stim.push_back(req(HD_EXPARS_PREF_DROP, w));
            } else {
                const bool pin = r2.below(2);
                stim.push_back(tick(t, start, pin ? pinned5 : free_lines));
                waiting = pin;
                if (r2.below(2))
                    stim.push_back(done(t, r2.below(4), r2.below(lmax + 1)));
            }
            const unsigned adv = r2.below(16);
            t = adv < 2 ? t - r2.below(40) : adv < 3 ? t + (1ull << (EXPARS_PREF_NW - 1)) + r2.below(8)
              : adv < 13 ? t + r2.below(8) : t + r2.below(100);
        }
    }
    legalize(stim, resets);
    auto none = [](const TB_IN &, const TB_OUT &) {}; // (the bins: expars_pref_cover.def)
    return tb::run("tb_expars_pref", o, stim, none, resets);
}
