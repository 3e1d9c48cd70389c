// SPDX-License-Identifier: MIT
/**
 * gpuduet_csl - GPUDuet's context switching logic, its data-mover sequencing, one per SM (Lin
 * thesis §3.11, §2.12, Eq. 3.1-3.3): the switch-outs, switch-ins and swaps the CSL decides are
 * queued as jobs (QD) and served in order, one PW-byte beat per cycle between two of the unified
 * space's arrays (0 register file, 1 shared memory, 2 L1D) through their ports, at a lower
 * priority than the pipeline: a cycle in which busy_i names the head job's source or
 * destination moves nothing (wait_o). A swap moves the stalled warp's state out, then the ready
 * warp's state back the other way into the vacated space (the thesis's sequenced move through a
 * PW-byte staging beat). Switch latency = State / PW beats + the waits (Eq. 3.1-3.3).
 *
 * Within an edge: the head job's beat (and its completion), then the command's enqueue (a
 * command never beats at the edge that takes it; a queue full after the completion refuses it).
 * Registered outputs: all; done_* one cycle after the last beat, drop_o one cycle after a
 * refused command, 0 in a cycle without a result; full_o and qcnt_o the queue after the edge.
 * Bit-exact C reference: tables/gpuduet_csl.c; ports: gpuduet_csl_ports.def.
 *
 * Parameters (configs/rtl/gpuduet_csl.ini): PW bytes per beat, QD jobs, BW byte-count bits,
 * IW warp id bits, CW = $clog2(QD + 1).
 */
