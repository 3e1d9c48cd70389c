// SPDX-License-Identifier: MIT
/**
 * alloc_table - Lin's allocation table of one on-chip memory (thesis §2.3.1, Fig 2.4): the
 * register-file table or the shared-memory table of in-place context switching.
 *
 * Holds 16 entries {valid, start, size} (units: vector registers or 128 B; 12 bits each), one
 * per resident TB, and answers one request per cycle:
 *   alloc (op 1)  the lowest free entry takes the first-fit contiguous block of size_i units in
 *                 [0, cap_i): the lowest start at which it overlaps no entry in use;
 *   free  (op 2)  entry entry_i leaves;
 *   spill (op 3)  the window of size_i units, overlapping only entries of cand_i (entries of
 *                 drop_i count as free), that overlaps the fewest entries: the minimum set of
 *                 TBs to spill so that the block fits (victims_o, nvict_o, start_o).
 * Both searches are one datapath: 17 candidate starts (0 and the end of every entry in use),
 * each compared with all 16 entries (272 interval tests, in parallel), then a reduction in
 * reduction tree keeping the fewest overlaps, then the lowest start. Alloc is the search with
 * no entry allowed to overlap, so the lowest free window wins (first fit).
 *
 * Registered outputs: all (valid_o, op_o, ok_o, entry_o, start_o, victims_o, nvict_o, used_o),
 * one cycle after the request, 0 when valid_o is 0. The entry written by an alloc or cleared by a
 * free is visible to the request of the next cycle.
 * Bit-exact C reference: tables/alloc_table.c; ports: alloc_table_ports.def.
 *
 * Parameters:
 *   ResetAll  1: the start and size flops get the asynchronous reset too; 0: only the valid
 *             bits and the outputs (a start or size is read only while its valid bit is set).
 *   Entries   entries per table, 1..16 (the thesis: 16; the C reference models 16, every named
 *             configuration has 16; fewer only for the synthesis flow's smoke run).
 */
