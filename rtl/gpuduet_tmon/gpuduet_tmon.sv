// SPDX-License-Identifier: MIT
/**
 * gpuduet_tmon - GPUDuet's throughput monitor and ME controller, one per SM (Lin thesis §2.10,
 * §3.13, Table 3.3).
 *
 * From start_i (kernel launch: ME = 0, lengths and the ME bound sampled) the block waits warm_i
 * cycles, then counts per window of win_i cycles the warp instructions issued, L1D and L2
 * data-port accesses, interconnect flits and DRAM transfers. At a window's last cycle each
 * resource k's utilisation u = count / (win * Cap_k * P_k / 100) (P = 60 for the interconnect,
 * whose sustainable bandwidth is 60 % of peak, else 100) is compared with Table 3.3's thresholds
 * by multiplication only:  u < T  <=>  count * 10000 < T * P_k * Cap_k * win  (and > likewise).
 *   underutilised (class 1): Sched < 60, L1 < 60, Icnt < 60, L2 < 60 and DRAM < 50 (%)
 *   saturated     (class 3): Sched > 80, L1 > 80, Icnt > 90, L2 > 80 or DRAM > 70
 *   moderate      (class 2): otherwise
 * ME update (§2.10): the first window decides (1: ME = bound; 3: ME = 0; 2: ME = 1, search);
 * while searching, each later window adds 1 up to the bound until a saturated window, which
 * takes the last 1 back and ends the search (the thesis does not say how the search ends: a
 * back-off by one, no later re-evaluation). l1ctx_o: not saturated and L1D utilisation < 3 %.
 *
 * Registered outputs: upd_* one cycle after a window's last cycle, 0 otherwise. Bit-exact C
 * reference: tables/gpuduet_tmon.c; ports: gpuduet_tmon_ports.def.
 *
 * Parameters (configs/rtl/gpuduet_tmon.ini): NSched, L1Cap, IcntCap, L2Cap, DramCap (per-cycle
 * capacities); InW input bits; CntW counter bits; WinW length bits; MW ME bits.
 */
