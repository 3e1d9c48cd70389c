// SPDX-License-Identifier: MIT
/**
 * expars_pref - EXPARS's register prefetcher, one per SM (Yu et al. TACO 2018 §3.3.4, L93-L95,
 * L210-L212, L220, L234; digest ../shared/reference/papers/expars.md §2.5, §2.8, §3.1).
 *
 * State: the register bit-vector table (BVT, Warps x NR bits: a warp's PREF vector, written by
 * the decoder in 64-bit words), the prefetching queue (q_q[0] is the head; a warp that completed
 * a bundle before is queued at the front, L210), the taken-register table (tk_m: per warp slot
 * the list of its last accepted PUSH) and the head's list (hd_*_q), and one fetch in flight
 * (busy_q, warp_q, the landing cycle done_q) with the cycle the head began to wait (stall_q,
 * since_q).
 * One request per edge (op_i):
 *   BVT   word idx_i of warp_i's vector <= word_i.
 *   PUSH  warp_i's scratchpad registers are the first Need registers r >= start_i set in its
 *         vector; none: n_o = 0 (schedulable at once); else queued (front_i: at the front), its
 *         list kept in tk_m.
 *   DROP  warp_i out of the queue; its fetch cancelled if in flight.
 *   TICK  at now_i: a fetch that has not landed answers busy_o; one that has releases its warp.
 *         Then the head: the set probe counts per set its registers (hd_mask_q, registered)
 *         against the lines that are free, unpinned or its own (lines_i); short, it waits
 *         (conflict_o) until it has waited Limit cycles, then steals (steal_o) and starts; else
 *         it starts: start_v_o, warp_o, n_o, need_o, out of the queue, in flight.
 *   DONE  the fetch just started took n_i transfers: it lands at now_i + n_i + lat_i (now_i + 1
 *         when n_i = 0).
 * A PUSH makes the warp's list (its registers as bits, the entries, the count) from its vector
 * and start_i by rank (log depth) and keeps it in the taken-register table (tk_m, per warp
 * slot); the head's list is a register (hd_*_q): the PUSH's own when the pushed warp becomes
 * the head, else the table's entry of q_q[1] when the head starts or is dropped. So a TICK
 * does only the per-set count of registered bits against lines_i, the fit and the queue
 * update (the timing fix of session 18; docs/blocks/expars_units.md "expars_pref"). A later
 * BVT write or TICK's start_i does not change a queued warp's list.
 * Cycles compare as signed NW-bit differences. The answer is registered (latency 1), all zeros
 * after an edge without a request. Bit-exact C reference: tables/expars_pref.c; ports:
 * expars_pref_ports.def.
 *
 * Parameters (configs/rtl/expars_pref.ini): Warps, WW warp slots and bits; NR vector bits (a
 * multiple of 64), IW word-index bits; RW register bits; Need registers per fetch; Lines, Ways the
 * operand cache (sets = Lines / Ways, set = reg mod sets); NW cycle bits; Limit the wait before a
 * steal; KW transfer-count bits; LW fill-latency bits.
 */