`include "../include/hd_assert.svh"

module gpuduet_csl #(
  parameter int unsigned PW = 128,
  parameter int unsigned QD = 4,
  parameter int unsigned BW = 16,
  parameter int unsigned IW = 7,
  parameter int unsigned CW = 3
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          cmd_v_i,
  input  logic [1:0]    cmd_kind_i,
  input  logic [IW-1:0] cmd_wid_i,
  input  logic [1:0]    cmd_src_i,
  input  logic [1:0]    cmd_dst_i,
  input  logic [BW-1:0] cmd_bytes_i,
  input  logic [BW-1:0] cmd_bytes2_i,
  input  logic [2:0]    busy_i,
  output logic          full_o,
  output logic          drop_o,
  output logic          beat_v_o,
  output logic [1:0]    beat_src_o,
  output logic [1:0]    beat_dst_o,
  output logic          wait_o,
  output logic          done_v_o,
  output logic [IW-1:0] done_wid_o,
  output logic [1:0]    done_kind_o,
  output logic [CW-1:0] qcnt_o
);

  localparam int unsigned QPW = (QD > 1) ? $clog2(QD) : 1;

  // The job queue, one flat vector per field (entry e at [e*W +: W]).
  logic [QD*2-1:0]  kind_d, kind_q, src_d, src_q, dst_d, dst_q;
  logic [QD*IW-1:0] wid_d, wid_q;
  logic [QD*BW-1:0] rem_d, rem_q, rem2_d, rem2_q;  // bytes left: this part, a swap's second
  logic [QPW-1:0]   head_d, head_q;
  logic [CW-1:0]    cnt_d, cnt_q;
  logic [QPW-1:0]   tail;
  logic [1:0]       hsrc, hdst;
  logic [BW-1:0]    hrem, hrem2;
  logic             beat, waitc, done, bad, drop;

  assign hsrc  = src_q[head_q*2 +: 2];
  assign hdst  = dst_q[head_q*2 +: 2];
  assign hrem  = rem_q[head_q*BW +: BW];
  assign hrem2 = rem2_q[head_q*BW +: BW];
  assign bad   = cmd_kind_i == 2'd3 || cmd_src_i == 2'd3 || cmd_dst_i == 2'd3 ||
                 cmd_src_i == cmd_dst_i || cmd_bytes_i == '0;

  always_comb begin
    kind_d = kind_q;
    src_d  = src_q;
    dst_d  = dst_q;
    wid_d  = wid_q;
    rem_d  = rem_q;
    rem2_d = rem2_q;
    head_d = head_q;
    cnt_d  = cnt_q;
    beat   = 1'b0;
    waitc  = 1'b0;
    done   = 1'b0;
    drop   = 1'b0;
    tail   = '0;
    if (cnt_q != '0) begin
      // (arrays are 0..2: a job never names 3, refused at the command)
      if ((hsrc != 2'd3 && busy_i[hsrc]) || (hdst != 2'd3 && busy_i[hdst])) begin
        waitc = 1'b1;
      end else begin
        beat = 1'b1;
        if (hrem > BW'(PW)) begin
          rem_d[head_q*BW +: BW] = hrem - BW'(PW);
        end else if (hrem2 != '0) begin  // a swap's second part: the other way
          rem_d[head_q*BW +: BW]  = hrem2;
          rem2_d[head_q*BW +: BW] = '0;
          src_d[head_q*2 +: 2]    = hdst;
          dst_d[head_q*2 +: 2]    = hsrc;
        end else begin
          done   = 1'b1;
          head_d = head_q + 1'b1;
          cnt_d  = cnt_q - 1'b1;
        end
      end
    end
    if (cmd_v_i) begin
      if (bad || cnt_d == CW'(QD)) begin
        drop = 1'b1;
      end else begin
        tail = head_d + QPW'(cnt_d);
        kind_d[tail*2 +: 2]   = cmd_kind_i;
        src_d[tail*2 +: 2]    = cmd_src_i;
        dst_d[tail*2 +: 2]    = cmd_dst_i;
        wid_d[tail*IW +: IW]  = cmd_wid_i;
        rem_d[tail*BW +: BW]  = cmd_bytes_i;
        rem2_d[tail*BW +: BW] = (cmd_kind_i == 2'd2) ? cmd_bytes2_i : '0;
        cnt_d = cnt_d + 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      kind_q      <= '0;
      src_q       <= '0;
      dst_q       <= '0;
      wid_q       <= '0;
      rem_q       <= '0;
      rem2_q      <= '0;
      head_q      <= '0;
      cnt_q       <= '0;
      full_o      <= 1'b0;
      drop_o      <= 1'b0;
      beat_v_o    <= 1'b0;
      beat_src_o  <= '0;
      beat_dst_o  <= '0;
      wait_o      <= 1'b0;
      done_v_o    <= 1'b0;
      done_wid_o  <= '0;
      done_kind_o <= '0;
      qcnt_o      <= '0;
    end else begin
      kind_q      <= kind_d;
      src_q       <= src_d;
      dst_q       <= dst_d;
      wid_q       <= wid_d;
      rem_q       <= rem_d;
      rem2_q      <= rem2_d;
      head_q      <= head_d;
      cnt_q       <= cnt_d;
      full_o      <= cnt_d == CW'(QD);
      drop_o      <= drop;
      beat_v_o    <= beat;
      beat_src_o  <= beat ? hsrc : '0;
      beat_dst_o  <= beat ? hdst : '0;
      wait_o      <= waitc;
      done_v_o    <= done;
      done_wid_o  <= done ? wid_q[head_q*IW +: IW] : '0;
      done_kind_o <= done ? kind_q[head_q*2 +: 2] : '0;
      qcnt_o      <= cnt_d;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdGpuduetCslParams, PW >= 1 && PW < (1 << BW) && QD >= 1 &&
                                      (QD & (QD - 1)) == 0 && QD < (1 << CW) && BW <= 32 &&
                                      IW <= 16)
  `HD_ASSERT(HdGpuduetCslCount, cnt_q <= CW'(QD), clk_i, rst_ni)
  `HD_ASSERT(HdGpuduetCslBeatOrWait, !(beat_v_o && wait_o), clk_i, rst_ni)
  `HD_ASSERT(HdGpuduetCslDoneBeat, !done_v_o || beat_v_o, clk_i, rst_ni)
  `HD_ASSERT(HdGpuduetCslBeatArrays, !beat_v_o || (beat_src_o != beat_dst_o && beat_src_o != 2'd3
                                     && beat_dst_o != 2'd3), clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdGpuduetCslDoneKnown, done_v_o, clk_i, rst_ni)

endmodule