`include "../include/hd_assert.svh"

module gpuduet_tmon #(
  parameter int unsigned NSched  = 4,
  parameter int unsigned L1Cap   = 1,
  parameter int unsigned IcntCap = 2,
  parameter int unsigned L2Cap   = 1,
  parameter int unsigned DramCap = 1,
  parameter int unsigned InW     = 4,
  parameter int unsigned CntW    = 32,
  parameter int unsigned WinW    = 24,
  parameter int unsigned MW      = 6
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,
  input  logic            stop_i,
  input  logic [WinW-1:0] warm_i,
  input  logic [WinW-1:0] win_i,
  input  logic [MW-1:0]   me_ub_i,
  input  logic [InW-1:0]  iss_i,
  input  logic [InW-1:0]  l1_i,
  input  logic [InW-1:0]  icnt_i,
  input  logic [InW-1:0]  l2_i,
  input  logic [InW-1:0]  dram_i,
  output logic            upd_v_o,
  output logic [1:0]      cls_o,
  output logic [MW-1:0]   me_o,
  output logic            l1ctx_o,
  output logic [4:0]      sat_o,
  output logic [4:0]      low_o
);

  localparam logic [1:0] Off  = 2'd0;
  localparam logic [1:0] Warm = 2'd1;
  localparam logic [1:0] Win  = 2'd2;

  logic [1:0]      phase_d, phase_q;
  logic [WinW-1:0] cyc_d, cyc_q, warm_d, warm_q, win_d, win_q;
  logic [MW-1:0]   ub_d, ub_q, me_d, me_q;
  logic            first_d, first_q, search_d, search_q;
  logic [5*CntW-1:0] cnt_d, cnt_q;

  logic [5*InW-1:0]  inc;
  logic [5*CntW-1:0] cnt_n;       // counts including this cycle
  logic [4:0]        low, sat;
  logic              l1low, last;
  logic [1:0]        cls;

  logic          upd_v_d, l1ctx_d;
  logic [1:0]    cls_d;
  logic [4:0]    sat_d, low_d;

  assign inc = {dram_i, l2_i, icnt_i, l1_i, iss_i};

  // Per resource: the count so far and the two threshold compares (multiplications only).
  for (genvar k = 0; k < 5; k++) begin : g_r
    localparam int unsigned Cap = (k == 0) ? NSched : (k == 1) ? L1Cap : (k == 2) ? IcntCap :
                                  (k == 3) ? L2Cap : DramCap;
    localparam int unsigned Pct = (k == 2) ? 60 : 100;   // sustainable share of the peak
    localparam int unsigned TLo = (k == 4) ? 50 : 60;    // underutilised below
    localparam int unsigned THi = (k == 2) ? 90 : (k == 4) ? 70 : 80; // saturated above
    logic [63:0] lhs, win_cap;
    assign cnt_n[k*CntW +: CntW] = cnt_q[k*CntW +: CntW] + CntW'(inc[k*InW +: InW]);
    assign lhs     = 64'(cnt_n[k*CntW +: CntW]) * 64'd10000;
    assign win_cap = 64'(win_q) * 64'(Pct * Cap);
    assign low[k]  = lhs < win_cap * 64'(TLo);
    assign sat[k]  = lhs > win_cap * 64'(THi);
  end

  // L1D as context store (§2.10): its utilisation below 3 %.
  assign l1low = 64'(cnt_n[1*CntW +: CntW]) * 64'd10000 < 64'(win_q) * 64'(3 * 100 * L1Cap);
  assign cls   = (low == 5'b11111) ? 2'd1 : (sat != '0) ? 2'd3 : 2'd2;
  assign last  = cyc_q + 1'b1 == win_q;

  always_comb begin
    phase_d  = phase_q;
    cyc_d    = cyc_q;
    warm_d   = warm_q;
    win_d    = win_q;
    ub_d     = ub_q;
    me_d     = me_q;
    first_d  = first_q;
    search_d = search_q;
    cnt_d    = cnt_q;
    upd_v_d  = 1'b0;
    cls_d    = '0;
    l1ctx_d  = 1'b0;
    sat_d    = '0;
    low_d    = '0;
    if (start_i) begin
      warm_d   = warm_i;
      win_d    = (win_i == '0) ? WinW'(1) : win_i;
      ub_d     = me_ub_i;
      me_d     = '0;
      first_d  = 1'b1;
      search_d = 1'b0;
      cnt_d    = '0;
      cyc_d    = '0;
      phase_d  = (warm_i == '0) ? Win : Warm;
    end else if (stop_i) begin
      phase_d = Off;
    end else if (phase_q == Warm) begin
      if (cyc_q + 1'b1 == warm_q) begin
        cyc_d   = '0;
        phase_d = Win;
      end else begin
        cyc_d = cyc_q + 1'b1;
      end
    end else if (phase_q == Win) begin
      cnt_d = cnt_n;
      cyc_d = cyc_q + 1'b1;
      if (last) begin
        cnt_d   = '0;
        cyc_d   = '0;
        upd_v_d = 1'b1;
        cls_d   = cls;
        l1ctx_d = cls != 2'd3 && l1low;
        sat_d   = sat;
        low_d   = low;
        if (first_q) begin
          first_d  = 1'b0;
          search_d = cls == 2'd2;
          if (cls == 2'd1) begin
            me_d = ub_q;
          end else if (cls == 2'd3) begin
            me_d = '0;
          end else begin
            me_d = (ub_q != '0) ? MW'(1) : '0;
          end
        end else if (search_q) begin
          if (cls == 2'd3) begin
            search_d = 1'b0;
            me_d     = (me_q != '0) ? me_q - 1'b1 : '0;
          end else if (me_q < ub_q) begin
            me_d = me_q + 1'b1;
          end
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      phase_q  <= Off;
      cyc_q    <= '0;
      warm_q   <= '0;
      win_q    <= '0;
      ub_q     <= '0;
      me_q     <= '0;
      first_q  <= 1'b0;
      search_q <= 1'b0;
      cnt_q    <= '0;
      upd_v_o  <= 1'b0;
      cls_o    <= '0;
      me_o     <= '0;
      l1ctx_o  <= 1'b0;
      sat_o    <= '0;
      low_o    <= '0;
    end else begin
      phase_q  <= phase_d;
      cyc_q    <= cyc_d;
      warm_q   <= warm_d;
      win_q    <= win_d;
      ub_q     <= ub_d;
      me_q     <= me_d;
      first_q  <= first_d;
      search_q <= search_d;
      cnt_q    <= cnt_d;
      upd_v_o  <= upd_v_d;
      cls_o    <= cls_d;
      me_o     <= upd_v_d ? me_d : '0;
      l1ctx_o  <= l1ctx_d;
      sat_o    <= sat_d;
      low_o    <= low_d;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdGpuduetTmonWidth, CntW >= InW + WinW && CntW <= 40 && WinW <= 24 &&
                                      MW >= 1 && MW <= 16 && NSched >= 1 && L1Cap >= 1 &&
                                      IcntCap >= 1 && L2Cap >= 1 && DramCap >= 1)
  `HD_ASSERT_KNOWN(HdGpuduetTmonUpdKnown, upd_v_o, clk_i, rst_ni)
  `HD_ASSERT(HdGpuduetTmonIdleZero,
             upd_v_o || (cls_o == '0 && me_o == '0 && !l1ctx_o && sat_o == '0 && low_o == '0),
             clk_i, rst_ni)
  `HD_ASSERT(HdGpuduetTmonClass, !upd_v_o || cls_o != 2'd0, clk_i, rst_ni)
  `HD_ASSERT(HdGpuduetTmonMeBound, me_q <= ub_q, clk_i, rst_ni)

endmodule