`include "../include/hd_assert.svh"

module expars_pref #(
  parameter int unsigned Warps = 64,
  parameter int unsigned WW    = 6,
  parameter int unsigned NR    = 256,
  parameter int unsigned IW    = 2,
  parameter int unsigned RW    = 8,
  parameter int unsigned Need  = 16,
  parameter int unsigned Lines = 16,
  parameter int unsigned Ways  = 1,
  parameter int unsigned NW    = 32,
  parameter int unsigned Limit = 64,
  parameter int unsigned KW    = 6,
  parameter int unsigned LW    = 4
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic                          op_v_i,
  input  logic [2:0]                    op_i,
  input  logic [WW-1:0]                 warp_i,
  input  logic [IW-1:0]                 idx_i,
  input  logic [63:0]                   word_i,
  input  logic                          front_i,
  input  logic [RW-1:0]                 start_i,
  input  logic [NW-1:0]                 now_i,
  input  logic [KW-1:0]                 n_i,
  input  logic [LW-1:0]                 lat_i,
  input  logic [Lines*(2+WW+RW)-1:0]    lines_i,
  output logic                          res_v_o,
  output logic                          busy_o,
  output logic                          rel_v_o,
  output logic [WW-1:0]                 rel_warp_o,
  output logic                          conflict_o,
  output logic                          steal_o,
  output logic                          start_v_o,
  output logic [WW-1:0]                 warp_o,
  output logic [KW-1:0]                 n_o,
  output logic [Need*RW-1:0]            need_o,
  output logic [1:0]                    dropped_o,
  output logic [WW:0]                   qn_o
);
  localparam int unsigned Words = NR / 64;
  localparam int unsigned Sets  = Lines / Ways;
  localparam int unsigned LS    = 2 + WW + RW;
  localparam logic [2:0] OpBvt = 3'd0, OpPush = 3'd1, OpDrop = 3'd2, OpTick = 3'd3,
                         OpDone = 3'd4;

  `HD_ASSERT_INIT(HdExparsPrefSizes, NR % 64 == 0 && Words <= (1 << IW) && NR <= (1 << RW) &&
                  Warps <= (1 << WW) && Warps >= 2 && Lines % Ways == 0 && 2 * Need < (1 << KW) &&
                  Limit >= 1 && NW <= 32)

  // Flat vectors (Yosys 0.23 reads no packed 2-D arrays): queue entry i in q_q[i*WW +: WW].
  logic [Warps*WW-1:0] q_q, q_d;
  logic [WW:0]         qn_q, qn_d;
  logic                busy_q, busy_d, stall_q, stall_d;
  logic [WW-1:0]       warp_q, warp_d;
  logic [NW-1:0]       done_q, done_d, since_q, since_d;

  // The BVT: a memory of Warps x Words 64-bit words without reset (word k of warp w at w Words +
  // k), each qualified by a valid bit that the reset clears and a write sets: a word not written
  // since the reset reads 0, as the reset value of a cleared table would.
  logic [63:0]             bvt_m [Warps*Words];
  logic [Warps*Words-1:0]  bvt_v;
  logic                    bvt_we;
  assign bvt_we = op_v_i && op_i == OpBvt && 32'(warp_i) < Warps && 32'(idx_i) < Words;
  always_ff @(posedge clk_i)
    if (bvt_we) bvt_m[32'(warp_i) * Words + 32'(idx_i)] <= word_i;

  // The vector read: PUSH's warp_i (the only read of the BVT).
  logic          sel_ok;
  logic [NR-1:0] vec;
  assign sel_ok = 32'(warp_i) < Warps;
  for (genvar k = 0; k < Words; k++) begin : g_rd
    assign vec[k*64 +: 64] = sel_ok && bvt_v[32'(warp_i) * Words + k] ?
                             bvt_m[32'(warp_i) * Words + k] : 64'd0;
  end

  // Its scratchpad registers: the first Need set bits of m (the vector's registers at or above
  // start_i), ascending, by rank: c[r] is the number of bits of m below r; r is taken iff m[r]
  // and c[r] < Need, and entry i of the list is the r with m[r] and c[r] == i, encoded by
  // constant masks (bit b of the number is set iff r lies in bmask[b]). Log depth, and written
  // bit-sliced (cs[k] holds bit k of c[r] for every r) with NR-wide word operations only, so
  // that Verilator stays fast (a per-register scan took it 38 s; docs/blocks/expars_units.md):
  // c = the count below r within its 8-bit group (a carry-save sum of the group's bits shifted
  // 1..7, masked to the group) + the count of the groups below (the groups' totals moved to the
  // next group's first lane, a Kogge-Stone scan over those lanes, spread over the group).
  // It replaces session 17's chain of Need lowest-set-bit steps, alone over a cycle.
  localparam int unsigned CF = $clog2(NR + 1);
  localparam int unsigned LG = $clog2(NR / 8);
  logic [NR-1:0]      m, taken;
  logic [Need*RW-1:0] need;
  logic [KW-1:0]      cnt;
  logic [RW*NR-1:0]   bmask;
  logic [7*NR-1:0]    kmask; // kmask[j-1]: the registers r with r mod 8 >= j (j = 1..7)
  logic [CF*NR-1:0]   cs, es;
  logic [NR-1:0]      s1, s2, s3, s4, s5, s6, s7, x0, x1, y0, y1, y2, l0, l1, l2, z;
  logic [NR-1:0]      t0, t1, t2, t3, a, sh, cy, lt, eqs, e;
  logic [CF-1:0]      total;
  for (genvar b = 0; b < RW; b++) begin : g_mb
    for (genvar r = 0; r < NR; r++) begin : g_mr
      assign bmask[b*NR + r] = ((r >> b) & 1) != 0;
    end
  end
  for (genvar j = 1; j < 8; j++) begin : g_kj
    for (genvar r = 0; r < NR; r++) begin : g_kr
      assign kmask[(j-1)*NR + r] = (r % 8) >= j;
    end
  end
  assign m = vec & ({NR{1'b1}} << start_i);
  always_comb begin
    // the count below r within its group: 7 one-bit vectors summed by full adders
    s1 = (m << 1) & kmask[0*NR +: NR];
    s2 = (m << 2) & kmask[1*NR +: NR];
    s3 = (m << 3) & kmask[2*NR +: NR];
    s4 = (m << 4) & kmask[3*NR +: NR];
    s5 = (m << 5) & kmask[4*NR +: NR];
    s6 = (m << 6) & kmask[5*NR +: NR];
    s7 = (m << 7) & kmask[6*NR +: NR];
    x0 = s1 ^ s2 ^ s3;
    y0 = (s1 & s2) | (s3 & (s1 ^ s2));
    x1 = s4 ^ s5 ^ s6;
    y1 = (s4 & s5) | (s6 & (s4 ^ s5));
    l0 = x0 ^ x1 ^ s7;
    y2 = (x0 & x1) | (s7 & (x0 ^ x1));
    l1 = y0 ^ y1 ^ y2;
    z  = (y0 & y1) | (y2 & (y0 ^ y1));
    l2 = z;
    // the group's total (at its last lane: the count below it + its bit)
    t0 = l0 ^ m;
    cy = l0 & m;
    t1 = l1 ^ cy;
    cy = l1 & cy;
    t2 = l2 ^ cy;
    t3 = l2 & cy;
    // moved to the next group's first lane: the scan's input (the groups' exclusive counts)
    es = '0;
    es[0*NR +: NR] = (t0 & kmask[6*NR +: NR]) << 1;
    es[1*NR +: NR] = (t1 & kmask[6*NR +: NR]) << 1;
    es[2*NR +: NR] = (t2 & kmask[6*NR +: NR]) << 1;
    if (CF > 3) es[3*NR +: NR] = (t3 & kmask[6*NR +: NR]) << 1;
    // Kogge-Stone over the groups' first lanes: es += es shifted by 8 * 2^l lanes
    for (int l = 0; l < LG; l++) begin
      cy = '0;
      for (int k = 0; k < CF; k++) begin
        a  = es[k*NR +: NR];
        sh = a << (8 << l);
        es[k*NR +: NR] = a ^ sh ^ cy;
        cy = (a & sh) | (cy & (a ^ sh));
      end
    end
    // spread over the group, then c = that + the count within the group
    cy = '0;
    for (int k = 0; k < CF; k++) begin
      e  = es[k*NR +: NR];
      e  = e | (e << 1);
      e  = e | (e << 2);
      e  = e | (e << 4);
      a  = k == 0 ? l0 : k == 1 ? l1 : k == 2 ? l2 : '0;
      cs[k*NR +: NR] = e ^ a ^ cy;
      cy = (e & a) | (cy & (e ^ a));
    end
    // taken: m and c < Need (from the top bit down)
    lt  = '0;
    eqs = '1;
    for (int k = CF - 1; k >= 0; k--) begin
      if (((Need >> k) & 1) != 0) begin
        lt  = lt | (eqs & ~cs[k*NR +: NR]);
        eqs = eqs & cs[k*NR +: NR];
      end else begin
        eqs = eqs & ~cs[k*NR +: NR];
      end
    end
    taken = m & lt;
    // entry i: the register with m and c == i
    for (int i = 0; i < Need; i++) begin
      e = m;
      for (int k = 0; k < CF; k++)
        e = e & (((i >> k) & 1) != 0 ? cs[k*NR +: NR] : ~cs[k*NR +: NR]);
      for (int b = 0; b < RW; b++) need[i*RW + b] = |(e & bmask[b*NR +: NR]);
    end
    // the count: c of the top register + its bit, at most Need
    total = '0;
    for (int k = 0; k < CF; k++) total[k] = cs[k*NR + NR - 1];
    total = total + CF'(m[NR-1]);
    cnt   = 32'(total) < Need ? KW'(total) : KW'(Need);
  end

  // The taken-register table: per warp slot the list of its last accepted PUSH (its registers
  // as bits for the set probe, the entries, the count): a memory without reset, read only for
  // a queued warp, at the entry after the head (q_q[1]), which becomes the head when the head
  // starts or is dropped.
  localparam int unsigned TW = NR + Need*RW + KW;
  logic [TW-1:0] tk_m [Warps];
  logic [TW-1:0] tk_rd;
  logic [WW-1:0] nxt_w;
  logic          push_ok;
  always_ff @(posedge clk_i)
    if (push_ok) tk_m[32'(warp_i)] <= {cnt, need, taken};
  // (through the request's valid: a gate that the flow's ABC buffers; a flip-flop's own output
  // is not buffered, and one driving this read directly took 134 ns in the flow)
  assign nxt_w = q_q[2*WW-1:WW] & {WW{op_v_i}};
  assign tk_rd = 32'(nxt_w) < Warps ? tk_m[32'(nxt_w)] : '0;

  // The head's list, registered: its registers as bits (the probe's), the entries, the count.
  logic [NR-1:0]      hd_mask_q, hd_mask_d;
  logic [Need*RW-1:0] hd_need_q, hd_need_d;
  logic [KW-1:0]      hd_n_q, hd_n_d;
  logic               hd_load, hd_push;

  // The set probe: per set, the head's registers <= the lines free, unpinned or its own. The
  // registers of set s are the list's bits r = s mod Sets.
  logic       fit;
  logic [KW-1:0] want, usable;
  always_comb begin
    fit = 1'b1;
    for (int s = 0; s < Sets; s++) begin
      want   = '0;
      usable = '0;
      for (int r = s; r < NR; r += Sets)
        if (hd_mask_q[r]) want = want + KW'(1);
      for (int j = s * Ways; j < (s + 1) * Ways; j++)
        if (!(lines_i[j*LS] && lines_i[j*LS+1] && lines_i[j*LS+2 +: WW] != q_q[WW-1:0]))
          usable = usable + KW'(1);
      if (want > usable) fit = 1'b0;
    end
  end

  // Cycle comparisons: a after b iff a - b is a positive signed NW-bit number.
  logic [NW-1:0] d_done, d_since, waited, since_eff;
  logic          long_wait;
  logic          landed, restart;
  assign d_done  = done_q - now_i;
  assign landed  = !(d_done != '0 && !d_done[NW-1]);
  assign d_since = since_q - now_i;
  assign restart = !stall_q || (d_since != '0 && !d_since[NW-1]);
  assign since_eff = restart ? now_i : since_q;
  assign waited  = now_i - since_q;
  // waited Limit: a wait that restarts now has waited 0 (< Limit), so the difference from
  // since_q is taken beside restart, not after it
  assign long_wait = !restart && 32'(waited) >= Limit;

  // The queue: where warp_i is (DROP). hit: the entries below qn holding it (in parallel); at:
  // the entries at or after its first, a prefix OR of hit in log2(Warps) steps (the entries a
  // drop shifts left; an entry-by-entry priority search was a chain through all of them).
  logic             found;
  logic [Warps-1:0] hit, at;
  always_comb begin
    for (int i = 0; i < Warps; i++)
      hit[i] = (WW+1)'(i) < qn_q && q_q[i*WW +: WW] == warp_i;
    at = hit;
    for (int k = 1; k < Warps; k = k * 2)
      at = at | (at << k);
    found = |hit;
  end

  // The registered answer.
  logic          busy_a, rel_a, conflict_a, steal_a, start_a;
  logic [WW-1:0] rel_warp_a, warp_a;
  logic [KW-1:0] n_a;
  logic [Need*RW-1:0] need_a;
  logic [1:0]    dropped_a;
  logic          go;

  always_comb begin
    q_d        = q_q;
    qn_d       = qn_q;
    busy_d     = busy_q;
    warp_d     = warp_q;
    done_d     = done_q;
    stall_d    = stall_q;
    since_d    = since_q;
    busy_a     = 1'b0;
    rel_a      = 1'b0;
    rel_warp_a = '0;
    conflict_a = 1'b0;
    steal_a    = 1'b0;
    start_a    = 1'b0;
    warp_a     = '0;
    n_a        = '0;
    need_a     = '0;
    dropped_a  = '0;
    go         = 1'b0;
    push_ok    = 1'b0;
    hd_load    = 1'b0;
    hd_push    = 1'b0;
    if (op_v_i) begin
      unique case (op_i)
        OpBvt: ; // the memory's write port (bvt_we) and its valid bit
        OpPush: begin
          if (sel_ok) begin
            n_a = cnt;
            if (m != '0 && 32'(qn_q) != Warps) begin
              push_ok = 1'b1;
              hd_push = front_i || qn_q == '0;
              if (front_i) begin
                for (int i = Warps - 1; i > 0; i--) q_d[i*WW +: WW] = q_q[(i-1)*WW +: WW];
                q_d[WW-1:0] = warp_i;
              end else begin
                for (int i = 0; i < Warps; i++)
                  if ((WW+1)'(i) == qn_q) q_d[i*WW +: WW] = warp_i;
              end
              qn_d = qn_q + (WW+1)'(1);
            end
          end
        end
        OpDrop: begin
          if (found) begin
            hd_load = hit[0];
            for (int i = 0; i < Warps - 1; i++)
              if (at[i]) q_d[i*WW +: WW] = q_q[(i+1)*WW +: WW];
            qn_d         = qn_q - (WW+1)'(1);
            dropped_a[0] = 1'b1;
          end
          if (busy_q && warp_q == warp_i) begin
            busy_d       = 1'b0;
            dropped_a[1] = 1'b1;
          end
        end
        OpTick: begin
          if (busy_q && !landed) begin
            busy_a = 1'b1;
          end else begin
            if (busy_q) begin
              rel_a      = 1'b1;
              rel_warp_a = warp_q;
              busy_d     = 1'b0;
            end
            if (qn_q != '0) begin
              if (!fit) begin
                stall_d    = 1'b1;
                since_d    = since_eff;
                conflict_a = 1'b1;
                if (long_wait) begin
                  steal_a = 1'b1;
                  go      = 1'b1;
                end
              end else begin
                go = 1'b1;
              end
              if (go) begin
                stall_d = 1'b0;
                start_a = 1'b1;
                warp_a  = q_q[WW-1:0];
                n_a     = hd_n_q;
                need_a  = hd_need_q;
                hd_load = 1'b1;
                for (int i = 0; i < Warps - 1; i++) q_d[i*WW +: WW] = q_q[(i+1)*WW +: WW];
                qn_d    = qn_q - (WW+1)'(1);
                busy_d  = 1'b1;
                warp_d  = q_q[WW-1:0];
                done_d  = now_i + NW'(1);
              end
            end
          end
        end
        OpDone: begin
          if (busy_q) done_d = n_i != '0 ? now_i + NW'(n_i) + NW'(lat_i) : now_i + NW'(1);
        end
        default: ;
      endcase
    end
  end

  // the head's list: the PUSH's own when the pushed warp becomes the head, the next entry's
  // from the table when the head leaves
  assign {hd_n_d, hd_need_d, hd_mask_d} = hd_push ? {cnt, need, taken} :
                                          hd_load ? tk_rd : {hd_n_q, hd_need_q, hd_mask_q};

  logic          res_v_q, busy_o_q, rel_q, conflict_q, steal_q, start_q;
  logic [WW-1:0] rel_warp_q, warp_o_q;
  logic [KW-1:0] n_q;
  logic [Need*RW-1:0] need_q;
  logic [1:0]    dropped_q;
  logic [WW:0]   qn_o_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bvt_v      <= '0;
      q_q        <= '0;
      qn_q       <= '0;
      busy_q     <= 1'b0;
      warp_q     <= '0;
      done_q     <= '0;
      stall_q    <= 1'b0;
      since_q    <= '0;
      hd_mask_q  <= '0;
      hd_need_q  <= '0;
      hd_n_q     <= '0;
      res_v_q    <= 1'b0;
      busy_o_q   <= 1'b0;
      rel_q      <= 1'b0;
      rel_warp_q <= '0;
      conflict_q <= 1'b0;
      steal_q    <= 1'b0;
      start_q    <= 1'b0;
      warp_o_q   <= '0;
      n_q        <= '0;
      need_q     <= '0;
      dropped_q  <= '0;
      qn_o_q     <= '0;
    end else begin
      if (bvt_we) bvt_v[32'(warp_i) * Words + 32'(idx_i)] <= 1'b1;
      q_q        <= q_d;
      qn_q       <= qn_d;
      busy_q     <= busy_d;
      warp_q     <= warp_d;
      done_q     <= done_d;
      stall_q    <= stall_d;
      since_q    <= since_d;
      hd_mask_q  <= hd_mask_d;
      hd_need_q  <= hd_need_d;
      hd_n_q     <= hd_n_d;
      res_v_q    <= op_v_i;
      busy_o_q   <= busy_a;
      rel_q      <= rel_a;
      rel_warp_q <= rel_warp_a;
      conflict_q <= conflict_a;
      steal_q    <= steal_a;
      start_q    <= start_a;
      warp_o_q   <= warp_a;
      n_q        <= n_a;
      need_q     <= need_a;
      dropped_q  <= dropped_a;
      qn_o_q     <= op_v_i ? qn_d : '0;
    end
  end

  assign res_v_o    = res_v_q;
  assign busy_o     = busy_o_q;
  assign rel_v_o    = rel_q;
  assign rel_warp_o = rel_warp_q;
  assign conflict_o = conflict_q;
  assign steal_o    = steal_q;
  assign start_v_o  = start_q;
  assign warp_o     = warp_o_q;
  assign n_o        = n_q;
  assign need_o     = need_q;
  assign dropped_o  = dropped_q;
  assign qn_o       = qn_o_q;

  // an answer only after a request; the queue never holds more than Warps
  `HD_ASSERT(HdExparsPrefIdle, !res_v_q |-> !(busy_o_q || rel_q || start_q || n_q != '0 ||
             qn_o_q != '0), clk_i, rst_ni)
  `HD_ASSERT(HdExparsPrefQueue, 32'(qn_q) <= Warps, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdExparsPrefKnown, {res_v_o, busy_o, rel_v_o, rel_warp_o, conflict_o,
                   steal_o, start_v_o, warp_o, n_o, need_o, dropped_o, qn_o}, clk_i, rst_ni)
endmodule