`include "../include/hd_assert.svh"

module alloc_table #(
  parameter bit          ResetAll = 1'b0,
  parameter int unsigned Entries  = 16
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [1:0]  op_i,
  input  logic [11:0] size_i,
  input  logic [11:0] cap_i,
  input  logic [3:0]  entry_i,
  input  logic [15:0] cand_i,
  input  logic [15:0] drop_i,
  output logic        valid_o,
  output logic [1:0]  op_o,
  output logic        ok_o,
  output logic [3:0]  entry_o,
  output logic [11:0] start_o,
  output logic [15:0] victims_o,
  output logic [4:0]  nvict_o,
  output logic [4:0]  used_o
);

  localparam int unsigned NCand = Entries + 1;

  localparam logic [1:0] OpNone  = 2'd0;
  localparam logic [1:0] OpAlloc = 2'd1;
  localparam logic [1:0] OpFree  = 2'd2;
  localparam logic [1:0] OpSpill = 2'd3;

  // Flat vectors (12 bits per entry) rather than unpacked arrays: Yosys 0.23 reads these.
  logic [Entries-1:0]    valid_q;
  logic [12*Entries-1:0] start_q, size_q;

  function automatic logic [4:0] popcount16(logic [15:0] m);
    popcount16 = '0;
    for (int i = 0; i < 16; i++) begin
      popcount16 = popcount16 + 5'(m[i]);
    end
  endfunction

  //////////////////////////
  // Candidate windows    //
  //////////////////////////

  logic [15:0] allowed, dropped;
  assign allowed = op_i == OpSpill ? cand_i : 16'd0;
  assign dropped = op_i == OpSpill ? drop_i : 16'd0;

  logic [13:0]          cstart [NCand];  // candidate start (up to 2 x 4095)
  logic [NCand-1:0]     cfit;            // exists, inside cap, overlaps only allowed entries
  logic [15:0]          cmask  [NCand];  // entries it overlaps
  logic [4:0]           ccount [NCand];

  for (genvar k = 0; k < NCand; k++) begin : g_cand
    logic        exists;
    logic [14:0] hi;
    if (k == 0) begin : g_zero
      assign cstart[k] = '0;
      assign exists    = 1'b1;
    end else begin : g_end
      assign cstart[k] = 14'(start_q[12*(k-1) +: 12]) + 14'(size_q[12*(k-1) +: 12]);
      assign exists    = valid_q[k-1] && !dropped[k-1];
    end
    assign hi = 15'(cstart[k]) + 15'(size_i);
    for (genvar e = Entries; e < 16; e++) begin : g_none
      assign cmask[k][e] = 1'b0;
    end
    for (genvar e = 0; e < Entries; e++) begin : g_ov
      logic [12:0] lo_e, hi_e;
      assign lo_e = 13'(start_q[12*e +: 12]);
      assign hi_e = 13'(start_q[12*e +: 12]) + 13'(size_q[12*e +: 12]);
      assign cmask[k][e] = valid_q[e] && !dropped[e] && size_q[12*e +: 12] != '0 &&
                           size_i != '0 && 15'(lo_e) < hi && 14'(cstart[k]) < 14'(hi_e);
    end
    assign ccount[k] = popcount16(cmask[k]);
    assign cfit[k]   = exists && hi <= 15'(cap_i) && (cmask[k] & ~allowed) == '0;
  end

  // Reduction: fewest overlaps, then lowest start, then the earliest candidate. A binary tree
  // of five levels over 32 leaves (candidates 0..16, the rest empty); a node takes its right
  // child only if that is strictly better, so the earliest of the best wins, as a scan in
  // candidate order would choose. Level L has 32 >> L nodes {f: fits, n, c (a fitting window
  // starts below 4096), m}; one vector per level and field.
  localparam int unsigned Leaves = 32;
  logic [31:0] f0;  logic [5*32-1:0] n0;  logic [12*32-1:0] c0;  logic [16*32-1:0] m0;
  logic [15:0] f1;  logic [5*16-1:0] n1;  logic [12*16-1:0] c1;  logic [16*16-1:0] m1;
  logic [7:0]  f2;  logic [5*8-1:0]  n2;  logic [12*8-1:0]  c2;  logic [16*8-1:0]  m2;
  logic [3:0]  f3;  logic [5*4-1:0]  n3;  logic [12*4-1:0]  c3;  logic [16*4-1:0]  m3;
  logic [1:0]  f4;  logic [5*2-1:0]  n4;  logic [12*2-1:0]  c4;  logic [16*2-1:0]  m4;
  for (genvar k = 0; k < Leaves; k++) begin : g_leaf
    if (k < NCand) begin : g_real
      assign f0[k]           = cfit[k];
      assign n0[5*k +: 5]    = ccount[k];
      assign c0[12*k +: 12]  = cstart[k][11:0];
      assign m0[16*k +: 16]  = cmask[k];
    end else begin : g_empty
      assign f0[k]           = 1'b0;
      assign n0[5*k +: 5]    = '0;
      assign c0[12*k +: 12]  = '0;
      assign m0[16*k +: 16]  = '0;
    end
  end

  // Does (fr, nr, cr) beat (fl, nl, cl)?
  function automatic logic beats(logic fl, logic [4:0] nl, logic [11:0] cl, logic fr,
                                 logic [4:0] nr, logic [11:0] cr);
    beats = fr && (!fl || nr < nl || (nr == nl && cr < cl));
  endfunction

`define HD_ATAB_LEVEL(NAME, N, FI, NI, CI, MI, FO, NO, CO, MO) \
  for (genvar i = 0; i < N; i++) begin : NAME \
    logic r; \
    assign r = beats(FI[2*i], NI[5*(2*i) +: 5], CI[12*(2*i) +: 12], FI[2*i+1], \
                     NI[5*(2*i+1) +: 5], CI[12*(2*i+1) +: 12]); \
    assign FO[i]          = FI[2*i] || FI[2*i+1]; \
    assign NO[5*i +: 5]   = r ? NI[5*(2*i+1) +: 5] : NI[5*(2*i) +: 5]; \
    assign CO[12*i +: 12] = r ? CI[12*(2*i+1) +: 12] : CI[12*(2*i) +: 12]; \
    assign MO[16*i +: 16] = r ? MI[16*(2*i+1) +: 16] : MI[16*(2*i) +: 16]; \
  end
  `HD_ATAB_LEVEL(g_l1, 16, f0, n0, c0, m0, f1, n1, c1, m1)
  `HD_ATAB_LEVEL(g_l2, 8, f1, n1, c1, m1, f2, n2, c2, m2)
  `HD_ATAB_LEVEL(g_l3, 4, f2, n2, c2, m2, f3, n3, c3, m3)
  `HD_ATAB_LEVEL(g_l4, 2, f3, n3, c3, m3, f4, n4, c4, m4)
