; Trap and interrupt entry stubs.
;
; Each of the 256 vectors (asm/irq_vectors.h) has an entry stub that pushes a dummy error code (where the CPU pushes
; none) and its vector number, then jumps to trap_common, which saves the
; general registers as a struct pt_regs (asm/ptrace.h) and calls
; trap_dispatch(regs).  The stack on entry to trap_dispatch:
;
;   [ss rsp rflags cs rip]  pushed by the CPU
;   [error_code vector]     pushed by the entry stub
;   [rax rbx ... r15]       pushed by trap_common   <- rsp = struct pt_regs *

bits 64
section .text

extern trap_dispatch
global trap_common, trap_common_end, syscall_entry, ret_from_fork_asm

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
%rep 256
%if HAS_ERR(v)
    TRAP_ERR v
%else
    TRAP_NOERR v
%endif
%assign v v + 1
%endrep

trap_common:
    test qword [rsp + 24], 3    ; from user mode? (saved CS)
    jz .kernel
    swapgs                      ; GS: the user's -> this CPU's area
.kernel:
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
global trap_return
trap_return:                    ; rsp = struct pt_regs *: restore and return
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
    test qword [rsp + 8], 3     ; back to user mode?
    jz .iret
    swapgs
.iret:
    iretq
trap_common_end:                ; scripts/gdb/folios/unwind.py unwinds up to here

section .rodata
global trap_stubs
trap_stubs:
%assign v 0
%rep 256
    dq trap_stub_ %+ v
%assign v v + 1
%endrep

; SYSCALL from user mode (MSR_LSTAR).  The CPU left the user rip in rcx and
; rflags in r11, interrupts off (MSR_FMASK).  Build the same struct pt_regs
; a trap builds (vector = -1, and the number where a trap's error code
; goes: signal delivery restarts the call from it) on the task's kernel stack, call
; do_syscall(regs), and return through trap_return with iretq, which also
; serves tasks that were switched or exec'd meanwhile.
PERCPU_KERNEL_RSP equ 0
PERCPU_USER_RSP   equ 8
extern do_syscall
section .text
syscall_entry:
    swapgs
    mov [gs:PERCPU_USER_RSP], rsp
    mov rsp, [gs:PERCPU_KERNEL_RSP]
    push qword 0x1b             ; ss = USER_DS
    push qword [gs:PERCPU_USER_RSP]
    push r11                    ; rflags
    push qword 0x23             ; cs = USER_CS
    push rcx                    ; rip
    push rax                    ; error code slot: the call's number (Linux's orig_ax)
    push qword -1               ; vector: a system call
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
    call do_syscall
    jmp trap_return

; A new task's first return to user mode: __switch_to "returned" here with
; rsp at the struct pt_regs its creator filled in, and rax the task it
; switched from.  ret_from_fork(prev, regs) (arch/x86_64/process.c)
; finishes that switch and leaves with interrupts off, as do_syscall does.
extern ret_from_fork
ret_from_fork_asm:
    mov rdi, rax
    mov rsi, rsp
    call ret_from_fork
    jmp trap_return
