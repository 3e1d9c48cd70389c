// SPDX-License-Identifier: MIT
/**
 * alloc_bitmap - allocation bitmap with find-first-free (GPUDuet, Lin thesis ch.3: one bit per
 * 128-byte unit of the unified register-file / shared-memory / L1D space, 3072 bits per SM).
 *
 * Synthesis flow fixture (synth/): a real, parameterized block that the area/timing flow is
 * developed and tested on while the co-simulated blocks land in rtl/. Every cycle it grants at
 * most one allocation (the lowest free unit, found by a log-depth find-first-zero tree over the
 * registered bitmap) and retires at most one free. The same binary tree, walked top-down, turns
 * the grant into a one-hot set vector and the freed index into a one-hot clear vector, so the
 * bitmap update is AND/OR logic of log depth (no wide shifters or 3072:1 multiplexers). A grant is combinational from the bitmap
 * flops (alloc_gnt_o, alloc_idx_o in the request's cycle); the bitmap and the free counter
 * update at the next edge. Freeing a unit that is not allocated, or the unit granted in the same
 * cycle, is a protocol error (the free is ignored; the simulation check flags it).
 *
 * Parameters:
 *   Units    number of allocation units (bits), >= 4 (GPUDuet: 3072)
 *   ResetAll 1: the bitmap flops get the async reset (all units free after reset);
 *            0: only the counter is reset and the bitmap must be cleared with clear_i
 *            (smaller flops)
 */
