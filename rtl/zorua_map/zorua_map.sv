// SPDX-License-Identifier: MIT
/**
 * zorua_map - Zorua's resource mapping table with its free list, one per resource per SM
 * (digest zorua.md §2.6-§2.8, §3.2-§3.5; paper L290-L308). One block, three configurations
 * (configs/rtl/zorua_map.ini): the register mapping table (RMT, 64 warps x 16 sets, 9-bit
 * entries, 1.125 KB), the scratchpad mapping table (SMT, 16 blocks x 48 sets, 7-bit entries,
 * 672 B) and the thread-slot mapping table (TMT, 64 logical warps, 7-bit entries, 56 B).
 *
 * Entry {valid, pset}: valid = 1: on chip at physical unit pset; valid = 0, pset = 1: mapped in
 * swap space (the access becomes a global load or store, L290); valid = 0, pset = 0: not
 * allocated. The free list is a bitmap of the PhysN physical units (lowest free index first);
 * the two counters are the paper's "amount free in physical space" and "amount mapped in swap
 * space" (L290).
 *
 * One update per cycle (op_i on entry row_i * Sets + set_i):
 *   allocate  a free entry gets the lowest free unit; with none free, swap space if the swap
 *             count is below lim_i (oversubscription, o_thresh); else refused
 *   release   an allocated entry becomes free (its unit back to the free list, or swap count -1)
 *   swap out  an on-chip entry goes to swap (spill, L308) if the swap count is below lim_i; its
 *             unit is freed (the caller moves the data: unit -> swap address)
 *   swap in   an entry in swap gets the lowest free unit (fill; refused with none free)
 * A refused update changes nothing (up_ok_o = 0). One lookup per cycle sees the table after
 * the same edge's update. Registered outputs, latency 1, 0 in a cycle without a result.
 * Bit-exact C reference: tables/zorua_map.c; ports: zorua_map_ports.def.
 *
 * Parameters (configs/rtl/zorua_map.ini): Rows, RowW, Sets, SetW, PhysN, PW, CntW.
 */
