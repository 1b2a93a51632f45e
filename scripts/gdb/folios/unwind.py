"""Unwind through the trap entry (arch/x86_64/entry.asm): a frame whose pc
is in trap_common has a struct pt_regs at its stack pointer, holding the
interrupted context, so `bt` continues into the code that trapped."""
import gdb
from gdb.unwinder import Unwinder

REGS = ["r15", "r14", "r13", "r12", "r11", "r10", "r9", "r8", "rbp", "rdi", "rsi",
        "rdx", "rcx", "rbx", "rax", "vector", "error_code", "rip", "cs", "rflags",
        "rsp", "ss"]


class FrameId:
    def __init__(self, sp, pc):
        self.sp = sp
        self.pc = pc


class TrapUnwinder(Unwinder):
    def __init__(self):
        super().__init__("folios-trap")
        self.range = None

    def trap_common_range(self):
        if self.range is None:
            start = int(gdb.parse_and_eval("(unsigned long)&trap_common"))
            end = int(gdb.parse_and_eval("(unsigned long)&trap_common_end"))
            self.range = (start, end)
        return self.range

    def __call__(self, pending):
        try:
            pc = int(pending.read_register("rip"))
            lo, hi = self.trap_common_range()
        except gdb.error:
            return None
        if not lo <= pc < hi:
            return None
        sp = int(pending.read_register("rsp"))
        u64 = gdb.lookup_type("unsigned long")
        mem = gdb.selected_inferior().read_memory(sp, 8 * len(REGS))
        vals = dict(zip(REGS, [int.from_bytes(bytes(mem[i * 8:i * 8 + 8]), "little")
                               for i in range(len(REGS))]))
        info = pending.create_unwind_info(FrameId(gdb.Value(sp).cast(u64), gdb.Value(pc).cast(u64)))
        for name in ["rip", "rsp", "rbp", "rax", "rbx", "rcx", "rdx", "rsi", "rdi",
                     "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"]:
            info.add_saved_register(name, gdb.Value(vals[name]).cast(u64))
        return info


gdb.unwinder.register_unwinder(None, TrapUnwinder(), replace=True)