module alloc_bitmap #(
  parameter int unsigned Units    = 3072,
  parameter bit          ResetAll = 1'b1,
  localparam int unsigned IdxW    = (Units > 1) ? $clog2(Units) : 1,
  localparam int unsigned CntW    = $clog2(Units + 1)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            clear_i,      // synchronous: every unit becomes free
  input  logic            alloc_req_i,
  output logic            alloc_gnt_o,
  output logic [IdxW-1:0] alloc_idx_o,
  input  logic            free_req_i,
  input  logic [IdxW-1:0] free_idx_i,
  output logic [CntW-1:0] free_count_o,
  output logic            full_o
);

  // Tree over a power-of-two padding of the bitmap; padding units read as used.
  localparam int unsigned Levels = IdxW;
  localparam int unsigned Leaves = 1 << Levels;

  logic [Units-1:0] used_q, used_d;
  logic [CntW-1:0]  count_q, count_d;

  ////////////////////////////////////
  // Find first free: log-depth tree //
  ////////////////////////////////////

  // Node n of level l (l = 0 at the leaves) covers 2^l units: free_l[n] says one of them is
  // free, idx_l[n] is the lowest free one's offset inside the node.
  logic [Leaves-1:0] leaf_free;
  always_comb begin
    leaf_free = '0;
    leaf_free[Units-1:0] = ~used_q;
  end

  // Internal nodes, flat: level l (1..Levels) has Leaves >> l nodes starting at node
  // Leaves - (Leaves >> (l-1)); the root is node Leaves - 2.
  //   bottom-up: node_free (a unit below is free), node_idx (offset of the lowest free one)
  //   top-down:  node_sel (the grant goes below), node_dec (free_idx_i points below), and the
  //              same for the leaves (leaf_sel, leaf_dec: one-hot over the units)
  logic [Leaves-2:0]          node_free /* verilator split_var */;
  logic [(Leaves-1)*IdxW-1:0] node_idx  /* verilator split_var */;
  logic [Leaves-2:0]          node_sel  /* verilator split_var */;
  logic [Leaves-2:0]          node_dec  /* verilator split_var */;
  logic [Leaves-1:0]          leaf_sel, leaf_dec;

  for (genvar l = 1; l <= Levels; l++) begin : g_level
    localparam int unsigned Nodes   = Leaves >> l;
    localparam int unsigned OutBase = Leaves - (Leaves >> (l - 1));
    localparam int unsigned InBase  = (l >= 2) ? Leaves - (2 * Leaves >> (l - 1)) : 0;
    for (genvar n = 0; n < Nodes; n++) begin : g_node
      logic lo_free, hi_free, sel, dec;
      logic [IdxW-1:0] lo_idx, hi_idx;
      assign sel = node_sel[OutBase + n];
      assign dec = node_dec[OutBase + n];
      if (l == 1) begin : g_from_leaves
        assign lo_free = leaf_free[2*n];
        assign hi_free = leaf_free[2*n + 1];
        assign lo_idx  = '0;
        assign hi_idx  = '0;
        assign leaf_sel[2*n]     = sel & lo_free;
        assign leaf_sel[2*n + 1] = sel & ~lo_free;
        assign leaf_dec[2*n]     = dec & ~free_idx_i[0];
        assign leaf_dec[2*n + 1] = dec & free_idx_i[0];
      end else begin : g_from_nodes
        assign lo_free = node_free[InBase + 2*n];
        assign hi_free = node_free[InBase + 2*n + 1];
        assign lo_idx  = node_idx[(InBase + 2*n) * IdxW +: IdxW];
        assign hi_idx  = node_idx[(InBase + 2*n + 1) * IdxW +: IdxW];
        assign node_sel[InBase + 2*n]     = sel & lo_free;
        assign node_sel[InBase + 2*n + 1] = sel & ~lo_free;
        assign node_dec[InBase + 2*n]     = dec & ~free_idx_i[l-1];
        assign node_dec[InBase + 2*n + 1] = dec & free_idx_i[l-1];
      end
      assign node_free[OutBase + n] = lo_free | hi_free;
      always_comb begin
        node_idx[(OutBase + n) * IdxW +: IdxW] = lo_free ? lo_idx : hi_idx;
        node_idx[(OutBase + n) * IdxW + (l - 1)] = ~lo_free;
      end
    end
  end

  localparam int unsigned Root = Leaves - 2;
  logic any_free;
  assign any_free    = node_free[Root];
  assign alloc_gnt_o = alloc_req_i & any_free & ~clear_i;
  assign alloc_idx_o = node_idx[Root * IdxW +: IdxW];
  assign node_sel[Root] = 1'b1;
  assign node_dec[Root] = 1'b1;

  // Padding leaves (Units..Leaves-1) are never free, so never selected; a free of a padding
  // index finds no used unit there.
  logic free_ok;
  logic [Units-1:0] set_oh, clr_oh;
  assign set_oh = leaf_sel[Units-1:0] & {Units{alloc_gnt_o}};
  assign clr_oh = leaf_dec[Units-1:0] & {Units{free_ok}};
  if (Leaves > Units) begin : g_pad
    logic unused_pad;
    assign unused_pad = ^{leaf_sel[Leaves-1:Units], leaf_dec[Leaves-1:Units]};
  end

  //////////////////////////
  // Bitmap and counter   //
  //////////////////////////

  assign free_ok = free_req_i & ~clear_i & (|(used_q & leaf_dec[Units-1:0])) &
                   ~(alloc_gnt_o & (free_idx_i == alloc_idx_o));

  always_comb begin
    used_d  = used_q;
    count_d = count_q;
    if (clear_i) begin
      used_d  = '0;
      count_d = CntW'(Units);
    end else begin
      used_d  = (used_q | set_oh) & ~clr_oh;
      count_d = count_q - CntW'(alloc_gnt_o) + CntW'(free_ok);
    end
  end

  if (ResetAll) begin : g_reset_bitmap
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        used_q <= '0;
      end else begin
        used_q <= used_d;
      end
    end
  end else begin : g_noreset_bitmap
    always_ff @(posedge clk_i) begin
      used_q <= used_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= CntW'(Units);
    end else begin
      count_q <= count_d;
    end
  end

  assign free_count_o = count_q;
  assign full_o       = ~any_free;

`ifndef SYNTHESIS
  initial begin : p_params
    assert (Units >= 4) else $fatal(1, "AllocBitmapUnits: Units must be >= 4");
  end
  always @(posedge clk_i) begin : p_protocol
    if (rst_ni && free_req_i && !clear_i && !free_ok) begin
      $error("AllocBitmapFreeUnused: free of unit %0d that is not allocated", free_idx_i);
    end
  end
`endif

endmodule