`include "../include/hd_assert.svh"

module zorua_map #(
  parameter int unsigned Rows  = 64,
  parameter int unsigned RowW  = 6,
  parameter int unsigned Sets  = 16,
  parameter int unsigned SetW  = 4,
  parameter int unsigned PhysN = 256,
  parameter int unsigned PW    = 8,
  parameter int unsigned CntW  = 11
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [2:0]      op_i,
  input  logic [RowW-1:0] row_i,
  input  logic [SetW-1:0] set_i,
  input  logic [CntW-1:0] lim_i,
  input  logic            lk_v_i,
  input  logic [RowW-1:0] lk_row_i,
  input  logic [SetW-1:0] lk_set_i,
  output logic            up_v_o,
  output logic [2:0]      up_op_o,
  output logic            up_ok_o,
  output logic            up_unit_o,
  output logic [PW-1:0]   up_pset_o,
  output logic [CntW-1:0] free_o,
  output logic [CntW-1:0] swap_o,
  output logic            lk_v_o,
  output logic            lk_alloc_o,
  output logic            lk_hit_o,
  output logic [PW-1:0]   lk_pset_o
);

  localparam int unsigned Entries = Rows * Sets;
  localparam int unsigned EW      = PW + 1;
  localparam int unsigned IdxW    = $clog2(Entries) < 1 ? 1 : $clog2(Entries);
  localparam int          PhysI   = PhysN; // a signed loop bound (Yosys 0.23 reads no int'() casts)

  localparam logic [2:0] OpAlloc   = 3'd1;
  localparam logic [2:0] OpRelease = 3'd2;
  localparam logic [2:0] OpSpill   = 3'd3;
  localparam logic [2:0] OpFill    = 3'd4;

  // Entry j in bits [j*EW +: EW], {valid, pset} (flat vectors: Yosys 0.23 reads no packed 2-D
  // arrays).
  logic [Entries*EW-1:0] tab_q;
  logic [PhysN-1:0]      free_q, free_d;
  logic [CntW-1:0]       fcnt_q, fcnt_d, scnt_q, scnt_d;

  logic            in_range, lk_range;
  logic [IdxW-1:0] idx, lk_idx;
  logic [EW-1:0]   cur, nxt, lk_e;
  logic            wr;
  logic            has_free, swap_room;
  logic [PW-1:0]   ffree;

  logic          up_ok_d, up_unit_d;
  logic [PW-1:0] up_pset_d;

  assign in_range  = 32'(row_i) < Rows && 32'(set_i) < Sets;
  assign lk_range  = 32'(lk_row_i) < Rows && 32'(lk_set_i) < Sets;
  assign idx       = IdxW'(32'(row_i) * Sets + 32'(set_i));
  assign lk_idx    = IdxW'(32'(lk_row_i) * Sets + 32'(lk_set_i));
  assign has_free  = fcnt_q != '0;
  assign swap_room = scnt_q < lim_i;

  // The entry the update names (0 out of range).
  assign cur = in_range ? tab_q[idx*EW +: EW] : '0;

  // The free list's lowest free unit.
  always_comb begin
    ffree = '0;
    for (int j = PhysI - 1; j >= 0; j--) begin
      if (free_q[j]) begin
        ffree = PW'(j);
      end
    end
  end

  always_comb begin
    free_d    = free_q;
    fcnt_d    = fcnt_q;
    scnt_d    = scnt_q;
    wr        = 1'b0;
    nxt       = '0;
    up_ok_d   = 1'b0;
    up_unit_d = 1'b0;
    up_pset_d = '0;
    if (in_range) begin
      unique case (op_i)
        OpAlloc: begin
          if (!cur[PW] && !cur[0]) begin
            if (has_free) begin
              wr            = 1'b1;
              nxt           = {1'b1, ffree};
              free_d[ffree] = 1'b0;
              fcnt_d        = fcnt_q - 1'b1;
              up_ok_d       = 1'b1;
              up_unit_d     = 1'b1;
              up_pset_d     = ffree;
            end else if (swap_room) begin
              wr      = 1'b1;
              nxt     = EW'(1);
              scnt_d  = scnt_q + 1'b1;
              up_ok_d = 1'b1;
            end
          end
        end
        OpRelease: begin
          if (cur[PW]) begin
            wr                     = 1'b1;
            free_d[cur[PW-1:0]]    = 1'b1;
            fcnt_d                 = fcnt_q + 1'b1;
            up_ok_d                = 1'b1;
            up_unit_d              = 1'b1;
            up_pset_d              = cur[PW-1:0];
          end else if (cur[0]) begin
            wr      = 1'b1;
            scnt_d  = scnt_q - 1'b1;
            up_ok_d = 1'b1;
          end
        end
        OpSpill: begin
          if (cur[PW] && swap_room) begin
            wr                  = 1'b1;
            nxt                 = EW'(1);
            free_d[cur[PW-1:0]] = 1'b1;
            fcnt_d              = fcnt_q + 1'b1;
            scnt_d              = scnt_q + 1'b1;
            up_ok_d             = 1'b1;
            up_unit_d           = 1'b1;
            up_pset_d           = cur[PW-1:0];
          end
        end
        OpFill: begin
          if (!cur[PW] && cur[0] && has_free) begin
            wr            = 1'b1;
            nxt           = {1'b1, ffree};
            free_d[ffree] = 1'b0;
            fcnt_d        = fcnt_q - 1'b1;
            scnt_d        = scnt_q - 1'b1;
            up_ok_d       = 1'b1;
            up_unit_d     = 1'b1;
            up_pset_d     = ffree;
          end
        end
        default: ;
      endcase
    end
  end

  // The lookup sees this edge's update (bypass), then the table.
  always_comb begin
    lk_e = lk_range ? tab_q[lk_idx*EW +: EW] : '0;
    if (lk_range && wr && lk_idx == idx) begin
      lk_e = nxt;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned j = 0; j < Entries; j++) begin
        tab_q[j*EW +: EW] <= '0; // per entry: a 9216-bit '0 is one replication too wide to lint
      end
    end else begin
      for (int unsigned j = 0; j < Entries; j++) begin
        if (wr && idx == IdxW'(j)) begin
          tab_q[j*EW +: EW] <= nxt;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      free_q     <= '1;
      fcnt_q     <= CntW'(PhysN);
      scnt_q     <= '0;
      up_v_o     <= 1'b0;
      up_op_o    <= '0;
      up_ok_o    <= 1'b0;
      up_unit_o  <= 1'b0;
      up_pset_o  <= '0;
      free_o     <= '0;
      swap_o     <= '0;
      lk_v_o     <= 1'b0;
      lk_alloc_o <= 1'b0;
      lk_hit_o   <= 1'b0;
      lk_pset_o  <= '0;
    end else begin
      free_q     <= free_d;
      fcnt_q     <= fcnt_d;
      scnt_q     <= scnt_d;
      up_v_o     <= op_i != '0;
      up_op_o    <= op_i;
      up_ok_o    <= up_ok_d;
      up_unit_o  <= up_unit_d;
      up_pset_o  <= up_pset_d;
      free_o     <= (op_i != '0 || lk_v_i) ? fcnt_d : '0;
      swap_o     <= (op_i != '0 || lk_v_i) ? scnt_d : '0;
      lk_v_o     <= lk_v_i;
      lk_alloc_o <= lk_v_i && (lk_e[PW] || lk_e[0]);
      lk_hit_o   <= lk_v_i && lk_e[PW];
      lk_pset_o  <= (lk_v_i && lk_e[PW]) ? lk_e[PW-1:0] : '0;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdZoruaMapParams, Rows >= 1 && Rows <= (1 << RowW) && Sets >= 1 &&
                                    Sets <= (1 << SetW) && PhysN >= 2 && PhysN <= (1 << PW) &&
                                    Entries < (1 << CntW) && PhysN < (1 << CntW))
  `HD_ASSERT_KNOWN(HdZoruaMapUpKnown, up_v_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdZoruaMapLkKnown, lk_v_o, clk_i, rst_ni)
  // The free counter is the free list's population; a unit is never free and in use at once.
  `HD_ASSERT(HdZoruaMapFreeCount, 32'(fcnt_q) == 32'($countones(free_q)), clk_i, rst_ni)
  `HD_ASSERT(HdZoruaMapUpIdleZero, up_v_o || (!up_ok_o && !up_unit_o && up_pset_o == '0 &&
                                               up_op_o == '0), clk_i, rst_ni)
  `HD_ASSERT(HdZoruaMapLkIdleZero, lk_v_o || (!lk_alloc_o && !lk_hit_o && lk_pset_o == '0),
             clk_i, rst_ni)
  `HD_ASSERT(HdZoruaMapUnitOk, !up_unit_o || up_ok_o, clk_i, rst_ni)

endmodule