`undef HD_ATAB_LEVEL

  logic        found, root_r;
  logic [4:0]  best_n;
  logic [11:0] best_c;
  logic [15:0] best_m;
  assign root_r = beats(f4[0], n4[4:0], c4[11:0], f4[1], n4[9:5], c4[23:12]);
  assign found  = f4[0] || f4[1];
  assign best_n = root_r ? n4[9:5] : n4[4:0];
  assign best_c = root_r ? c4[23:12] : c4[11:0];
  assign best_m = root_r ? m4[31:16] : m4[15:0];

  // The lowest free entry.
  logic       have_free;
  logic [3:0] free_e;
  always_comb begin
    have_free = 1'b0;
    free_e    = '0;
    for (int e = Entries - 1; e >= 0; e--) begin
      if (!valid_q[e]) begin
        have_free = 1'b1;
        free_e    = 4'(e);
      end
    end
  end

  //////////////////////////
  // Answer and update    //
  //////////////////////////

  logic             ok_d, take, clear;
  logic [3:0]       entry_d;
  logic [11:0]      start_d;
  logic [15:0]      victims_d;
  logic [4:0]       nvict_d;
  logic [Entries-1:0] valid_d;
  always_comb begin
    ok_d      = 1'b0;
    entry_d   = '0;
    start_d   = '0;
    victims_d = '0;
    nvict_d   = '0;
    take      = 1'b0;
    clear     = 1'b0;
    unique case (op_i)
      OpAlloc: begin
        if (have_free && found) begin
          ok_d    = 1'b1;
          entry_d = free_e;
          start_d = best_c;
          take    = 1'b1;
        end
      end
      OpFree: begin
        ok_d  = valid_q[entry_i];
        clear = 1'b1;
      end
      OpSpill: begin
        if (found) begin
          ok_d      = 1'b1;
          start_d   = best_c;
          victims_d = best_m;
          nvict_d   = best_n;
        end
      end
      default: ;
    endcase
    valid_d = valid_q;
    if (take) begin
      valid_d[free_e] = 1'b1;
    end
    if (clear) begin
      valid_d[entry_i] = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q   <= '0;
      valid_o   <= 1'b0;
      op_o      <= OpNone;
      ok_o      <= 1'b0;
      entry_o   <= '0;
      start_o   <= '0;
      victims_o <= '0;
      nvict_o   <= '0;
      used_o    <= '0;
    end else begin
      valid_q   <= valid_d;
      valid_o   <= op_i != OpNone;
      op_o      <= op_i;
      ok_o      <= ok_d;
      entry_o   <= entry_d;
      start_o   <= start_d;
      victims_o <= victims_d;
      nvict_o   <= nvict_d;
      used_o    <= op_i != OpNone ? popcount16(16'(valid_d)) : 5'd0;
    end
  end

  // The entry an alloc takes.
  if (ResetAll) begin : g_ent_reset
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        start_q <= '0;
        size_q  <= '0;
      end else if (take) begin
        start_q[12*free_e +: 12] <= start_d;
        size_q[12*free_e +: 12]  <= size_i;
      end
    end
  end else begin : g_ent_noreset
    always_ff @(posedge clk_i) begin
      if (take) begin
        start_q[12*free_e +: 12] <= start_d;
        size_q[12*free_e +: 12]  <= size_i;
      end
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdAllocTableEntries, Entries >= 1 && Entries <= 16)
  `HD_ASSERT_KNOWN(HdAllocTableValidKnown, valid_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdAllocTableOutKnown, {op_o, ok_o, entry_o, start_o, victims_o, nvict_o,
                                          used_o}, clk_i, rst_ni)
  `HD_ASSERT(HdAllocTableIdleZero,
             valid_o || {op_o, ok_o, entry_o, start_o, victims_o, nvict_o, used_o} == '0,
             clk_i, rst_ni)
  `HD_ASSERT(HdAllocTableVictimCount, nvict_o == popcount16(victims_o), clk_i, rst_ni)

endmodule
