// SPDX-License-Identifier: MIT
/**
 * ccbp_monitor - CCBP's per-application bandwidth monitors, one per GPU in the CCBP logic (Lin
 * thesis §4.5.1, §4.5.4; digest §2.16, §3.15). Per application and per measure (0 warp
 * instructions, 1 L1D-miss requests, 2 NoC flits toward the L2, 3 NoC flits back, 4 DRAM
 * data-bus cycles) a live window counter of MW bits, saturating, and a snapshot of the last
 * closed window that the firmware reads one counter per cycle.
 *
 * Within an edge: the cycle's increments (NW bits per application and measure) are added; a tick
 * then copies the live counters to the snapshot and clears them; rd_v_i returns one snapshot
 * counter after the edge (kinds 5 to 7: 0).
 *
 * Registered outputs: all, one cycle after their request; 0 in a cycle without a result.
 * Bit-exact C reference: tables/ccbp_monitor.c; ports: ccbp_monitor_ports.def.
 *
 * Parameters (configs/rtl/ccbp_monitor.ini):
 *   A  applications (a power of two);  AW  $clog2(A);  NW  increment bits;  MW  counter bits
 */
`include "../include/hd_assert.svh"

module ccbp_monitor #(
  parameter int unsigned A  = 4,
  parameter int unsigned AW = 2,
  parameter int unsigned NW = 8,
  parameter int unsigned MW = 20
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [A*NW-1:0] inc_iss_i,
  input  logic [A*NW-1:0] inc_req_i,
  input  logic [A*NW-1:0] inc_fq_i,
  input  logic [A*NW-1:0] inc_fr_i,
  input  logic [A*NW-1:0] inc_dram_i,
  input  logic            tick_i,
  input  logic            rd_v_i,
  input  logic [2:0]      rd_kind_i,
  input  logic [AW-1:0]   rd_app_i,
  output logic            win_o,
  output logic            rd_v_o,
  output logic [MW-1:0]   rd_cnt_o
);

  localparam int unsigned K = 5;       // measures
  localparam int unsigned N = K * A;   // counters, counter k*A + a: measure k, application a

  logic [K*A*NW-1:0] inc;
  logic [N*MW-1:0]   live_q, live_d, snap_q, snap_d;
  logic [MW-1:0]     rd_cnt;

  assign inc = {inc_dram_i, inc_fr_i, inc_fq_i, inc_req_i, inc_iss_i};

  // Saturating add of each counter's increment (the sum is one bit wider than the counter).
  always_comb begin
    logic [MW:0] sum;
    for (int unsigned i = 0; i < N; i++) begin
      sum = {1'b0, live_q[i*MW +: MW]} + (MW+1)'(inc[i*NW +: NW]);
      live_d[i*MW +: MW] = sum[MW] ? '1 : sum[MW-1:0];
    end
    snap_d = snap_q;
    if (tick_i) begin
      snap_d = live_d;
      live_d = '0;
    end
  end

  always_comb begin
    rd_cnt = '0;
    if (rd_v_i && rd_kind_i < 3'(K)) begin
      rd_cnt = snap_d[(32'(rd_kind_i) * A + 32'(rd_app_i)) * MW +: MW];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      live_q   <= '0;
      snap_q   <= '0;
      win_o    <= 1'b0;
      rd_v_o   <= 1'b0;
      rd_cnt_o <= '0;
    end else begin
      live_q   <= live_d;
      snap_q   <= snap_d;
      win_o    <= tick_i;
      rd_v_o   <= rd_v_i;
      rd_cnt_o <= rd_cnt;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdCcbpMonitorWidth, A >= 2 && A <= 8 && (1 << AW) == A && NW <= MW &&
                                      MW <= 32 && A * NW <= 64)
  `HD_ASSERT_KNOWN(HdCcbpMonitorWinKnown, win_o, clk_i, rst_ni)
  `HD_ASSERT(HdCcbpMonitorRdIdleZero, rd_v_o || rd_cnt_o == '0, clk_i, rst_ni)

endmodule
