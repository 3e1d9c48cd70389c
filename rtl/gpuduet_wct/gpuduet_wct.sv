// SPDX-License-Identifier: MIT
/**
 * gpuduet_wct - GPUDuet's Warp Context Table, one per SM (Lin thesis §3.8, Fig 3.9, Table 3.4:
 * 128 entries x 27 bits).
 *
 * Per warp id: Valid (1), State (2: 0 running, 1 stalled, 2 absent, 3 ready), Regaddr (12: base
 * of the warp's register context in the unified 128 B-unit space) and Metaaddr (12: the physical
 * warp-slot index while the meta-data is present, else its spilled address). An address below
 * RfUnits (0x800, the register file's part of the space) means present; at or above it, the
 * context sits in shared memory (0x800-0xAFF) or L1D (0xB00-0xBFF).
 *
 * Within one edge, in order: the finish clears an entry; the launch writes one whole (Valid = 1);
 * the stall detector moves a valid running warp to stalled; the memory response (the warp's last
 * outstanding load returned) moves a valid absent warp to ready and a valid stalled warp back to
 * running; the CSL writes State, Regaddr and Metaaddr of a valid entry after a move. A read
 * (rd_v_i) returns the entry after that edge's updates, with the count of valid entries and the
 * schedulable (valid, running, both contexts present), stalled and ready vectors.
 *
 * Registered outputs: all, one cycle after rd_v_i; 0 in a cycle without a result. Bit-exact C
 * reference: tables/gpuduet_wct.c; ports: gpuduet_wct_ports.def.
 *
 * Parameters (configs/rtl/gpuduet_wct.ini):
 *   NW  entries (warps tracked);  WW  warp id bits, $clog2(NW)
 *   AW  unified-space address bits;  RfUnits  first address not in the register file
 */
