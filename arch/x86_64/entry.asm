; Trap and interrupt entry stubs.
;
; Each vector has a stub that pushes a dummy error code (where the CPU pushes
; none) and its vector number, then jumps to trap_common, which saves the
; general registers as a struct pt_regs (asm/ptrace.h) and calls
; trap_dispatch(regs).  The stack on entry to trap_dispatch:
;
;   [ss rsp rflags cs rip]  pushed by the CPU
;   [error_code vector]     pushed by the stub
;   [rax rbx ... r15]       pushed by trap_common   <- rsp = struct pt_regs *

bits 64
section .text

extern trap_dispatch
global trap_common, trap_common_end

%macro TRAP_NOERR 1
trap_stub_%1:
    push qword 0
    push qword %1
    jmp trap_common
%endmacro

%macro TRAP_ERR 1
trap_stub_%1:
    push qword %1
    jmp trap_common
%endmacro

; vectors whose exceptions push an error code
%define HAS_ERR(v) (v == 8 || (v >= 10 && v <= 14) || v == 17 || v == 21 || v == 29 || v == 30)

%assign v 0
%rep 48
%if HAS_ERR(v)
    TRAP_ERR v
%else
    TRAP_NOERR v
%endif
%assign v v + 1
%endrep

trap_common:
    push rax
    push rbx
    push rcx
    push rdx
    push rsi
    push rdi
    push rbp
    push r8
    push r9
    push r10
    push r11
    push r12
    push r13
    push r14
    push r15
    cld
    mov rdi, rsp
    call trap_dispatch
    pop r15
    pop r14
    pop r13
    pop r12
    pop r11
    pop r10
    pop r9
    pop r8
    pop rbp
    pop rdi
    pop rsi
    pop rdx
    pop rcx
    pop rbx
    pop rax
    add rsp, 16                 ; vector and error code
    iretq
trap_common_end:                ; scripts/gdb/folios/unwind.py unwinds up to here

section .rodata
global trap_stubs
trap_stubs:
%assign v 0
%rep 48
    dq trap_stub_ %+ v
%assign v v + 1
%endrep
