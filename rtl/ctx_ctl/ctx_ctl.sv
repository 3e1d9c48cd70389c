// SPDX-License-Identifier: MIT
/**
 * ctx_ctl - the SM's preemption controller (Lin thesis §2.7, Fig 2.13; digest §3.3): sequences
 * one TB's save or restore at a time for the SM's context engine.
 *
 * Save:    IDLE -start-> DRAIN -quiet_i-> SAVE_REGS (each warp's live registers through the
 *          compressor and packer; their segments and pattern vectors go out) -regs_done_i and no
 *          register request left-> SAVE_SMEM -no shared-memory request left-> SAVE_SIMT -no
 *          stack request left-> UPDATE_CCB -all sent-> DONE -> IDLE.
 * Restore: IDLE -start, restore_i-> READ_CCB -the CCB read sent-> READ_CTX (every part read)
 *          -all sent and data_i-> RESTORE_REGS (registers through the unpacker and
 *          decompressor) -regs_done_i-> DONE -> IDLE.
 * The outputs say what the engine may do this cycle (the part it may send, whether the codec
 * takes registers) and when the operation is complete. Transitions use the inputs of the cycle
 * (the engine's status at the cycle's start), so the engine acts one cycle after the condition.
 *
 * Registered outputs: all are decoded from the state register only (Moore), so they change only
 * after a clock edge. No datapath, hence no parameters.
 * Bit-exact C reference: compressors/ctx_ctl.c; ports: ctx_ctl_ports.def.
 */
`include "../include/hd_assert.svh"

module ctx_ctl (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       start_i,
  input  logic       restore_i,
  input  logic       quiet_i,
  input  logic [2:0] next_i,
  input  logic       all_sent_i,
  input  logic       regs_done_i,
  input  logic       data_i,
  output logic [3:0] state_o,
  output logic [2:0] part_o,
  output logic       codec_o,
  output logic       done_o
);

  localparam logic [3:0] StIdle        = 4'd0;
  localparam logic [3:0] StDrain       = 4'd1;
  localparam logic [3:0] StSaveRegs    = 4'd2;
  localparam logic [3:0] StSaveSmem    = 4'd3;
  localparam logic [3:0] StSaveSimt    = 4'd4;
  localparam logic [3:0] StUpdateCcb   = 4'd5;
  localparam logic [3:0] StReadCcb     = 4'd6;
  localparam logic [3:0] StReadCtx     = 4'd7;
  localparam logic [3:0] StRestoreRegs = 4'd8;
  localparam logic [3:0] StDone        = 4'd9;

  localparam logic [2:0] PartNone  = 3'd0;
  localparam logic [2:0] PartRegs  = 3'd1;
  localparam logic [2:0] PartSmem  = 3'd2;
  localparam logic [2:0] PartStack = 3'd3;
  localparam logic [2:0] PartCcb   = 3'd4;
  localparam logic [2:0] PartAny   = 3'd5;

  logic [3:0] state_q, state_d;

  always_comb begin
    state_d = state_q;
    unique case (state_q)
      StIdle:        if (start_i) state_d = restore_i ? StReadCcb : StDrain;
      StDrain:       if (quiet_i) state_d = StSaveRegs;
      StSaveRegs:    if (regs_done_i && next_i != PartRegs) state_d = StSaveSmem;
      StSaveSmem:    if (next_i != PartSmem) state_d = StSaveSimt;
      StSaveSimt:    if (next_i != PartStack) state_d = StUpdateCcb;
      StUpdateCcb:   if (all_sent_i) state_d = StDone;
      StReadCcb:     if (next_i != PartCcb) state_d = StReadCtx;
      StReadCtx:     if (all_sent_i && data_i) state_d = StRestoreRegs;
      StRestoreRegs: if (regs_done_i) state_d = StDone;
      StDone:        state_d = StIdle;
      default:       state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
    end else begin
      state_q <= state_d;
    end
  end

  always_comb begin
    unique case (state_q)
      StSaveRegs:  part_o = PartRegs;
      StSaveSmem:  part_o = PartSmem;
      StSaveSimt:  part_o = PartStack;
      StUpdateCcb: part_o = PartCcb;
      StReadCcb:   part_o = PartCcb;
      StReadCtx:   part_o = PartAny;
      default:     part_o = PartNone;
    endcase
  end
  assign state_o = state_q;
  assign codec_o = state_q == StSaveRegs || state_q == StRestoreRegs;
  assign done_o  = state_q == StDone;

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_KNOWN(HdCtxCtlStateKnown, state_q, clk_i, rst_ni)
  `HD_ASSERT(HdCtxCtlStateRange, state_q <= StDone, clk_i, rst_ni)
  // Protocol: an operation starts only when the controller is idle.
  `HD_ASSERT(HdCtxCtlStartIdle, !start_i || state_q == StIdle, clk_i, rst_ni)
  `HD_ASSERT(HdCtxCtlNextRange, next_i <= PartCcb, clk_i, rst_ni)

endmodule