`include "../include/hd_assert.svh"

module gpuduet_wct #(
  parameter int unsigned NW      = 128,
  parameter int unsigned WW      = 7,
  parameter int unsigned AW      = 12,
  parameter int unsigned RfUnits = 2048
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          fin_v_i,
  input  logic [WW-1:0] fin_wid_i,
  input  logic          ld_v_i,
  input  logic [WW-1:0] ld_wid_i,
  input  logic [1:0]    ld_state_i,
  input  logic [AW-1:0] ld_reg_i,
  input  logic [AW-1:0] ld_meta_i,
  input  logic          st_v_i,
  input  logic [WW-1:0] st_wid_i,
  input  logic          mr_v_i,
  input  logic [WW-1:0] mr_wid_i,
  input  logic          csl_v_i,
  input  logic [WW-1:0] csl_wid_i,
  input  logic [1:0]    csl_state_i,
  input  logic [AW-1:0] csl_reg_i,
  input  logic [AW-1:0] csl_meta_i,
  input  logic          rd_v_i,
  input  logic [WW-1:0] rd_wid_i,
  output logic          rd_v_o,
  output logic          rd_valid_o,
  output logic [1:0]    rd_state_o,
  output logic [AW-1:0] rd_reg_o,
  output logic [AW-1:0] rd_meta_o,
  output logic [WW:0]   rd_nvalid_o,
  output logic [NW-1:0] rd_sched_o,
  output logic [NW-1:0] rd_stalled_o,
  output logic [NW-1:0] rd_ready_o
);

  localparam logic [1:0] Running = 2'd0;
  localparam logic [1:0] Stalled = 2'd1;
  localparam logic [1:0] Absent  = 2'd2;
  localparam logic [1:0] Ready   = 2'd3;

  // Entry j's fields in bits [j*W +: W] (flat vectors: Yosys 0.23 reads no packed 2-D arrays).
  logic [NW-1:0]    valid_d, valid_q;
  logic [NW*2-1:0]  state_d, state_q;
  logic [NW*AW-1:0] reg_d, reg_q, meta_d, meta_q;

  logic          rd_valid_d;
  logic [1:0]    rd_state_d;
  logic [AW-1:0] rd_reg_d, rd_meta_d;
  logic [WW:0]   rd_nvalid_d;
  logic [NW-1:0] rd_sched_d, rd_stalled_d, rd_ready_d;

  always_comb begin
    valid_d = valid_q;
    state_d = state_q;
    reg_d   = reg_q;
    meta_d  = meta_q;
    for (int j = 0; j < NW; j++) begin
      if (fin_v_i && fin_wid_i == WW'(j)) begin
        valid_d[j]          = 1'b0;
        state_d[j*2 +: 2]   = Running;
        reg_d[j*AW +: AW]   = '0;
        meta_d[j*AW +: AW]  = '0;
      end
      if (ld_v_i && ld_wid_i == WW'(j)) begin
        valid_d[j]          = 1'b1;
        state_d[j*2 +: 2]   = ld_state_i;
        reg_d[j*AW +: AW]   = ld_reg_i;
        meta_d[j*AW +: AW]  = ld_meta_i;
      end
      if (st_v_i && st_wid_i == WW'(j) && valid_d[j] && state_d[j*2 +: 2] == Running) begin
        state_d[j*2 +: 2] = Stalled;
      end
      if (mr_v_i && mr_wid_i == WW'(j) && valid_d[j]) begin
        if (state_d[j*2 +: 2] == Absent) begin
          state_d[j*2 +: 2] = Ready;
        end else if (state_d[j*2 +: 2] == Stalled) begin
          state_d[j*2 +: 2] = Running;
        end
      end
      if (csl_v_i && csl_wid_i == WW'(j) && valid_d[j]) begin
        state_d[j*2 +: 2]  = csl_state_i;
        reg_d[j*AW +: AW]  = csl_reg_i;
        meta_d[j*AW +: AW] = csl_meta_i;
      end
    end
  end

  always_comb begin
    rd_valid_d   = 1'b0;
    rd_state_d   = '0;
    rd_reg_d     = '0;
    rd_meta_d    = '0;
    rd_nvalid_d  = '0;
    rd_sched_d   = '0;
    rd_stalled_d = '0;
    rd_ready_d   = '0;
    if (rd_v_i) begin
      for (int j = 0; j < NW; j++) begin
        if (rd_wid_i == WW'(j) && valid_d[j]) begin
          rd_valid_d = 1'b1;
          rd_state_d = state_d[j*2 +: 2];
          rd_reg_d   = reg_d[j*AW +: AW];
          rd_meta_d  = meta_d[j*AW +: AW];
        end
        rd_nvalid_d     = rd_nvalid_d + (WW+1)'(valid_d[j]);
        rd_sched_d[j]   = valid_d[j] && state_d[j*2 +: 2] == Running &&
                          reg_d[j*AW +: AW] < AW'(RfUnits) && meta_d[j*AW +: AW] < AW'(RfUnits);
        rd_stalled_d[j] = valid_d[j] && state_d[j*2 +: 2] == Stalled;
        rd_ready_d[j]   = valid_d[j] && state_d[j*2 +: 2] == Ready;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q      <= '0;
      state_q      <= '0;
      reg_q        <= '0;
      meta_q       <= '0;
      rd_v_o       <= 1'b0;
      rd_valid_o   <= 1'b0;
      rd_state_o   <= '0;
      rd_reg_o     <= '0;
      rd_meta_o    <= '0;
      rd_nvalid_o  <= '0;
      rd_sched_o   <= '0;
      rd_stalled_o <= '0;
      rd_ready_o   <= '0;
    end else begin
      valid_q      <= valid_d;
      state_q      <= state_d;
      reg_q        <= reg_d;
      meta_q       <= meta_d;
      rd_v_o       <= rd_v_i;
      rd_valid_o   <= rd_valid_d;
      rd_state_o   <= rd_state_d;
      rd_reg_o     <= rd_reg_d;
      rd_meta_o    <= rd_meta_d;
      rd_nvalid_o  <= rd_nvalid_d;
      rd_sched_o   <= rd_sched_d;
      rd_stalled_o <= rd_stalled_d;
      rd_ready_o   <= rd_ready_d;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdGpuduetWctWidth, NW >= 1 && NW <= (1 << WW) && AW >= 2 && AW <= 32 &&
                                     RfUnits >= 1 && RfUnits < (1 << AW))
  `HD_ASSERT_KNOWN(HdGpuduetWctRdKnown, rd_v_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdGpuduetWctSchedKnown, rd_sched_o, clk_i, rst_ni)
  `HD_ASSERT(HdGpuduetWctRdIdleZero,
             rd_v_o || (!rd_valid_o && rd_state_o == '0 && rd_reg_o == '0 && rd_meta_o == '0 &&
                        rd_nvalid_o == '0 && rd_sched_o == '0 && rd_stalled_o == '0 &&
                        rd_ready_o == '0), clk_i, rst_ni)
  // The three vectors are disjoint (one state per warp).
  `HD_ASSERT(HdGpuduetWctVecDisjoint, (rd_sched_o & rd_stalled_o) == '0 &&
             (rd_sched_o & rd_ready_o) == '0 && (rd_stalled_o & rd_ready_o) == '0, clk_i, rst_ni)

endmodule
